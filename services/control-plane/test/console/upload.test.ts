// Deploying a folder from the browser, against the platform as `npm start` runs it: the create form
// takes examples/ packed as a .tar.gz, shows the upload's progress (the network slowed down by
// Chromium's own throttling, so the bar is seen between empty and full), and its page follows the
// new revision to DEPLOYED; the runtime then serves the example graphs with the key the page showed.
// A file that is no archive is refused on the form with a sentence, nothing created; an archive the
// control plane refuses (a link inside) lands on the deployment's page with the control plane's
// sentence, where a .zip of examples/ is then deployed. The upload exchange is the one
// `langgraph deploy` uses (upload URL, PUT, PATCH). Needs Debian's `chromium`; skipped without it.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, CDPSession, Page } from "playwright-core";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { chromiumAvailable, launchChromium } from "@lgp/server-kit/src/testing/chromium";
import { signIn, startConsolePlatform, type ConsolePlatform } from "./platform";

const hasChromium = chromiumAvailable("console upload test");
const CONSOLE_DIST = path.join(REPO_ROOT, "packages/console/dist/index.html");
const EXAMPLES = path.join(REPO_ROOT, "examples");
const DEPLOY_TIMEOUT = 150_000;

(hasChromium ? describe : describe.skip)("deploying a folder from the console", () => {
  let platform: ConsolePlatform;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let work: string;
  let shots: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CONSOLE_DIST)) execFileSync("npm", ["run", "build", "-w", "packages/console"], { cwd: REPO_ROOT });
    work = mkdtempSync(path.join(os.tmpdir(), "console-upload-"));
    shots = process.env.CONSOLE_SCREENSHOTS_DIR
      ? path.resolve(REPO_ROOT, process.env.CONSOLE_SCREENSHOTS_DIR)
      : path.join(work, "shots");
    mkdirSync(shots, { recursive: true });
    [platform, browser] = await Promise.all([startConsolePlatform(), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
  }, 200_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const shot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  const api = async (pathname: string) => {
    const response = await fetch(`${platform.controlPlaneUrl}${pathname}`, {
      headers: { "X-Api-Key": platform.apiKey },
    });
    return (await response.json()) as Record<string, unknown> & { resources: Record<string, unknown>[] };
  };
  /** Chromium's network throttling: uploads at `bytesPerSecond` (-1: full speed). */
  const throttleUploads = (bytesPerSecond: number) =>
    cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  /** The newest revision of the deployment page's timeline ending DEPLOYED (a failure shows its message). */
  const latestRevisionDeployed = async (deploymentId: string) => {
    await page
      .locator("ol.timeline > li")
      .first()
      .locator(".badge", { hasText: /DEPLOYED|FAILED/ })
      .waitFor({ timeout: DEPLOY_TIMEOUT });
    const [revision] = (await api(`/v2/deployments/${deploymentId}/revisions?limit=1`)).resources;
    if (revision.status !== "DEPLOYED") {
      // A failure says why: its message and the end of its deploy log.
      const log = await api(`/v2/deployments/${deploymentId}/revisions/${String(revision.id)}/logs/deploy?limit=40`);
      const lines = (log.logs as { message: string }[]).map((line) => line.message).join("\n");
      throw new Error(`revision ${String(revision.status)}: ${String(revision.status_message)}\n${lines}`);
    }
  };
  const deploymentIdOfPage = () => new URL(page.url()).pathname.split("/").pop()!;
  const openCreateForm = async (name: string) => {
    await page.getByRole("link", { name: "New deployment" }).click();
    await page.getByRole("heading", { name: "New deployment" }).waitFor();
    await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
    await page.getByRole("radio", { name: /Upload a folder/ }).check();
  };
  /** Waits until the progress bar shows more than nothing and less than all. */
  const partlySent = async () => {
    const seen = new Set<string>();
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      const [value, max] = (await page.evaluate(
        "(p => p ? [p.value, p.max] : [0, 0])(document.querySelector('progress'))",
      )) as number[];
      seen.add(`${value}/${max}`);
      if (value > 0 && value < max) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the progress bar was never seen part way, only at ${[...seen].join(", ")}`);
  };
  /** The example project as a user packs it: the folder's contents at the archive's root. */
  const tarball = (name: string, dir: string, entries: string[]) => {
    const file = path.join(work, name);
    execFileSync("tar", ["-czf", file, "--exclude=node_modules", "-C", dir, ...entries]);
    return file;
  };

  test("the create form uploads examples/ as a .tar.gz with a progress bar, and its revision is followed to DEPLOYED", async () => {
    await signIn(page, platform);
    await openCreateForm("uploaded-example");
    // examples/ with 2 MB of data files beside it (random, so that gzip keeps their size), as projects often carry.
    const project = path.join(work, "project");
    cpSync(EXAMPLES, project, { recursive: true, filter: (source) => !source.includes("node_modules") });
    mkdirSync(path.join(project, "data"));
    writeFileSync(path.join(project, "data/noise.bin"), randomBytes(2 * 1024 * 1024));
    await page.getByLabel("Project archive").setInputFiles(tarball("example.tar.gz", project, ["."]));
    // The form says the size limit before anything is sent.
    await page.getByText(/at most 200 MB unless the control plane's UPLOAD_MAX_BYTES/).waitFor();

    await throttleUploads(512 * 1024);
    await page.getByRole("button", { name: "Create deployment" }).click();
    const bar = page.getByRole("progressbar", { name: "Upload progress" });
    await bar.waitFor();
    // Seen part way: more than nothing, less than all.
    await partlySent();
    expect(await page.getByRole("button", { name: "Uploading…" }).isDisabled()).toBe(true);
    await page.getByText(/^[\d.]+ (bytes|KB|MB) of 2 MB sent$/).waitFor();
    await shot("upload-progress");

    // The deployment's page: the runtime key shown once, the revision followed live.
    await page.getByRole("heading", { name: "uploaded-example" }).waitFor({ timeout: 60_000 });
    await throttleUploads(-1);
    const deploymentId = deploymentIdOfPage();
    const runtimeKey = (await page.locator(".secret-value").textContent())!;
    expect(runtimeKey).toMatch(/^lgp_/);
    await latestRevisionDeployed(deploymentId);
    expect(await page.locator("dl.facts").textContent()).toContain("an uploaded archive");

    // The revision built the uploaded archive, and its runtime serves the example graphs.
    const [revision] = (await api(`/v2/deployments/${deploymentId}/revisions?limit=1`)).resources as {
      status: string;
      url: string;
      source_revision_config: { source_tarball_path: string };
    }[];
    expect(revision.status).toBe("DEPLOYED");
    expect(revision.source_revision_config.source_tarball_path).toMatch(
      new RegExp(`^uploads/${deploymentId}/[0-9a-f-]{36}\\.tar\\.gz$`),
    );
    const assistants = await fetch(`${revision.url}/assistants/search`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-api-key": runtimeKey },
      body: "{}",
    });
    expect(((await assistants.json()) as { graph_id: string }[]).map((a) => a.graph_id)).toContain("agent");
    await page.getByRole("button", { name: "I have kept it" }).click();
  }, 300_000);

  test("a file that is no archive is refused on the form with a sentence, at phone width, and nothing is created", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Deployments" }).click();
    await openCreateForm("not-an-archive");
    const notes = path.join(work, "notes.tar.gz");
    writeFileSync(notes, "a text file, named like a tarball\n");
    await page.getByLabel("Project archive").setInputFiles(notes);
    await page.getByRole("button", { name: "Create deployment" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      "notes.tar.gz is not a .tar.gz or .zip archive. Pack the project folder first, e.g. tar -czf project.tar.gz -C my-project .",
    );
    expect(await page.getByLabel("Project archive").getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    expect((await api("/v2/deployments?name_contains=not-an-archive")).resources).toEqual([]);

    // No file at all: a sentence too.
    await page.getByLabel("Project archive").setInputFiles([]);
    await page.getByRole("button", { name: "Create deployment" }).click();
    await page.getByRole("alert").filter({ hasText: "Choose the project's .tar.gz or .zip archive." }).waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("an archive the control plane refuses lands on the deployment's page with its sentence; a .zip deployed there reaches DEPLOYED", async () => {
    const tree = path.join(work, "linked");
    mkdirSync(tree);
    writeFileSync(path.join(tree, "langgraph.json"), "{}");
    symlinkSync("/etc/passwd", path.join(tree, "passwd"));
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Deployments" }).click();
    await openCreateForm("refused-then-zipped");
    await page
      .getByLabel("Project archive")
      .setInputFiles(tarball("linked.tar.gz", tree, ["langgraph.json", "passwd"]));
    await page.getByRole("button", { name: "Create deployment" }).click();

    await page.getByRole("heading", { name: "refused-then-zipped" }).waitFor();
    const panel = page.getByRole("form", { name: "Deploy an upload" });
    expect(await panel.getByRole("alert").textContent()).toBe(
      "linked.tar.gz was refused: the tarball holds a link or special file (passwd): only files and directories are accepted.",
    );
    expect(await page.locator("ol.timeline > li").count()).toBe(0);
    await shot("upload-refused");

    // A zip of examples/, as any zip tool makes it (Python's zipfile here).
    const zip = path.join(work, "example.zip");
    execFileSync("python3", ["-m", "zipfile", "-c", zip, "langgraph.json", "src"], { cwd: EXAMPLES });
    await panel.getByLabel("Project archive").setInputFiles(zip);
    await throttleUploads(8 * 1024);
    await panel.getByRole("button", { name: "Upload and deploy" }).click();
    await panel.getByRole("progressbar", { name: "Upload progress" }).waitFor();
    await throttleUploads(-1);
    await panel.getByRole("alert").waitFor({ state: "detached" });
    await latestRevisionDeployed(deploymentIdOfPage());
    expect(await page.locator("ol.timeline > li").count()).toBe(1);
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
