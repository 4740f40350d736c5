// How a run's events are read back from Redis. The reader of a stream its request has just created
// (it holds the first event, written by that request) goes straight to the shared XREAD, with no
// catch-up read first: whatever the run wrote before the reader subscribed still comes, in order,
// however much there is. A reader resuming after a later event reads its backlog first.
import Redis from "ioredis";
import { RedisEventLog } from "../../src/queue/redis";
import { startPrivateRedis, type PrivateRedis } from "../support/redis-server";

let redis: PrivateRedis;
let log: RedisEventLog;

beforeAll(async () => {
  redis = await startPrivateRedis();
  log = new RedisEventLog(redis.url, "reads");
});
afterAll(async () => {
  await log?.close();
  await redis?.close();
});

/** A run that has written `count` events (and maybe ended) before anyone reads it. */
async function writtenRun(runId: string, count: number, ended: boolean): Promise<string[]> {
  await log.appendFirst(runId, "metadata", JSON.stringify({ run_id: runId }));
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) ids.push(await log.append(runId, "updates", JSON.stringify({ step: i })));
  if (ended) await log.end(runId);
  return ids;
}

async function readAll(runId: string, after: string): Promise<number[]> {
  const steps: number[] = [];
  const signal = AbortSignal.timeout(10_000);
  for await (const event of log.read(runId, { after, signal }))
    steps.push((JSON.parse(event.data) as { step: number }).step);
  return steps;
}

test("the creating request's reader gets what the run wrote before it subscribed, without a catch-up read", async () => {
  await writtenRun("early-events", 3, true);
  const before = await redis.calls("xrange");
  expect(await readAll("early-events", log.firstId)).toEqual([0, 1, 2]);
  expect((await redis.calls("xrange")) - before).toBe(0);
});

test("a backlog larger than one shared read's page comes whole and in order", async () => {
  await writtenRun("long-backlog", 450, true);
  expect(await readAll("long-backlog", log.firstId)).toEqual(Array.from({ length: 450 }, (_, i) => i));
});

test("events written while the reader waits come live, after those written before", async () => {
  await writtenRun("live-events", 2, false);
  const reading = readAll("live-events", log.firstId);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await log.append("live-events", "updates", JSON.stringify({ step: 2 }));
  await log.end("live-events");
  expect(await reading).toEqual([0, 1, 2]);
});

test("a reader resuming after a later event reads the backlog after it first", async () => {
  const ids = await writtenRun("resumed", 4, true);
  const before = await redis.calls("xrange");
  expect(await readAll("resumed", ids[1])).toEqual([2, 3]);
  expect((await redis.calls("xrange")) - before).toBe(1);
});

test("a run's end is one command that also sets its stream's expiry", async () => {
  await writtenRun("ending", 1, false);
  const before = await redis.calls("evalsha", "eval", "multi", "exec");
  await log.end("ending");
  expect((await redis.calls("evalsha", "eval", "multi", "exec")) - before).toBe(1);
  const direct = new Redis(redis.url);
  try {
    expect(await direct.ttl("reads:run:ending:events")).toBeGreaterThan(3500);
  } finally {
    direct.disconnect();
  }
});
