// The playground's thread timeline and time travel, in headless Chromium against the platform as
// `npm start` runs it: a thread of the `steps` graph (a counter: each node adds 1 to `count`) run
// five times has more checkpoints than a page, and the timeline reads them all, a page at a time;
// a checkpoint opens onto its state, its writes and its tasks. Its state edited and forked from
// runs a branch of its own beside the original, and the timeline switches between the two; a
// replay from an earlier checkpoint runs it again unchanged, as a third branch. What the console
// shows is checked against the runtime's own history through the official client.
// Needs Debian's `chromium` (.ci/run installs it); skipped without it.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { Client } from "@lgp/server-kit/src/testing";
import { chromiumAvailable, launchChromium } from "@lgp/server-kit/src/testing/chromium";
import { signIn, startConsolePlatform, type ConsolePlatform, prepareConsole } from "./platform";

const hasChromium = chromiumAvailable("console time-travel test");
// Five runs of three nodes: 5 checkpoints each (input, __start__, one, two, three), 25 in all,
// more than the timeline's page of 20.
const RUNS = 5;

(hasChromium ? describe : describe.skip)("the playground's timeline and time travel in Chromium", () => {
  let platform: ConsolePlatform;
  let browser: Browser;
  let page: Page;
  let sdk: Client;
  let threadId: string;
  let shots: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    shots = prepareConsole();
    [platform, browser] = await Promise.all([startConsolePlatform(), launchChromium()]);
    sdk = new Client({ apiUrl: platform.runtimeUrl, apiKey: platform.runtimeKey, callerOptions: { maxRetries: 0 } });
    const [steps] = await sdk.assistants.search({ graphId: "steps", limit: 1 });
    const thread = await sdk.threads.create({ metadata: { assistant_id: steps.assistant_id } });
    threadId = thread.thread_id;
    for (let run = 0; run < RUNS; run++) await sdk.runs.wait(threadId, steps.assistant_id, { input: {} });

    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    await signIn(page, platform);
    // No key pasted: the console asks the control plane for the local runtime's.
    const search = new URLSearchParams({ assistant: steps.assistant_id, thread: threadId });
    await page.goto(`${platform.consoleUrl}deployments/${platform.localDeploymentId}/playground/threads?${search}`);
  }, 200_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  const line = () => page.getByRole("list", { name: "Checkpoints" }).getByRole("listitem");
  const checkpoint = (step: number) => page.getByRole("listitem", { name: `Checkpoint at step ${step}`, exact: true });
  const json = async (label: string) => JSON.parse((await page.getByLabel(label, { exact: true }).textContent())!);
  /** The runtime's own record of every checkpoint of the thread, every branch. */
  const history = () => sdk.threads.getHistory(threadId, { limit: 1000 });

  test("the timeline reads every checkpoint, a page at a time, and opens one onto its state, writes and tasks", async () => {
    await page.getByText("20 checkpoints on this line, 20 read.").waitFor();
    expect(await line().count()).toBe(20);
    await page.getByRole("navigation", { name: "Timeline pages" }).getByRole("button", { name: "Older" }).click();
    await page.getByText(`${RUNS * 5} checkpoints on this line, ${RUNS * 5} read (all of them).`).waitFor();
    expect(await line().count()).toBe((await history()).length);
    expect(await line().last().getAttribute("aria-label")).toBe("Checkpoint at step -1");
    expect(await page.getByRole("button", { name: "Older" }).count()).toBe(0);

    // The last run's checkpoint after node "one": 4 runs of 3, and 1.
    await checkpoint(21).getByRole("button", { name: "step 21" }).click();
    const state = await json("State at step 21");
    expect(state.count).toBe(13);
    const recorded = (await history()).find((item) => item.metadata?.step === 21)!;
    expect(state).toEqual(recorded.values);
    expect(await json("Writes at step 21")).toEqual({ one: { count: 1, visited: ["one"] } });
    const task = page.getByRole("region", { name: "Task two" });
    expect(await task.textContent()).toContain("ran");
  });

  test("a fork from an earlier checkpoint with an edited state runs a branch of its own; the timeline switches between the two", async () => {
    const before = (await history()).length;
    await checkpoint(21).getByRole("button", { name: "Edit state and fork…" }).click();
    const editor = page.getByLabel("State (JSON)");
    const edited = JSON.parse((await editor.inputValue())!);
    edited.count = 113;
    await editor.fill(JSON.stringify(edited, null, 2));
    await page.getByLabel("As node").selectOption("one");
    await page.getByRole("button", { name: "Fork and run" }).click();
    await page.getByRole("status").getByText("Forked from step 21: ran two, three.").waitFor();

    // The update went through the counter's reducer (13 + 113), then two and three added 1 each.
    const current = await sdk.threads.getState(threadId);
    expect((current.values as { count: number }).count).toBe(128);
    expect((await history()).length).toBe(before + 3);
    // The timeline follows the new branch: its tip is the thread's current state.
    await page.getByText(`${RUNS * 5 + 1} checkpoints on this line, ${before + 3} read (all of them).`).waitFor();
    expect(await line().first().textContent()).toContain("current");
    await line().first().getByRole("button").first().click();
    expect(await json("State at step 24")).toEqual(current.values);

    const branches = page.getByRole("group", { name: "Branches from step 21" });
    const original = branches.getByRole("button", { name: /^Branch 1/ });
    const fork = branches.getByRole("button", { name: /^Branch 2/ });
    expect(await fork.getAttribute("aria-pressed")).toBe("true");
    expect(await fork.textContent()).toContain("update");
    await checkpoint(21).getByRole("button", { name: "step 21" }).click();
    // The timeline at the fork, rather than the whole page (25 rows below it).
    await page.evaluate(`document.querySelector(".timeline-panel").scrollIntoView()`);
    await page.screenshot({ path: path.join(shots, "playground-timeline.png") });

    await original.click();
    await page.getByText(`${RUNS * 5} checkpoints on this line`).waitFor();
    expect(await original.getAttribute("aria-pressed")).toBe("true");
    await checkpoint(23).getByRole("button", { name: "step 23" }).click();
    expect((await json("State at step 23")).count).toBe(15);
    expect(await checkpoint(23).locator(".badge", { hasText: "current" }).count()).toBe(0);

    await fork.click();
    await page.getByText(`${RUNS * 5 + 1} checkpoints on this line`).waitFor();
    expect(await line().first().getAttribute("aria-label")).toBe("Checkpoint at step 24");
  });

  test("a replay from an earlier checkpoint runs it again unchanged, as another branch", async () => {
    await page
      .getByRole("group", { name: "Branches from step 21" })
      .getByRole("button", { name: /^Branch 1/ })
      .click();
    await page.getByText(`${RUNS * 5} checkpoints on this line`).waitFor();
    await checkpoint(20).getByRole("button", { name: "step 20" }).click();
    const from = await json("State at step 20");
    await checkpoint(20).getByRole("button", { name: "Replay from here" }).click();
    await page.getByRole("status").getByText("Replayed from step 20: ran one, two, three.").waitFor();

    // Unchanged input, unchanged graph: the same count as the original line reached.
    const current = await sdk.threads.getState(threadId);
    expect((current.values as { count: number }).count).toBe(from.count + 3);
    expect(current.parent_checkpoint).not.toBeNull();
    const all = await history();
    await page.getByText(`${all.length} read (all of them).`).waitFor();
    const replayed = page.getByRole("group", { name: "Branches from step 20" }).getByRole("button");
    expect(await replayed.count()).toBe(2);
    expect(await replayed.nth(1).getAttribute("aria-pressed")).toBe("true");
    // The line from the replay's tip reaches back through step 20 to the thread's first checkpoint.
    expect(await line().last().getAttribute("aria-label")).toBe("Checkpoint at step -1");
    expect(await line().first().textContent()).toContain("current");

    // At phone width nothing spills sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    expect(pageErrors).toEqual([]);
  });
});
