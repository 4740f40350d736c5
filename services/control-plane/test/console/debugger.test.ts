// The playground's run debugger in headless Chromium, against the platform as `npm start` runs it
// serving fixtures/debug (the `steps` example, and a graph with a subgraph, each in JS and in
// Python): a run stopped at a breakpoint, stepped one node, continued to the end, the lit node
// following it and the state shown at each stop; the subgraph expanded with xray and lit as the run
// goes through it; tokens, tool calls, custom events and every raw event of the run shown. The
// runs are checked through the official client too: the debugger drives real interrupts.
// Needs Debian's `chromium` (.ci/run installs it); skipped without it.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { Client as LangGraphClient } from "@lgp/server-kit/src/testing";
import { chromiumAvailable, launchChromium } from "@lgp/server-kit/src/testing/chromium";
import { signIn, startConsolePlatform, type ConsolePlatform, prepareConsole } from "./platform";

const hasChromium = chromiumAvailable("console debugger test");
const FIXTURE = path.join(__dirname, "fixtures/debug/langgraph.json");

// The JS leg breaks before `two`, the Python one after `one`: either way the run stops with `two`
// next. A node's name ends with its breakpoint: `oneMark`, `twoMark`.
const LANGUAGES = [
  {
    language: "JS",
    steps: "steps",
    research: "research",
    breakpoint: "Interrupt before two",
    oneMark: "",
    twoMark: ", breakpoint before",
  },
  {
    language: "Python",
    steps: "py_steps",
    research: "py_research",
    breakpoint: "Interrupt after one",
    oneMark: ", breakpoint after",
    twoMark: "",
  },
];

(hasChromium ? describe : describe.skip)("the playground's run debugger in Chromium", () => {
  let platform: ConsolePlatform;
  let browser: Browser;
  let page: Page;
  let sdk: LangGraphClient;
  let shots: string;
  const assistants = new Map<string, string>();
  const pageErrors: string[] = [];

  beforeAll(async () => {
    shots = prepareConsole();
    [platform, browser] = await Promise.all([startConsolePlatform({ config: FIXTURE }), launchChromium()]);
    sdk = new LangGraphClient({ apiUrl: platform.runtimeUrl, apiKey: platform.runtimeKey });
    for (const assistant of await sdk.assistants.search({ limit: 100 }))
      assistants.set(assistant.graph_id, assistant.assistant_id);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    await signIn(page, platform);
    // No key pasted: the console asks the control plane for the local runtime's.
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  /** The Debug tab of the playground, with the assistant of `graphId` chosen. */
  const openDebugger = async (graphId: string) => {
    const query = new URLSearchParams({ assistant: assistants.get(graphId)! });
    await page.goto(`${platform.consoleUrl}deployments/${platform.localDeploymentId}/playground/chat?${query}`);
    await page.getByRole("navigation", { name: "Playground" }).getByRole("link", { name: "Debug" }).click();
    await page.getByRole("group", { name: `Graph of ${graphId}` }).waitFor();
  };
  /** A drawn node whose accessible name is exactly `node <id><marks>`: the marks say what is lit. */
  const node = (name: string) => page.getByRole("img", { name: `node ${name}`, exact: true });
  const status = (text: string) => page.getByRole("status").filter({ hasText: text }).waitFor();
  const values = async () =>
    JSON.parse(
      (await page
        .getByRole("region", { name: /State at this stop|Final state/ })
        .getByLabel("Values")
        .textContent())!,
    );
  const panel = (name: string) => page.getByRole("region", { name, exact: true });
  /** The thread the debugger ran on, from its link to the Threads tab. */
  const threadOfRun = async () => {
    const href = await page.getByRole("status").getByRole("link").getAttribute("href");
    return new URL(href!, platform.consoleUrl).searchParams.get("thread")!;
  };

  describe.each(LANGUAGES)("$language graphs", ({ language, steps, research, breakpoint, oneMark, twoMark }) => {
    test("a run stops at a breakpoint, steps one node, continues to the end, the lit node following it", async () => {
      await openDebugger(steps);
      await page.getByRole("checkbox", { name: breakpoint }).check();
      // Each step takes its time, so the node that runs is seen lit.
      await page.getByLabel("Context (JSON)").fill('{"delay_ms": 700}');
      await page.getByRole("button", { name: "Run", exact: true }).click();
      await node(`one, running${oneMark}`).waitFor();

      await status("Paused before two.");
      await node(`two, next${twoMark}`).waitFor();
      await node(`one, visited${oneMark}`).waitFor();
      expect(await values()).toEqual({ count: 1, visited: ["one"] });

      // Step: one node, then a stop no breakpoint asked for.
      await page.getByRole("button", { name: "Step" }).click();
      await node(`two, running${twoMark}`).waitFor();
      await status("Paused before three.");
      await node("three, next").waitFor();
      await node(`two, visited${twoMark}`).waitFor();
      expect(await values()).toEqual({ count: 2, visited: ["one", "two"] });

      await page.getByRole("button", { name: "Continue" }).click();
      await node("three, running").waitFor();
      await status("Finished.");
      await node("three, visited").waitFor();
      expect(await values()).toEqual({ count: 3, visited: ["one", "two", "three"] });
      expect(await page.locator(".graph-canvas .lit").count()).toBe(0);

      // Every event of the three runs, raw; the runs themselves, as the official client sees them.
      const raw = panel("Raw events");
      const names: string[] = [];
      for (const item of await raw.getByRole("listitem", { name: /^event / }).all())
        names.push((await item.getAttribute("aria-label"))!.slice("event ".length));
      expect(names.filter((name) => name === "metadata")).toHaveLength(3);
      expect(new Set(names)).toEqual(new Set(["metadata", "values", "updates", "tasks", "custom"]));
      expect(await raw.getByRole("listitem", { name: "event custom" }).first().textContent()).toContain(
        '{"step":"one","status":"started"}',
      );
      // Three runs of one thread (the run, the step, the continue), each ended at its stop.
      const threadId = await threadOfRun();
      expect((await sdk.runs.list(threadId)).map((run) => run.status)).toEqual(["success", "success", "success"]);
      expect((await sdk.threads.getState(threadId)).values).toEqual({ count: 3, visited: ["one", "two", "three"] });
      expect(pageErrors).toEqual([]);
    });

    test("a graph with a subgraph: expanded with xray, lit as the run goes through it; tokens, tool calls and custom events shown", async () => {
      await openDebugger(research);
      await node("research").waitFor();
      await page.getByLabel("Subgraphs").selectOption("all");
      await node("research:search").waitFor();
      await node("research:summarize").waitFor();
      expect(await node("research").count()).toBe(0);
      await page.getByRole("img", { name: "subgraph research" }).waitFor();

      await page.getByRole("checkbox", { name: "Interrupt before answer" }).check();
      await page.getByRole("button", { name: "Run", exact: true }).click();
      await status("Paused before answer.");
      await node("answer, next, breakpoint before").waitFor();
      await node("research:search, visited").waitFor();
      await node("research:summarize, visited").waitFor();
      const call = panel("Tool calls").getByRole("listitem", { name: "Tool call lookup" });
      expect(await call.getByLabel("Result of lookup").textContent()).toBe("notes on hello");
      expect(await panel("Custom events").textContent()).toContain('"searching": "notes on hello"');
      if (language === "JS")
        await page.screenshot({ path: path.join(shots, "playground-debugger.png"), fullPage: true });

      await page.getByRole("button", { name: "Continue" }).click();
      await status("Finished.");
      const answer = panel("Tokens").getByRole("listitem", { name: "ai message from answer" });
      expect(await answer.locator(".token-text").textContent()).toBe("answer: summary of notes on hello");
      // Word by word: six tokens at least (Python's model may end with an empty chunk).
      expect(Number(/(\d+) tokens/.exec((await answer.textContent())!)?.[1])).toBeGreaterThanOrEqual(6);
      await node("answer, visited, breakpoint before").waitFor();
      const raw = panel("Raw events");
      await raw
        .getByRole("listitem", { name: /^event tasks\|research:/ })
        .first()
        .waitFor();
      await raw.getByRole("listitem", { name: "event messages" }).first().waitFor();

      // At phone width the debugger stacks: nothing wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(pageErrors).toEqual([]);
    });
  });
});
