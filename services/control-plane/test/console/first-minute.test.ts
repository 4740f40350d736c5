// A newcomer's first minute, in headless Chromium against the platform as `npm start` runs it:
// sign in with the printed key, and the runtime npm start runs beside the control plane is there
// (deployment "local"), its playground one click away with its key already known; a message to the
// echo agent comes back. The CLI's hosted-form status link lands on the deployment's page.
// Needs Debian's `chromium` (.ci/run installs it); skipped without it.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { chromiumAvailable, launchChromium } from "@lgp/server-kit/src/testing/chromium";
import { signIn, startConsolePlatform, type ConsolePlatform, prepareConsole } from "./platform";

const hasChromium = chromiumAvailable("console first-minute test");

(hasChromium ? describe : describe.skip)("the first minute after npm start", () => {
  let platform: ConsolePlatform;
  let browser: Browser;
  let page: Page;
  let shots: string;
  const clicks: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    shots = prepareConsole();
    [platform, browser] = await Promise.all([startConsolePlatform({ env: { LOG_LEVEL: "info" } }), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(30_000);
    page.on("pageerror", (error) => pageErrors.push(String(error)));
  }, 200_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  /** Clicks, counted: the path to a working agent is measured in them. */
  const click = async (what: string, locator: ReturnType<Page["locator"]>) => {
    clicks.push(what);
    await locator.click();
  };

  test("the local runtime is listed, and its playground answers in at most 4 clicks after signing in", async () => {
    await signIn(page, platform);
    const card = page.getByRole("complementary", { name: "Local runtime" });
    await card.getByText(platform.runtimeUrl).waitFor();
    await page.locator("tr", { hasText: "local runtime" }).getByRole("link", { name: "local" }).waitFor();
    await page.screenshot({ path: path.join(shots, "first-minute.png"), fullPage: true });

    await click("open the playground", card.getByRole("link", { name: "Open the playground" }));
    await page.getByRole("heading", { name: "Playground" }).waitFor();
    // No key asked for: the control plane handed the console the local runtime's.
    expect(await page.getByRole("form", { name: "Runtime key" }).count()).toBe(0);
    await page.getByRole("textbox", { name: "Message" }).fill("hello from the first minute");
    await click("send", page.getByRole("button", { name: "Send" }));
    await page.locator(".message.ai", { hasText: "hello from the first minute" }).waitFor();
    expect(clicks.length).toBeLessThanOrEqual(4);
    // The key is in this tab only: never in the URL, nor kept beyond the tab.
    expect(page.url()).not.toContain(platform.runtimeKey);
    expect(await page.evaluate("localStorage.length")).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  test("the official CLI's hosted-form status link lands on the local deployment's page", async () => {
    await page.goto(`${platform.controlPlaneUrl}/o/default/host/deployments/${platform.localDeploymentId}`);
    await page.getByRole("heading", { name: "local" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/deployments/${platform.localDeploymentId}`);
  });

  test("the local runtime's key is handed to its tenant only, and never cached", async () => {
    const answer = await fetch(`${platform.controlPlaneUrl}/v2/local-runtime`, {
      headers: { "X-Api-Key": platform.apiKey },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await answer.json()).toEqual({
      deployment_id: platform.localDeploymentId,
      url: platform.runtimeUrl,
      api_key: platform.runtimeKey,
    });
    const refused = await fetch(`${platform.controlPlaneUrl}/v2/local-runtime`, {
      headers: { "X-Api-Key": "lgp_not_a_key_of_anyone_0000" },
    });
    expect(refused.status).toBe(401);
    // The control plane keeps the key's hash only, and no service logs it (at info level).
    const lines = platform
      .output()
      .split("\n")
      .filter((line) => line.includes(platform.runtimeKey));
    expect(lines.length).toBeGreaterThan(0); // what npm start prints for the newcomer
    expect(lines.filter((line) => line.trim().startsWith("{"))).toEqual([]); // no log line (JSON, info level)
  });
});
