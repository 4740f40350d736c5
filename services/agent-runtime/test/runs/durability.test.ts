// A worker process killed with SIGKILL mid-run: BullMQ's stalled-job check hands the run to
// another worker process, which resumes it from its last checkpoint; the client's stream goes on.
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

type Event = { event: string; data: unknown; id?: string };

let database: TestDatabase;
let api: RunningRuntime;
const prefix = randomPrefix();
const workers: ChildProcess[] = [];
const output: string[] = [];

function startWorker(): ChildProcess {
  const child = spawnRuntimeProcess(
    "worker.ts",
    { DATABASE_URL: database.url, REDIS_PREFIX: prefix, WORKERS: "1", RUN_LOCK_MS: "2000" },
    output,
  );
  workers.push(child);
  return child;
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

test("SIGKILL of the worker mid-run: another worker resumes it; nothing runs twice; the stream completes", async () => {
  const first = startWorker();
  const thread = await api.client.threads.create();
  const events: Event[] = [];
  let killed = false;
  for await (const part of api.client.runs.stream(thread.thread_id, "steps", {
    input: {},
    context: { delay_ms: 1500 },
    streamMode: ["updates", "custom"],
  })) {
    events.push(part as Event);
    const data = part.data as { step?: string; status?: string };
    if (!killed && part.event === "custom" && data.step === "two") {
      // Step one is checkpointed, step two is under way: kill its worker outright.
      first.kill("SIGKILL");
      killed = true;
      startWorker();
    }
  }
  expect(killed).toBe(true);
  const runId = (events[0].data as { run_id: string }).run_id;
  const updates = events
    .filter((event) => event.event === "updates")
    .map((event) => Object.keys(event.data as object)[0]);
  expect(updates).toEqual(["one", "two", "three"]);
  const state = await api.client.threads.getState<{ count: number; visited: string[] }>(thread.thread_id);
  expect(state.values).toEqual({ count: 3, visited: ["one", "two", "three"] });
  const run = await api.client.runs.get(thread.thread_id, runId);
  expect(run.status).toBe("success");
  expect((await api.runtime.runRepository.findById(runId))?.attempt).toBe(2);
  expect((await api.client.threads.get(thread.thread_id)).status).toBe("idle");
}, 60_000);
