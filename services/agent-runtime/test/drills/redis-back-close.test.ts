// Drill: a runtime is closed (as on SIGTERM) during a Redis outage, or just as Redis comes back
// while its queues' connections still wait out their reconnection delay. Closing must not wait for
// what never comes: ioredis 6.0 left a connection closed while reconnecting without its `end`, and
// BullMQ's worker close waited for it forever (the Redis outage drill's teardown hung so in CI);
// with Redis down, BullMQ's fetch loop waits for a reconnection before its close can end.
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { BULLMQ_CLOSE_GRACE_MS } from "../../src/queue/bullmq-close";
import { startRuntime, type RunningRuntime } from "../support/harness";
import { startPrivateRedis, type PrivateRedis } from "../support/redis-server";

let database: TestDatabase;
let redis: PrivateRedis;

beforeAll(async () => {
  redis = await startPrivateRedis();
  database = await createTestDatabase("agent-runtime");
});

afterAll(async () => {
  await redis?.close();
  await database?.drop();
});

test("a runtime closed as Redis comes back from an outage closes promptly", async () => {
  const rt: RunningRuntime = await startRuntime(database.url, { redis: true, env: { REDIS_URL: redis.url } });
  // A run goes through first, so the workers are waiting on Redis for the next one.
  const thread = await rt.client.threads.create();
  await rt.client.runs.wait(thread.thread_id, "agent", { input: { messages: [{ role: "user", content: "hi" }] } });

  await redis.kill();
  // Longer than BullMQ's blocking wait (5 s) and its watchdog: the workers' connections are in
  // ioredis's reconnection backoff when Redis returns.
  await new Promise((resolve) => setTimeout(resolve, 6_500));
  await redis.restart();

  expect(await closeWithin(() => rt.close(), 15_000)).toBe("closed");
}, 45_000);

test("a runtime closed while Redis is down closes once BullMQ's grace has passed", async () => {
  const rt = await startRuntime(database.url, { redis: true, env: { REDIS_URL: redis.url } });
  await redis.kill();
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  // As SIGTERM does: the HTTP server, then the runtime (the harness's close would also delete the
  // test's Redis keys, which waits for Redis). No run is in flight: the queues wait for nothing of
  // their own, then for BullMQ within its grace.
  rt.server.closeAllConnections();
  await new Promise((resolve) => rt.server.close(resolve));
  const started = Date.now();
  expect(await closeWithin(() => rt.runtime.close(), 20_000)).toBe("closed");
  // It waited for BullMQ (a grace per queue whose worker was stuck), then went on.
  expect(Date.now() - started).toBeGreaterThanOrEqual(BULLMQ_CLOSE_GRACE_MS);
  // BullMQ's loops, left waiting for Redis, end once it is back (nothing left running for Jest).
  await redis.restart();
  await new Promise((resolve) => setTimeout(resolve, 4_000));
}, 45_000);

async function closeWithin(close: () => Promise<void>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    close().then(() => "closed"),
    new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`still closing after ${ms} ms`), ms))),
  ]);
  clearTimeout(timer);
  return outcome;
}
