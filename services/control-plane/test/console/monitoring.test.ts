// The console's monitoring view in headless Chromium, on a real local deployment of examples/:
// runs made through the official client (two succeed, one fails) are what its summary says and its
// charts draw, by the hour and by the day, read from the deployment's runtime with the runtime key
// the tab keeps; its server logs (the control plane's deploy log of the deployment) filter by level
// and text, and follow mode shows a new line once. A screenshot goes to CONSOLE_SCREENSHOTS_DIR
// (the README's comes from `CONSOLE_SCREENSHOTS_DIR=docs/console`), when set. Skipped without Chromium.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { Client as LangGraphClient, REPO_ROOT } from "@lgp/server-kit/src/testing";
import { chromiumAvailable, launchChromium } from "@lgp/server-kit/src/testing/chromium";
import { exampleRepo } from "../local-deployer/example-repo";
import { startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";

const hasChromium = chromiumAvailable("console monitoring test");
const CONSOLE_DIST = path.join(REPO_ROOT, "packages/console/dist/index.html");

(hasChromium ? describe : describe.skip)("the console's monitoring view in Chromium", () => {
  let h: ReconcilerHarness;
  let browser: Browser;
  let page: Page;
  let sdk: LangGraphClient;
  let deploymentId: string;
  let runtimeKey: string;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CONSOLE_DIST)) execFileSync("npm", ["run", "build", "-w", "packages/console"], { cwd: REPO_ROOT });
    [h, browser] = await Promise.all([
      startReconcilerHarness({ timeoutSeconds: 120, sweepSeconds: 5 }),
      launchChromium(),
    ]);
    const { repo } = exampleRepo(h.workDir);
    const created = await h.api.post("/v2/deployments").send({
      name: "monitored",
      source: "internal_source",
      source_config: { repo_url: `file://${repo}` },
      source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
    });
    expect(created.status).toBe(201);
    deploymentId = created.body.id;
    runtimeKey = created.body.api_key;
    const deployed = await h.waitForRevision(
      deploymentId,
      created.body.latest_revision_id,
      ["DEPLOYED", "BUILD_FAILED", "DEPLOY_FAILED"],
      150_000,
    );
    expect(deployed.status).toBe("DEPLOYED");
    sdk = new LangGraphClient({ apiUrl: deployed.url as string, apiKey: runtimeKey, callerOptions: { maxRetries: 0 } });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (error) => problems.push(String(error)));
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const shot = async (name: string) => {
    const dir = process.env.CONSOLE_SCREENSHOTS_DIR;
    if (!dir) return;
    mkdirSync(path.resolve(REPO_ROOT, dir), { recursive: true });
    await page.screenshot({ path: path.resolve(REPO_ROOT, dir, `${name}.png`), fullPage: true });
  };

  /** A run of the agent graph that fails (its messages are not messages). */
  const failingRun = async () => {
    const thread = await sdk.threads.create();
    const run = await sdk.runs.create(thread.thread_id, "agent", { input: { messages: 42 } });
    await sdk.runs.join(thread.thread_id, run.run_id);
    expect((await sdk.runs.get(thread.thread_id, run.run_id)).status).toBe("error");
  };

  test("the summary and the charts show the runs made: 3 runs, 1 error, by the hour and by the day", async () => {
    const thread = await sdk.threads.create();
    for (let i = 0; i < 2; i++) await sdk.runs.wait(thread.thread_id, "steps", { input: {} });
    await failingRun();

    await page.goto(`${h.url}/console/sign-in`);
    await page.getByLabel("API key").fill(h.apiKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Deployments" }).waitFor();
    await page.goto(`${h.url}/console/deployments/${deploymentId}`);
    await page.getByRole("link", { name: "Monitoring" }).click();
    await page.getByRole("heading", { name: "Monitoring" }).waitFor();
    // This tab never saw the key (the API answered it at creation): asked for, as the playground does.
    await page.getByLabel("Runtime API key").fill(runtimeKey);
    await page.getByRole("button", { name: "Use this key" }).click();

    const summary = page.getByRole("region", { name: "Summary" });
    await summary.getByText("3 runs, 1 error, error rate 33%").waitFor();
    expect(await summary.textContent()).toContain("Now: 0 pending, 0 running");
    await page.getByRole("log", { name: "Server log" }).locator(".line").first().waitFor();
    await page.mouse.move(0, 0); // no tooltip in the picture
    await shot("monitoring");
    expect(await page.title()).toBe("Monitoring: monitored · LangGraph Platform");

    // The charts drew those runs: success and error bars (in one minute, or two if it turned
    // meanwhile), an error rate point and duration points where runs ended.
    const runsChart = page.getByRole("figure", { name: "Runs per minute, by status" });
    const bars = (status: string) => runsChart.locator(`.bar-${status} path.recharts-rectangle`);
    await bars("success").first().waitFor();
    expect(await bars("success").count()).toBeGreaterThanOrEqual(1);
    expect(await bars("success").count()).toBeLessThanOrEqual(2);
    expect(await bars("error").count()).toBe(1);
    expect(await bars("pending").count()).toBe(0);
    const errorRate = page.getByRole("figure", { name: /^Error rate/ });
    expect(await errorRate.locator(".dot-error-rate").count()).toBeGreaterThanOrEqual(1);
    const durations = page.getByRole("figure", { name: "Run duration, seconds" });
    expect(await durations.locator(".dot-p95").count()).toBeGreaterThanOrEqual(1);
    expect(await runsChart.locator(".recharts-legend-item-text").allTextContents()).toEqual(
      expect.arrayContaining(["Success", "Error"]),
    );
    // The same figures as a table: the buckets that had runs add up to the three.
    await page.getByText(/^Figures by bucket/).click();
    const rows = page.getByRole("table", { name: "Figures by bucket" }).locator("tbody tr");
    const counts = await rows.locator('td[data-label="Runs"]').allTextContents();
    expect(counts.reduce((sum, n) => sum + Number(n), 0)).toBe(3);
    expect(
      (await rows.locator('td[data-label="Error"]').allTextContents()).reduce((sum, n) => sum + Number(n), 0),
    ).toBe(1);

    // At phone width the charts go one per row and the table becomes cards: no sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await runsChart.locator(".recharts-surface").first().waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole("button", { name: "Last day" }).click();
    await page.getByRole("figure", { name: "Runs per 15 minutes, by status" }).waitFor();
    await summary.getByText("3 runs, 1 error, error rate 33%").waitFor();
    expect(
      await page
        .getByRole("figure", { name: "Runs per 15 minutes, by status" })
        .locator(".bar-error path.recharts-rectangle")
        .count(),
    ).toBe(1);
  });

  test("server logs: filtered by level and text, and a new line is followed once", async () => {
    const log = page.getByRole("log", { name: "Server log" });
    // The runtime's own lines, collected by the control plane: its failed run is a warning.
    await log.locator(".line.warn", { hasText: "run failed" }).first().waitFor();
    await log.locator(".line.info").first().waitFor();

    // Each filter is applied when the page has read the lines again: wait for what it shows to change.
    const until = async (holds: () => Promise<boolean>) => {
      for (const deadline = Date.now() + 10_000; !(await holds()) && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 100));
    };
    const lines = log.locator(".line");
    await page.getByLabel("Level").selectOption("warn");
    await until(async () => (await log.locator(".line.info").count()) === 0);
    expect(await log.locator(".line.info").count()).toBe(0);
    await log.getByText("run failed").first().waitFor();
    await page.getByLabel("Contains").fill("run failed");
    const failed = log.locator(".line", { hasText: "run failed" });
    // Read once the list has settled on a non-empty answer (it is empty while read again).
    const shown = async () => [await lines.count(), await failed.count()];
    await until(async () => (await shown()).join() === "1,1");
    expect(await shown()).toEqual([1, 1]);
    await page.getByLabel("Level").selectOption("error");
    await log.getByText("No lines match.").waitFor();
    await page.getByLabel("Level").selectOption("warn");
    await failed.first().waitFor();

    // Follow mode (on by default): another failure's line appears by itself, once.
    await failingRun();
    await failed.nth(1).waitFor();
    const ids = await Promise.all([0, 1].map((index) => failed.nth(index).getAttribute("data-id")));
    // A few more follow reads (each asks again for the last minute): still each line once.
    await page.waitForTimeout(4000);
    expect(await failed.count()).toBe(2);
    expect(new Set(ids).size).toBe(2);
    expect(problems).toEqual([]);
  });
});
