// The embedded mode's worker threads (WORKER_THREADS): runs execute off the main thread, and a
// thread that dies mid-run is replaced while its run resumes from its last checkpoint.
import path from "node:path";
import { startTestRuntime } from "../support/harness";

const FIXTURES = path.join(__dirname, "fixtures/langgraph.json");

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  // A short run lock: a run no worker holds is handed back about two seconds on.
  rt = await startTestRuntime({
    workers: 2,
    env: { LANGGRAPH_JSON: FIXTURES, WORKER_THREADS: "1", RUN_LOCK_MS: "1000" },
  });
});
afterAll(async () => {
  await rt?.close();
});

async function waitForEnd(threadId: string, runId: string): Promise<string> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const { status } = await rt.client.runs.get(threadId, runId);
    if (status !== "pending" && status !== "running") return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} never ended`);
}

test("runs execute on a worker thread, not on the main thread that serves HTTP", async () => {
  const thread = await rt.client.threads.create();
  const values = (await rt.client.runs.wait(thread.thread_id, "where", { input: {} })) as { thread: number };
  expect(values.thread).toBeGreaterThan(0);
});

test("a thread that dies mid-run is replaced, and its run resumes from its last checkpoint", async () => {
  const before = (await rt.client.runs.wait((await rt.client.threads.create()).thread_id, "where", { input: {} })) as {
    thread: number;
  };
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "fragile", { input: {} });
  expect(await waitForEnd(thread.thread_id, run.run_id)).toBe("success");
  const state = await rt.client.threads.getState<{ visited: string[]; attempt: number; thread: number }>(
    thread.thread_id,
  );
  // The first step ran once: the second attempt went on from its checkpoint, on a new thread.
  expect(state.values).toEqual({ visited: ["first", "second"], attempt: 2, thread: expect.any(Number) });
  expect(state.values.thread).toBeGreaterThan(0);
  expect(state.values.thread).not.toBe(before.thread);
  // The replacement takes new runs.
  const after = (await rt.client.runs.wait((await rt.client.threads.create()).thread_id, "where", { input: {} })) as {
    thread: number;
  };
  expect(after.thread).toBe(state.values.thread);
}, 30_000);
