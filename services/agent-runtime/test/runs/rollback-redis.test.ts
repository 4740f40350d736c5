// Cancel with `action=rollback` under BullMQ (Redis mode), repeated at every moment of a run's life:
// before a worker takes it, while it is being claimed, while it runs. Each time the run and what it
// wrote are gone when the cancel (with wait) answers, and the thread is back where it was.
import { startTestRuntime } from "../support/harness";

type Steps = { count: number; visited: string[] };

let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({ redis: true, workers: 3 });
});
afterAll(async () => {
  await rt?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a run's status until it is gone (404); answers every status seen on the way. */
async function watchUntilGone(threadId: string, runId: string, timeoutMs = 10_000): Promise<Set<string>> {
  const seen = new Set<string>();
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      seen.add((await rt.client.runs.get(threadId, runId)).status);
    } catch (error) {
      if (/HTTP 404/.test(String(error))) return seen;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  seen.add("never deleted");
  return seen;
}

// Milliseconds between creating the run and cancelling it: from "not yet taken" to "mid-step".
const DELAYS = [0, 0, 5, 10, 20, 40, 80, 150, 250, 400];
// Each step's pause: the run lasts about 900 ms, so even the last cancel reaches it mid-run on a
// loaded machine (with 150 ms steps the run could end first, and rightly stay).
const STEP_MS = 300;

test.each(DELAYS.map((delay, index) => [index, delay]))(
  "rollback #%i, %i ms after the run was created: run and checkpoints deleted, thread restored",
  async (_index, delay) => {
    const thread = await rt.client.threads.create();
    await rt.client.runs.wait(thread.thread_id, "steps", { input: {} });
    const run = await rt.client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: STEP_MS } });
    await sleep(delay);
    await rt.client.runs.cancel(thread.thread_id, run.run_id, true, "rollback");

    await expect(rt.client.runs.get(thread.thread_id, run.run_id)).rejects.toThrow(/HTTP 404/);
    expect((await rt.client.runs.list(thread.thread_id)).map((item) => item.run_id)).not.toContain(run.run_id);
    const history = await rt.client.threads.getHistory(thread.thread_id, { metadata: { run_id: run.run_id } });
    expect(history).toEqual([]);
    expect((await rt.client.threads.getState<Steps>(thread.thread_id)).values.count).toBe(3);
    const after = await rt.client.threads.get<Steps>(thread.thread_id);
    expect(after.status).toBe("idle");
    expect(after.values.count).toBe(3);
    // Nothing written late: a moment later it is all still gone.
    await sleep(200);
    expect(await rt.client.threads.getHistory(thread.thread_id, { metadata: { run_id: run.run_id } })).toEqual([]);
    expect((await rt.client.threads.getState<Steps>(thread.thread_id)).values.count).toBe(3);
  },
);

test.each(DELAYS.map((delay, index) => [index, delay]))(
  "multitask rollback #%i, %i ms after the first run: it is deleted without ever showing an end status",
  async (_index, delay) => {
    const thread = await rt.client.threads.create();
    await rt.client.runs.wait(thread.thread_id, "steps", { input: {} });
    const first = await rt.client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: STEP_MS } });
    await sleep(delay);
    const watching = watchUntilGone(thread.thread_id, first.run_id);
    const second = await rt.client.runs.create(thread.thread_id, "steps", {
      input: {},
      multitaskStrategy: "rollback",
    });
    const seen = await watching;
    for (const status of seen) expect(["pending", "running"]).toContain(status);
    await rt.client.runs.join(thread.thread_id, second.run_id);
    expect((await rt.client.runs.get(thread.thread_id, second.run_id)).status).toBe("success");
    expect(await rt.client.threads.getHistory(thread.thread_id, { metadata: { run_id: first.run_id } })).toEqual([]);
    expect((await rt.client.threads.getState<Steps>(thread.thread_id)).values.count).toBe(6);
  },
);
