// Drill: Redis is killed (SIGKILL) under 20 streaming runs and started again about 5 s later, on the same
// port, from its append-only file. Runs pause while it is away (event writes and the queue wait
// for the reconnection) and go on: none fails, none is lost or runs a step twice, and every
// client's stream ends with all three steps. A private redis-server on a free port.
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { startRuntime, type RunningRuntime } from "../support/harness";
import { startPrivateRedis, type PrivateRedis } from "../support/redis-server";

const RUNS = 20;
let database: TestDatabase;
let rt: RunningRuntime;
let redis: PrivateRedis;

beforeAll(async () => {
  redis = await startPrivateRedis();
  database = await createTestDatabase("agent-runtime");
  // The outage (about 5 s) outlasts the workers' hold on their runs (RUN_LOCK_MS, 3 s): when Redis is
  // back, BullMQ hands the runs out again while their first attempts still execute. The newer
  // attempt takes over, the older one stops: each step still runs once.
  rt = await startRuntime(database.url, {
    redis: true,
    workers: RUNS,
    env: { REDIS_URL: redis.url, RUN_LOCK_MS: "3000" },
  });
});

afterAll(async () => {
  await rt?.close();
  await redis?.close();
  await database?.drop();
});

async function waitForReady(expected: number, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await fetch(`${rt.url}/ready`)).status === expected) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

test("runs streaming through a Redis restart all complete, with every event, each step once", async () => {
  const threads = await Promise.all(Array.from({ length: RUNS }, () => rt.client.threads.create()));
  let started = 0;
  const streams = threads.map(async (thread) => {
    const updates: string[] = [];
    let error: unknown;
    try {
      for await (const part of rt.client.runs.stream(thread.thread_id, "steps", {
        input: {},
        context: { delay_ms: 500 },
        streamMode: ["updates"],
      })) {
        if (part.event === "metadata") started += 1;
        if (part.event === "updates") updates.push(...Object.keys(part.data as object));
        if (part.event === "error") error = part.data;
      }
    } catch (caught) {
      error = caught;
    }
    return { threadId: thread.thread_id, updates, error };
  });

  // Every run is stored and streaming (its first event came), then Redis goes, mid-step.
  for (const deadline = Date.now() + 30_000; started < RUNS && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(started).toBe(RUNS);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await redis.kill();
  // Readiness tells the truth, and no run is created while Redis is away (503, nothing stored).
  expect(await waitForReady(503)).toBe(true);
  const refused = await fetch(`${rt.url}/threads/${threads[0].thread_id}/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ assistant_id: "steps", input: {} }),
  });
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBeTruthy();
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  await redis.restart();
  expect(await waitForReady(200)).toBe(true);

  const results = await Promise.all(streams);
  const outcome = { failed: 0, lost: 0, duplicated: 0, streamsIncomplete: 0 };
  const incomplete: unknown[] = [];
  for (const result of results) {
    const runs = await rt.client.runs.list(result.threadId);
    if (runs.length !== 1) outcome.duplicated += Math.max(0, runs.length - 1);
    const status = runs[0]?.status;
    if (status === "pending" || status === "running" || !status) outcome.lost += 1;
    else if (status !== "success") outcome.failed += 1;
    const state = await rt.client.threads.getState<{ visited: string[] }>(result.threadId);
    if (state.values.visited.length > 3) outcome.duplicated += 1;
    if (result.error || result.updates.join(",") !== "one,two,three") {
      outcome.streamsIncomplete += 1;
      incomplete.push({ updates: result.updates, error: String(result.error ?? ""), status });
    }
  }
  expect(incomplete).toEqual([]);
  expect(outcome).toEqual({ failed: 0, lost: 0, duplicated: 0, streamsIncomplete: 0 });
}, 90_000);
