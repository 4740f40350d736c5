// The web console in headless Chromium, as a team uses it: sign in with a key, create a deployment
// of examples/ (a 422 shown beside its field first), watch its revision reach DEPLOYED, read its
// logs, change a secret and roll back, open the playground (chat, a tool call, an interrupt answered, an
// assistant's description edited, threads, the graph), an OAuth round trip against a real
// provider ending on the console's callback page, a phone-width layout, and deletion. Every
// request goes through the public API. Screenshots of each screen go to CONSOLE_SCREENSHOTS_DIR
// (the README's come from `CONSOLE_SCREENSHOTS_DIR=docs/console`), else to a temporary folder.
// Needs Debian's `chromium` (.ci/run installs it); skipped without it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { Client as LangGraphClient, REPO_ROOT } from "@lgp/server-kit/src/testing";
import { chromiumAvailable, launchChromium } from "@lgp/server-kit/src/testing/chromium";
import { exampleRepo } from "../local-deployer/example-repo";
import { startOidcServer, type OidcServer } from "../oauth/support/harness";
import { startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";

const hasChromium = chromiumAvailable("console browser test");
const CONSOLE_DIST = path.join(REPO_ROOT, "packages/console/dist/index.html");
const DEPLOY_TIMEOUT = 150_000;

(hasChromium ? describe : describe.skip)("the web console in Chromium", () => {
  let h: ReconcilerHarness;
  let oidc: OidcServer;
  let browser: Browser;
  let page: Page;
  let repo: string;
  let shots: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // `npm ci` builds the console; a checkout that skipped it is built here.
    if (!existsSync(CONSOLE_DIST)) execFileSync("npm", ["run", "build", "-w", "packages/console"], { cwd: REPO_ROOT });
    shots = process.env.CONSOLE_SCREENSHOTS_DIR
      ? path.resolve(REPO_ROOT, process.env.CONSOLE_SCREENSHOTS_DIR)
      : mkdtempSync(path.join(os.tmpdir(), "console-shots-"));
    mkdirSync(shots, { recursive: true });
    h = await startReconcilerHarness({
      timeoutSeconds: 120,
      sweepSeconds: 1,
      env: { OAUTH_ALLOW_HTTP_LOOPBACK: "true" },
    });
    ({ repo } = exampleRepo(h.workDir));
    [oidc, browser] = await Promise.all([
      startOidcServer([
        {
          client_id: "console-client",
          client_secret: "console-secret-value",
          token_endpoint_auth_method: "client_secret_post",
          redirect_uris: [`${h.url}/v2/auth/callback/demo-idp`],
        },
      ]),
      launchChromium(),
    ]);
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (error) => pageErrors.push(String(error)));
  });

  afterAll(async () => {
    await browser?.close();
    await oidc?.stop();
    await h?.close();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  const text = async (selector: string) => (await page.locator(selector).allTextContents()).join("\n");
  const latestRevision = () => page.locator("ol.timeline > li").first();
  const waitForLatest = async (count: number, status = "DEPLOYED") => {
    await page
      .locator("ol.timeline > li")
      .nth(count - 1)
      .waitFor({ timeout: DEPLOY_TIMEOUT });
    await latestRevision().locator(".badge", { hasText: status }).waitFor({ timeout: DEPLOY_TIMEOUT });
  };
  let deploymentId: string;

  test("sign in with a key: a wrong key is refused, the right one shows the tenant and stays out of URLs and storage", async () => {
    await page.goto(`${h.url}/`);
    await page.getByRole("heading", { name: "Sign in to the console" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
    await shot("sign-in");

    await page.getByLabel("API key").fill("lgp_not_a_key_of_anyone_0000");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("Invalid API key");

    await page.getByLabel("API key").fill(h.apiKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Deployments" }).waitFor();
    await page.locator(".tenant", { hasText: "tenant tenant-a" }).waitFor();
    // The list arrives after the heading: wait for it rather than count what is there yet.
    await page.getByText("No deployments yet.").waitFor();
    expect(await page.locator("table.list").count()).toBe(0);
    expect(page.url()).not.toContain(h.apiKey);
    expect(await page.evaluate("localStorage.length")).toBe(0);
    expect(await page.evaluate("document.cookie")).toBe("");
  });

  test("create a deployment: the API's 422 is shown beside its field, then the example source is created", async () => {
    await page.getByRole("link", { name: "New deployment" }).click();
    // The list's own search field ("Name contains") answers to "Name" until the form is shown.
    await page.getByRole("heading", { name: "New deployment" }).waitFor();
    await page.getByLabel("Name").fill("Not A Valid Name");
    await page.getByLabel("Repository URL or path").fill(`file://${repo}`);
    await page.getByLabel("Build command").fill("test -f langgraph.json");
    await page.getByRole("button", { name: "Add secret" }).click();
    await page.locator(".secret").getByLabel("Name").fill("EXAMPLE_SECRET");
    await page.locator(".secret").getByLabel("Value").fill("first-secret");
    await page.getByRole("button", { name: "Create deployment" }).click();

    const name = page.getByRole("textbox", { name: "Name", exact: true }).first();
    await page.locator(".field.invalid").first().waitFor();
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(".field.invalid .field-error").first().textContent()).toMatch(/pattern/);
    await shot("create-deployment");

    await name.fill("console-demo");
    await page.getByRole("button", { name: "Create deployment" }).click();
    await page.getByRole("heading", { name: "console-demo" }).waitFor();
    deploymentId = new URL(page.url()).pathname.split("/").pop()!;
    // The runtime's key is shown this once, and kept in the tab for the playground.
    const shown = await page.locator(".secret-value").textContent();
    expect(shown).toMatch(/^lgp_/);
    const stored = await h.db.deployment.findUniqueOrThrow({ where: { id: deploymentId } });
    expect(stored.name).toBe("console-demo");
  });

  test("the revision is followed live to DEPLOYED, with each status and its time", async () => {
    await waitForLatest(1);
    const steps = await latestRevision().locator("ol.steps .step-status").allTextContents();
    expect(steps[0]).toBe("CREATING");
    expect(steps.at(-1)).toBe("DEPLOYED");
    expect(steps).toEqual(expect.arrayContaining(["BUILDING", "DEPLOYING"]));
    await page
      .getByText(/^http:\/\/(127\.0\.0\.1|localhost):\d+/)
      .first()
      .waitFor();
    await page.getByRole("button", { name: "I have kept it" }).click();
    // Each screen names itself in the tab's title.
    expect(await page.title()).toBe("console-demo · LangGraph Platform");
    await shot("deployment");
  });

  test("logs: the deploy log has the transitions, a level filter narrows it, the build log has the build", async () => {
    await latestRevision().getByRole("link").first().click();
    await page.getByRole("heading", { name: /^Revision / }).waitFor();
    // A new screen takes the focus to its content, and names itself (with the revision's status).
    expect(await page.evaluate("document.activeElement?.tagName")).toBe("MAIN");
    const titled = Date.now() + 10_000;
    while (!/ \(DEPLOYED\) · /.test(await page.title()) && Date.now() < titled) await page.waitForTimeout(100);
    expect(await page.title()).toMatch(/^Revision [0-9a-f]{8} \(DEPLOYED\) · LangGraph Platform$/);
    const log = page.getByRole("log", { name: "deploy log" });
    await log.getByText("-> DEPLOYED").waitFor();
    await page.getByLabel("Level").selectOption("error");
    await log.getByText("No lines match.").waitFor();
    await page.getByLabel("Level").selectOption("debug");
    await log.getByText("-> DEPLOYED").waitFor();
    await shot("revision-logs");
    await page.getByRole("button", { name: "Build", exact: true }).click();
    await page.getByRole("log", { name: "build log" }).locator(".line").first().waitFor();
    await page.getByRole("link", { name: "← Deployment" }).click();
    await page.getByRole("heading", { name: "console-demo" }).waitFor();
  });

  test("a changed secret makes a new revision; rolling back to the first redeploys its configuration", async () => {
    await page.getByRole("button", { name: "Edit secrets" }).click();
    const secrets = page.getByRole("form", { name: "Secrets" });
    await secrets.getByRole("button", { name: "Add secret" }).click();
    await secrets.locator(".secret").nth(1).getByLabel("Name").fill("SECOND_SECRET");
    await secrets.locator(".secret").nth(1).getByLabel("Value").fill("second-value");
    await secrets.getByRole("button", { name: /Save secrets/ }).click();
    await waitForLatest(2);
    let deployment = await h.api.get(`/v2/deployments/${deploymentId}`);
    expect(deployment.body.secrets.map((secret: { name: string }) => secret.name).sort()).toEqual([
      "EXAMPLE_SECRET",
      "SECOND_SECRET",
    ]);

    await page.locator("ol.timeline > li").nth(1).getByRole("button", { name: "Roll back to this" }).click();
    await waitForLatest(3);
    deployment = await h.api.get(`/v2/deployments/${deploymentId}`);
    expect(deployment.body.secrets.map((secret: { name: string }) => secret.name)).toEqual(["EXAMPLE_SECRET"]);
    expect(deployment.body.active_revision_id).toBe(deployment.body.latest_revision_id);
  });

  test("playground: chat streams, an interrupt is answered, a description is edited, threads and the graph are shown", async () => {
    await page.getByRole("link", { name: "Open playground" }).click();
    await page.getByRole("heading", { name: "Playground" }).waitFor();
    // The key this tab kept at creation works; a wrong one is refused and another asked for.
    const rightKey = await page.evaluate<string | null>(
      `sessionStorage.getItem("lgp.console.runtimeKey.${deploymentId}")`,
    );
    await page.getByRole("button", { name: "Change key" }).click();
    await page.getByLabel("Runtime API key").fill("lgp_0000000000000000000000000000000000000000");
    await page.getByRole("button", { name: "Use this key" }).click();
    await page.getByText("The runtime refused the key").waitFor();
    await page.getByLabel("Runtime API key").fill(rightKey!);
    await page.getByRole("button", { name: "Use this key" }).click();
    const tabs = page.getByRole("navigation", { name: "Playground" });
    const assistantPicker = page.getByLabel("Assistant", { exact: true });
    await assistantPicker.locator("option", { hasText: "(agent)" }).waitFor({ state: "attached" });
    await assistantPicker.selectOption({ label: "agent (agent)" });
    await page.getByLabel("Message", { exact: true }).fill("hello console");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".message.ai", { hasText: "echo: hello console" }).waitFor();

    // A tool call shows its name, arguments and result, then the answer built from it.
    await assistantPicker.selectOption({ label: "tools (tools)" });
    await page.getByLabel("Message", { exact: true }).fill("three little words");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".message.ai", { hasText: "That message has 3 words." }).waitFor();
    const call = page.locator(".tool-call");
    expect(await call.locator("summary").textContent()).toBe("Tool call word_count");
    expect(JSON.parse((await call.locator("pre").first().textContent())!)).toEqual({ text: "three little words" });
    expect(await call.getByLabel("Result of word_count").textContent()).toBe("3");

    await assistantPicker.selectOption({ label: "approval (approval)" });
    await page.getByLabel("Message", { exact: true }).fill("ship it");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("region", { name: "Interrupt" }).getByText("Approve this draft?").waitFor();
    await shot("playground-chat");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.locator(".message.ai", { hasText: "published: proposal: ship it" }).waitFor();
    expect(await page.getByRole("region", { name: "Interrupt" }).count()).toBe(0);

    const runtimeUrl = (await h.api.get(`/v2/deployments/${deploymentId}`)).body.source_config.custom_url as string;
    const runtimeKey = await page.evaluate<string | null>(
      `sessionStorage.getItem("lgp.console.runtimeKey.${deploymentId}")`,
    );
    const sdk = new LangGraphClient({ apiUrl: runtimeUrl, apiKey: runtimeKey! });
    const [approval] = await sdk.assistants.search({ graphId: "approval", limit: 1 });

    await tabs.getByRole("link", { name: "Assistants" }).click();
    await page.getByLabel("Description").fill("Asks a person before it publishes");
    await page.getByRole("button", { name: "Save assistant" }).click();
    await page.getByText("Saved as version 2.").waitFor();
    expect(await sdk.assistants.get(approval.assistant_id)).toMatchObject({
      version: 2,
      description: "Asks a person before it publishes",
    });
    await page.getByRole("button", { name: "Set latest version 1" }).waitFor();
    await shot("playground-assistant");
    await page.getByRole("button", { name: "Set latest version 1" }).click();
    await page.getByText("Version 1 is now the latest.").waitFor();
    expect((await sdk.assistants.get(approval.assistant_id)).version).toBe(1);

    await tabs.getByRole("link", { name: "Threads" }).click();
    const threads = page.getByRole("list", { name: "Threads" }).getByRole("listitem");
    await threads.first().waitFor();
    // The assistant's own threads: the approval run's.
    expect(await threads.count()).toBe(1);
    await threads.first().getByRole("button").click();
    await page.getByLabel("State values").getByText("published: proposal: ship it").waitFor();
    expect(await page.getByRole("list", { name: "Checkpoints" }).getByRole("listitem").count()).toBeGreaterThan(2);

    await tabs.getByRole("link", { name: "Graph" }).click();
    const graph = page.getByRole("img", { name: /^Graph of approval/ });
    await graph.waitFor();
    expect(await graph.getAttribute("aria-label")).toMatch(/__start__.*propose.*review.*publish.*revise.*__end__/);
    await shot("playground-graph");
  });

  test("OAuth: a provider is created and edited, an authorization goes through the provider and ends on the console's callback page", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "OAuth" }).click();
    await page.getByRole("button", { name: "New provider" }).click();
    await page.getByLabel("Provider id").fill("demo-idp");
    await page.getByLabel("Display name").fill("Demo identity provider");
    await page.getByLabel("Client id").fill("console-client");
    await page.getByLabel("Client secret").fill("console-secret-value");
    await page.getByLabel("Authorization URL").fill(`${oidc.issuer}/auth`);
    await page.getByLabel("Token URL").fill(`${oidc.issuer}/token`);
    await page.getByRole("button", { name: "Create provider" }).click();
    await page.getByRole("heading", { name: "Demo identity provider" }).waitFor();
    await shot("oauth-provider");
    // Edited: the secret field left empty keeps the stored secret (the token exchange below needs it).
    await page.getByLabel("Display name").fill("Demo IdP");
    await page.getByRole("button", { name: "Save provider" }).click();
    await page.getByRole("heading", { name: "Demo IdP" }).waitFor();
    expect((await h.api.get("/v2/auth/providers/demo-idp")).body).toMatchObject({
      name: "Demo IdP",
      has_client_secret: true,
    });

    await page.getByLabel("Scopes").fill("openid");
    await page.getByRole("button", { name: "Authorize" }).click();
    // The provider's own development log-in and consent pages.
    await page.locator('input[name="login"]').fill("alice");
    await page.locator('input[name="password"]').fill("any");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Connected to demo-idp" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/oauth/callback");
    await shot("oauth-callback");
    const tokens = await h.api.get("/v2/auth/tokens");
    expect(tokens.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ provider_id: "demo-idp", user_id: null })]),
    );

    await page.goto(
      `${h.url}/console/oauth/callback?status=failed&provider_id=demo-idp&error=access_denied&error_description=The+user+declined`,
    );
    await page.getByRole("heading", { name: "Connection to demo-idp failed" }).waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("The user declined");
  });

  test("a phone-width screen fits without sideways scrolling", async () => {
    await page.goto(`${h.url}/console/deployments`);
    await page.getByRole("link", { name: "console-demo" }).waitFor();
    await shot("deployments");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole("link", { name: "console-demo" }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await shot("deployments-phone");
    await page.getByRole("link", { name: "console-demo" }).click();
    await page.getByRole("heading", { name: "console-demo" }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  test("the API reference on the console's origin renders under its content security policy", async () => {
    const refused: string[] = [];
    const listener = (message: { text(): string }) => {
      if (/Content Security Policy|Refused to/.test(message.text())) refused.push(message.text());
    };
    page.on("console", listener);
    const answer = await page.goto(`${h.url}/docs/`);
    expect(answer?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await page.getByText("/v2/deployments", { exact: true }).first().waitFor();
    page.off("console", listener);
    expect(refused).toEqual([]);
    await page.goto(`${h.url}/console/deployments/${deploymentId}`);
    await page.getByRole("heading", { name: "console-demo" }).waitFor();
  });

  test("delete from the detail page after confirming; the deployment is gone", async () => {
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Delete deployment" }).click();
    await page.getByRole("heading", { name: "Deployments" }).waitFor();
    const deadline = Date.now() + 60_000;
    let status = 200;
    while (status !== 404 && Date.now() < deadline) {
      status = (await h.api.get(`/v2/deployments/${deploymentId}`)).status;
      if (status !== 404) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(404);
    expect(pageErrors).toEqual([]);
    expect(await text(".error")).toBe("");
  });
});
