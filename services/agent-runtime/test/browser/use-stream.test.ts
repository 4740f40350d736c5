// A page on another origin drives the runtime with `useStream` (the official SDK's React hook) in
// headless Chromium: it streams a run and renders its messages, finds its thread again after a
// reload, rejoins a run still in flight after a reload (reconnectOnMount), edits an earlier
// message and regenerates an answer (branches from earlier checkpoints) and switches between
// branches, and resumes an interrupt. Every request must succeed: CORS preflights included, and no stream may end as
// `net::ERR_ABORTED`. Against the JS examples, then their Python twins. Needs Debian's `chromium`
// (.ci/run installs it); skipped without it.
import type { Server } from "node:http";
import path from "node:path";
import type { Browser, Page, Request } from "playwright-core";
import { graphsOf, startTestRuntime, type GraphLanguage, type RunningRuntime } from "../support/harness";
import { bundlePage, chromiumAvailable, launchChromium, servePage } from "@lgp/server-kit/src/testing/chromium";

const hasChromium = chromiumAvailable("useStream browser test");
const PAGE = '<!doctype html><meta charset="utf-8"><div id="root"></div><script src="/app.js"></script>';

(hasChromium ? describe.each<GraphLanguage>(["js", "python"]) : describe.skip.each<GraphLanguage>(["js", "python"]))(
  "useStream in Chromium from another origin (%s graphs)",
  (language) => {
    let runtime: RunningRuntime;
    let page: { server: Server; origin: string };
    let browser: Browser;

    beforeAll(async () => {
      const [script, started] = await Promise.all([
        bundlePage(path.join(__dirname, "page/app.js")),
        startTestRuntime({ env: graphsOf(language) }),
      ]);
      runtime = started;
      page = await servePage(PAGE, script);
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      page?.server.close();
      await runtime?.close();
    });

    test("streams, reloads, branches, rejoins a run in flight and resumes an interrupt with no failed request", async () => {
      const tab: Page = await browser.newPage();
      // Requests are tagged with the document they belong to: what a document still has in flight
      // when the test reloads it mid-run is cancelled by the browser, no fault of the server.
      let documentNumber = 0;
      const reloadedMidRun = new Set<number>();
      const documents = new WeakMap<Request, number>();
      const failures: string[] = [];
      const requests: string[] = [];
      const pageErrors: string[] = [];
      tab.on("request", (request) => {
        documents.set(request, documentNumber);
        requests.push(`${request.method()} ${request.url()}`);
      });
      tab.on("requestfailed", (request) => {
        if (reloadedMidRun.has(documents.get(request) ?? -1)) return;
        failures.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
      });
      tab.on("pageerror", (error) => pageErrors.push(String(error)));
      const reloadMidRun = async () => {
        reloadedMidRun.add(documentNumber);
        documentNumber += 1;
        await tab.reload();
      };
      const open = (assistant: string, extra = "") =>
        tab.goto(`${page.origin}/?api=${encodeURIComponent(runtime.url)}&assistant=${assistant}${extra}`);
      const send = async (text: string) => {
        await tab.fill("#text", text);
        await tab.click("#send");
      };
      const threadInUrl = () => new URL(tab.url()).searchParams.get("thread");
      const shown = () => tab.locator("#messages li .text").allTextContents();

      // 1. A streamed run renders its messages; the thread id lands in the URL.
      await open("agent");
      await send("hello");
      await tab.locator("#messages li.ai", { hasText: "echo: hello" }).waitFor();
      await tab.locator("#status", { hasText: "idle" }).waitFor();
      const threadId = threadInUrl();
      expect(threadId).toMatch(/^[0-9a-f-]{36}$/);

      // 2. After a reload the thread comes back from its state.
      await tab.reload();
      await tab.locator("#messages li.ai", { hasText: "echo: hello" }).waitFor();
      expect(await tab.locator("#messages li.human .text").textContent()).toBe("hello");

      // 3. A second turn, then the first message edited: a run from the checkpoint before it, which
      // forks the thread. The page shows the new branch; the message has two branches to switch
      // between. Then the answer in the new branch is regenerated: a run from the checkpoint that
      // holds the edited message, a fork in the new branch.
      await send("again");
      await tab.locator("#messages li.ai", { hasText: "echo: again" }).waitFor();
      await tab.locator("#status", { hasText: "idle" }).waitFor();
      await tab.fill("#text", "hi");
      await tab.locator("#messages li.human").first().locator("button.edit").click();
      await tab.locator("#messages li.ai", { hasText: "echo: hi" }).waitFor();
      await tab.locator("#status", { hasText: "idle" }).waitFor();
      const firstMessageBranch = tab.locator("#messages li.human").first().locator(".branch");
      await firstMessageBranch.filter({ hasText: "2/2" }).waitFor();
      expect(await shown()).toEqual(["hi", "echo: hi"]);
      await tab.locator("#messages li.ai button.regenerate").click();
      await tab.locator("#messages li.ai .branch", { hasText: "2/2" }).waitFor();
      await tab.locator("#status", { hasText: "idle" }).waitFor();
      expect(await shown()).toEqual(["hi", "echo: hi"]);
      await tab.locator("#messages li.human").first().locator("button.prev").click();
      await firstMessageBranch.filter({ hasText: "1/2" }).waitFor();
      expect(await shown()).toEqual(["hello", "echo: hello", "again", "echo: again"]);
      const history = await runtime.client.threads.getHistory(threadId!, { limit: 100 });
      const children = new Map<string, number>();
      for (const { parent_checkpoint: parent } of history) {
        if (parent?.checkpoint_id) children.set(parent.checkpoint_id, (children.get(parent.checkpoint_id) ?? 0) + 1);
      }
      expect([...children.values()].filter((count) => count > 1)).toEqual([2, 2]);

      // 4. A reload while a run is in flight: the page rejoins the run and sees it finish.
      await open("steps", "&delay_ms=700");
      await send("go");
      await tab.locator("#visited", { hasText: "one" }).waitFor();
      const inFlight = requests.length;
      await reloadMidRun();
      await tab.locator("#visited", { hasText: "one,two,three" }).waitFor();
      await tab.locator("#status", { hasText: "idle" }).waitFor();
      const stepsThread = threadInUrl();
      expect(
        requests.slice(inFlight).some((line) => line.match(`GET .*/threads/${stepsThread}/runs/[^/]+/stream`)),
      ).toBe(true);

      // 5. An interrupt is shown, and resumed with `submit(undefined, {command: {resume}})`.
      await open("approval");
      await send("ship it");
      await tab.locator("#interrupt", { hasText: "Approve this draft?" }).waitFor();
      await tab.click("#approve");
      await tab.locator("#messages li.ai", { hasText: "published: proposal: ship it" }).waitFor();
      await tab.locator("#status", { hasText: "idle" }).waitFor();

      expect(await tab.locator("#error").count()).toBe(0);
      expect(pageErrors).toEqual([]);
      expect(failures).toEqual([]);
    });
  },
);
