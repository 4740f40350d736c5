// Drills: workers SIGKILLed under runs, round after round (every run resumes and succeeds, each
// step once), and a run whose worker keeps dying. Each attempt's worker is SIGKILLed mid-run; the run is
// resumed by the next worker until it has used RUN_MAX_ATTEMPTS, then it ends as `error` with the
// reason, and its thread goes on to the run queued behind it. Nothing stays `running` or `busy`.
import type { ChildProcess } from "node:child_process";
import { createTestDatabase, testRedisUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import {
  deleteRedisKeys,
  killProcess,
  randomPrefix,
  spawnRuntimeProcess,
  startRuntime,
  type RunningRuntime,
} from "../support/harness";

let database: TestDatabase;
let api: RunningRuntime;
const prefix = randomPrefix();
const workers: ChildProcess[] = [];
const output: string[] = [];
const MAX_ATTEMPTS = 2;

function startWorker(): ChildProcess {
  const child = spawnRuntimeProcess(
    "worker.ts",
    {
      DATABASE_URL: database.url,
      REDIS_PREFIX: prefix,
      WORKERS: "10",
      RUN_LOCK_MS: "1000",
      RUN_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    },
    output,
  );
  workers.push(child);
  return child;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${output.join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  api = await startRuntime(database.url, { redis: true, prefix, workers: 0 });
});

afterAll(async () => {
  await Promise.all(workers.map(killProcess));
  await api?.close();
  await deleteRedisKeys(testRedisUrl(), prefix);
  await database?.drop();
});

test("a run killed more times than RUN_MAX_ATTEMPTS ends as error with the reason; its thread runs the next run", async () => {
  const thread = await api.client.threads.create();
  // Each step takes a minute: only a kill ends an attempt.
  const doomed = await api.client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: 60_000 } });
  const next = await api.client.runs.create(thread.thread_id, "steps", { input: {}, multitaskStrategy: "enqueue" });

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const worker = startWorker();
    await until(`attempt ${attempt}`, async () => {
      const row = await api.runtime.runRepository.findById(doomed.run_id);
      return row?.status === "running" && row.attempt === attempt ? row : undefined;
    });
    await killProcess(worker);
  }
  startWorker();

  // Stuck: 0. The doomed run ends as error, its reason in the run's stream; the queued run succeeds.
  const ended = await until("the doomed run to end", async () => {
    const run = await api.client.runs.get(thread.thread_id, doomed.run_id);
    return run.status === "pending" || run.status === "running" ? undefined : run;
  });
  expect(ended.status).toBe("error");
  const events = [];
  for await (const part of api.client.runs.joinStream(thread.thread_id, doomed.run_id, { lastEventId: "-1" })) {
    events.push(part);
  }
  const error = events.find((part) => part.event === "error");
  expect(error?.data).toMatchObject({ error: "RunAttemptsExhausted", message: expect.stringMatching(/2 time/) });
  // It never got past its first step, and no attempt ran past the limit.
  expect((await api.runtime.runRepository.findById(doomed.run_id))?.attempt).toBe(MAX_ATTEMPTS + 1);

  const after = await api.client.runs.join(thread.thread_id, next.run_id);
  expect(after).toMatchObject({ count: 3, visited: ["one", "two", "three"] });
  expect((await api.client.runs.get(thread.thread_id, next.run_id)).status).toBe("success");
  const settled = await until("the thread to settle", async () => {
    const current = await api.client.threads.get(thread.thread_id);
    return current.status === "busy" ? undefined : current;
  });
  expect(settled.status).toBe("idle");
}, 90_000);

test("workers SIGKILLed mid-run, 3 rounds of 10 runs: none lost, failed or run twice", async () => {
  const outcome = { lost: 0, failed: 0, duplicated: 0 };
  await Promise.all(workers.map(killProcess));
  startWorker();
  for (let round = 0; round < 3; round++) {
    const threads = await Promise.all(Array.from({ length: 10 }, () => api.client.threads.create()));
    const runs = await Promise.all(
      threads.map((thread) =>
        api.client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: 400 } }),
      ),
    );
    // Every run has started, most are mid-step: kill their worker, start another.
    await until("the runs to start", async () => {
      const rows = await Promise.all(runs.map((run) => api.runtime.runRepository.findById(run.run_id)));
      return rows.every((row) => row?.status === "running") ? true : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await Promise.all(workers.map(killProcess));
    startWorker();
    for (const [index, run] of runs.entries()) {
      const threadId = threads[index].thread_id;
      const ended = await until("a run to end", async () => {
        const current = await api.client.runs.get(threadId, run.run_id);
        return current.status === "pending" || current.status === "running" ? undefined : current;
      }).catch(() => undefined);
      if (!ended) outcome.lost += 1;
      else if (ended.status !== "success") outcome.failed += 1;
      const state = await api.client.threads.getState<{ visited: string[] }>(threadId);
      if (state.values.visited.length > 3) outcome.duplicated += 1;
    }
  }
  expect(outcome).toEqual({ lost: 0, failed: 0, duplicated: 0 });
}, 120_000);
