// GET /threads/{id}/stream through the official client's threads.joinStream: every run of the
// thread, including runs started after the client connected, in the thread stream modes
// (run_modes, lifecycle, state_update), and where the stream starts when a run is created just as
// it connects (read through a pool of the test's own). Embedded (in-memory queue) mode.
import pg from "pg";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { newRunId } from "../../src/common/ids";
import { RunRepository } from "../../src/runs/repository";
import { threadEvents } from "../../src/runs/thread-stream";
import { CHECKPOINT_SCHEMA } from "../../src/threads/checkpoints";
import { startTestRuntime } from "../support/harness";

type Event = { event: string; data: any; id?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
type StreamMode = "run_modes" | "lifecycle" | "state_update";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime();
});
afterAll(async () => {
  await rt?.close();
});

/** Joins the thread's stream and collects events until `count` runs are done (then disconnects). */
async function joinUntil(threadId: string, runs: number, streamMode?: StreamMode[]) {
  const controller = new AbortController();
  const events: Event[] = [];
  const done = (async () => {
    try {
      for await (const event of rt.client.threads.joinStream(threadId, { streamMode, signal: controller.signal })) {
        events.push(event as Event);
        const ends = events.filter(
          (item) => item.event === (streamMode?.[0] === "state_update" ? "state_update" : "run_done"),
        );
        if (ends.length >= runs) controller.abort();
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    return events;
  })();
  return { done, stop: () => controller.abort() };
}

const say = (content: string) => ({ messages: [{ type: "human", content }] });

/**
 * Stores a run with a given id that ends at once, as a cancelled run does: nothing executes it
 * here. `threadStatus` is what its end leaves the thread in (busy while another run goes on).
 */
async function storeEndedRun(threadId: string, runId: string, assistantId: string, threadStatus: "idle" | "busy") {
  const runs = rt.runtime.runRepository;
  await runs.insert({
    runId,
    threadId,
    assistantId,
    metadata: {},
    kwargs: { graph_id: "agent", input: null, config: {}, context: {}, stream_mode: ["values"] },
    multitaskStrategy: "enqueue",
    threadMetadata: {},
    rejectIfBusy: false,
  });
  await runs.finish({ runId, threadId, status: "interrupted" }, threadStatus, null);
  await rt.runtime.events.end(runId);
}

test("run_modes: every run of the thread in turn, runs started after connecting included, each ended by run_done", async () => {
  const thread = await rt.client.threads.create();
  const joined = await joinUntil(thread.thread_id, 2);
  await new Promise((resolve) => setTimeout(resolve, 100)); // connected before any run exists
  // The first run waits a second before it starts: a stream that connects late (a loaded machine)
  // still finds it active rather than already ended, and so still follows it from its start.
  const first = await rt.client.runs.create(thread.thread_id, "agent", {
    input: say("one"),
    streamMode: ["values"],
    afterSeconds: 1,
  });
  await rt.client.runs.join(thread.thread_id, first.run_id);
  const second = await rt.client.runs.create(thread.thread_id, "agent", { input: say("two"), streamMode: ["updates"] });
  const events = await joined.done;
  expect(events.map((event) => event.event)).toEqual([
    "metadata",
    "values",
    "values",
    "run_done",
    "metadata",
    "updates",
    "run_done",
  ]);
  expect(events[0].data).toEqual({ run_id: first.run_id, attempt: 1 });
  expect(events[3].data).toEqual({ run_id: first.run_id, status: "success" });
  expect(events[4].data).toEqual({ run_id: second.run_id, attempt: 1 });
  expect(events[5].data).toEqual({ agent: { messages: [expect.objectContaining({ content: "echo: two" })] } });
  expect(events[6].data).toEqual({ run_id: second.run_id, status: "success" });
  expect(events.every((event) => event.id?.startsWith(event.data.run_id ?? ""))).toBe(true);
});

test("lifecycle: only each run's start (metadata) and end (run_done); joining mid-run starts with the active run", async () => {
  const thread = await rt.client.threads.create();
  const active = await rt.client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: 150 } });
  const joined = await joinUntil(thread.thread_id, 2, ["lifecycle"]);
  const next = await rt.client.runs.create(thread.thread_id, "steps", { input: {} });
  const events = await joined.done;
  expect(events.map((event) => [event.event, event.data.run_id])).toEqual([
    ["metadata", active.run_id],
    ["run_done", active.run_id],
    ["metadata", next.run_id],
    ["run_done", next.run_id],
  ]);
});

test("state_update: the thread's values after each run", async () => {
  const thread = await rt.client.threads.create();
  const joined = await joinUntil(thread.thread_id, 2, ["state_update"]);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await rt.client.runs.wait(thread.thread_id, "steps", { input: {}, context: { delay_ms: 100 } });
  await new Promise((resolve) => setTimeout(resolve, 300)); // the stream has seen the first run end
  await rt.client.runs.wait(thread.thread_id, "steps", { input: {}, context: { delay_ms: 100 } });
  const events = await joined.done;
  expect(events.map((event) => [event.event, event.data.values.count])).toEqual([
    ["state_update", 3],
    ["state_update", 6],
  ]);
});

test("a run created just as the stream looks for where to start is followed, not skipped", async () => {
  const thread = await rt.client.threads.create();
  let between: string | undefined;
  let reads = 0;
  // The stream's reads go through this pool: right after its first read of the thread's runs
  // (nothing there yet), a run is created and ends before the stream reads anything else.
  class CreatingAfterFirstRead extends pg.Pool {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(...args: any[]): any {
      const text: string = typeof args[0] === "string" ? args[0] : args[0].text;
      const result = (super.query as (...a: unknown[]) => Promise<unknown>)(...args);
      if (!/FROM runs/.test(text) || reads++ > 0) return result;
      return result.then(async (rows) => {
        const run = await rt.client.runs.create(thread.thread_id, "agent", { input: say("between") });
        await rt.client.runs.join(thread.thread_id, run.run_id);
        between = run.run_id;
        return rows;
      });
    }
  }
  const pool = new CreatingAfterFirstRead({ connectionString: rt.database.url, max: 2 });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5_000);
  const seen: { event: string; data: string }[] = [];
  try {
    const runs = new RunRepository(pool, new RuntimeCheckpointer(pool, undefined, { schema: CHECKPOINT_SCHEMA }));
    const deps = { runs, threads: rt.runtime.threadRepository, service: rt.runtime.runs };
    for await (const event of threadEvents(deps, thread.thread_id, {
      modes: ["lifecycle"],
      signal: controller.signal,
    })) {
      seen.push(event);
      if (event.event === "run_done") break;
    }
  } finally {
    clearTimeout(timer);
    await pool.end();
  }
  expect(between).toBeDefined();
  expect(seen.map((event) => [event.event, JSON.parse(event.data).run_id])).toEqual([
    ["metadata", between],
    ["run_done", between],
  ]);
});

test("a run whose creation commits after that of a run created later is still followed", async () => {
  const thread = await rt.client.threads.create();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  const done: string[] = [];
  const deps = { runs: rt.runtime.runRepository, threads: rt.runtime.threadRepository, service: rt.runtime.runs };
  const following = (async () => {
    for await (const event of threadEvents(deps, thread.thread_id, {
      modes: ["lifecycle"],
      signal: controller.signal,
    })) {
      if (event.event === "run_done") done.push(JSON.parse(event.data).run_id);
      if (done.length === 2) return;
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 300)); // the stream has started
  // Two creations on one thread: the first to get its id is the last to reach the database.
  const earlierId = newRunId();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const later = await rt.client.runs.create(thread.thread_id, "agent", { input: say("later") });
  await rt.client.runs.join(thread.thread_id, later.run_id);
  expect(earlierId < later.run_id).toBe(true);
  // The stream has followed the later run to its end before the earlier one is stored.
  for (let i = 0; i < 200 && !done.includes(later.run_id); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 25));
  expect(done).toEqual([later.run_id]);
  await storeEndedRun(thread.thread_id, earlierId, later.assistant_id, "idle");
  try {
    await following;
  } finally {
    clearTimeout(timer);
  }
  expect(done).toEqual([later.run_id, earlierId]);
});

test("a run stored while the stream follows a long run, with an id from before that run's, is followed after it", async () => {
  const thread = await rt.client.threads.create();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 15_000);
  const seen: [string, string][] = [];
  const deps = { runs: rt.runtime.runRepository, threads: rt.runtime.threadRepository, service: rt.runtime.runs };
  // Creations are taken to reach the database within a second of their ids (60 s in service).
  const options = { modes: ["lifecycle" as const], signal: controller.signal, creationWindowMs: 1_000 };
  const following = (async () => {
    for await (const event of threadEvents(deps, thread.thread_id, options)) {
      seen.push([event.event, JSON.parse(event.data).run_id]);
      if (seen.filter(([kind]) => kind === "run_done").length === 2) return;
    }
  })();
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // the stream has started
    const earlierId = newRunId();
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Three steps of 700 ms: the run lasts longer than the window.
    const long = await rt.client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: 700 } });
    for (let i = 0; i < 200 && !seen.length; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(seen).toEqual([["metadata", long.run_id]]);
    // The earlier creation reaches the database while the stream follows the long run.
    await storeEndedRun(thread.thread_id, earlierId, long.assistant_id, "busy");
    await following;
    expect(seen.filter(([kind]) => kind === "run_done").map(([, runId]) => runId)).toEqual([long.run_id, earlierId]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
});

test("on a thread whose last run is older than the window, a run with an id from before the stream's window is followed", async () => {
  const thread = await rt.client.threads.create();
  const first = await rt.client.runs.create(thread.thread_id, "agent", { input: say("first") });
  await rt.client.runs.join(thread.thread_id, first.run_id);
  // The id a process whose clock is behind would give a run created after the stream starts.
  const behindId = newRunId();
  await new Promise((resolve) => setTimeout(resolve, 1_200)); // both are older than the window
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  const done: string[] = [];
  const deps = { runs: rt.runtime.runRepository, threads: rt.runtime.threadRepository, service: rt.runtime.runs };
  const options = { modes: ["lifecycle" as const], signal: controller.signal, creationWindowMs: 1_000 };
  const following = (async () => {
    for await (const event of threadEvents(deps, thread.thread_id, options)) {
      if (event.event === "run_done") return done.push(JSON.parse(event.data).run_id);
    }
  })();
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // the stream has started
    await storeEndedRun(thread.thread_id, behindId, first.assistant_id, "idle");
    await following;
    expect(done).toEqual([behindId]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
});

test("a thread that does not exist answers 404", async () => {
  const response = await fetch(`${rt.url}/threads/${crypto.randomUUID()}/stream`);
  expect(response.status).toBe(404);
});

test("deleting the thread ends the stream of those listening", async () => {
  const thread = await rt.client.threads.create();
  const listening = (async () => {
    for await (const event of rt.client.threads.joinStream(thread.thread_id)) void event;
    return "ended";
  })();
  await rt.client.runs.wait(thread.thread_id, "agent", { input: say("last words") });
  await rt.client.threads.delete(thread.thread_id);
  const timeout = new Promise((resolve) => setTimeout(() => resolve("still open"), 5_000).unref());
  expect(await Promise.race([listening, timeout])).toBe("ended");
});
