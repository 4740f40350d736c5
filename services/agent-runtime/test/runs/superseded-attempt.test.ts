// A run claimed again while its first attempt still executes (the first worker lost its hold on the
// job, as when Redis is away longer than RUN_LOCK_MS, and the queue handed the job out again): the
// newer attempt takes over from the last checkpoint and the older one stops. Each step runs once.
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startTestRuntime({ workers: 2 });
});
afterAll(async () => {
  await rt?.close();
});

test("a second claim of a running run stops the first attempt; the run ends once, each step once", async () => {
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "steps", {
    input: {},
    context: { delay_ms: 700 },
    streamMode: ["custom"],
  });
  for (let started = false; !started;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const state = await rt.client.threads.getState<{ visited?: string[] }>(thread.thread_id);
    started = (state.values.visited ?? []).includes("one");
  }
  // What the queue does when it hands a job out again: the job's second attempt.
  const second = rt.runtime.executor.handle(
    { runId: run.run_id, threadId: thread.thread_id },
    { attempt: 2, signal: new AbortController().signal },
  );
  expect(await second).toBe("done");
  const state = await rt.client.threads.getState<{ visited: string[]; count: number }>(thread.thread_id);
  expect(state.values).toEqual({ count: 3, visited: ["one", "two", "three"] });
  expect((await rt.client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
  expect((await rt.runtime.runRepository.findById(run.run_id))?.attempt).toBe(2);
  // The first attempt, stopped, wrote nothing after the takeover.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect((await rt.client.threads.getState<{ visited: string[] }>(thread.thread_id)).values.visited).toEqual([
    "one",
    "two",
    "three",
  ]);
  expect((await rt.client.threads.get(thread.thread_id)).status).toBe("idle");
  // Steps the first attempt had not reached when it stopped started once, in the newer attempt.
  const started: string[] = [];
  for await (const part of rt.client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: "-1" })) {
    if (part.event === "custom") started.push((part.data as { step: string }).step);
  }
  expect(started.filter((step) => step === "three")).toEqual(["three"]);
});
