// A protocol run's events reach its thread's log in order and, when they come in a burst, in few
// appends: while one append is on its way, the events that follow gather for the next. Once the
// run's end has been written, everything before it is in the log, even events an append had
// failed to write.
import Redis from "ioredis";
import { ProtocolRunEvents } from "../../src/protocol/run-events";
import { RedisEventLog } from "../../src/queue/redis";
import { startPrivateRedis, type PrivateRedis } from "../support/redis-server";

let redis: PrivateRedis;
let log: RedisEventLog;
let stats: Redis;

beforeAll(async () => {
  redis = await startPrivateRedis();
  log = new RedisEventLog(redis.url, "batching");
  stats = new Redis(redis.url);
  // The append script is loaded once (its first call); not counted below.
  await log.threads.appendMany("warm-up", [{ method: "custom", params: "{}" }]);
});
afterAll(async () => {
  await log?.close();
  stats?.disconnect();
  await redis?.close();
});

const scriptCalls = () => redis.calls("evalsha", "eval");

test("a burst of 30 events goes in two appends, in order, all in the log once the end is written", async () => {
  const events = new ProtocolRunEvents(log.threads, "burst", "agent");
  // The run's `running` lifecycle is in the log before its graph starts.
  await events.start();
  expect((await log.threads.range("burst", 0, 1000)).length).toBe(1);
  const before = await scriptCalls();
  // As the executor gives them: each awaited, none waiting for Redis.
  for (let i = 0; i < 30; i += 1) {
    await events.event({ method: "custom", params: { namespace: [], data: { i } } });
  }
  await events.end("completed");

  const entries = await log.threads.range("burst", 0, 1000);
  expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
  expect(entries.map((entry) => JSON.parse(entry.params).data)).toEqual([
    { event: "running", graph_name: "agent" },
    ...Array.from({ length: 30 }, (_, i) => ({ i })),
    { event: "completed", graph_name: "agent" },
  ]);
  // The burst's first event's append, then one for the 30 that gathered meanwhile.
  expect((await scriptCalls()) - before).toBe(2);
});

test("events keep numbering on from what the thread's log holds; an end given after all else was written is written too", async () => {
  await log.threads.appendMany("continued", [
    { method: "custom", params: "{}" },
    { method: "custom", params: "{}" },
  ]);
  const events = new ProtocolRunEvents(log.threads, "continued", "agent");
  await events.start();
  await events.written();
  await events.end("completed");
  expect((await log.threads.range("continued", 0, 100)).map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
  expect(await log.threads.lastSeq("continued")).toBe(4);
});

test("events an append failed to write are reported (the running lifecycle by waiting for the log, later ones by the next event), then written with the end once the log takes them", async () => {
  // The thread's log key holds a string: Redis refuses the script's XADD (WRONGTYPE).
  const key = "batching:thread:refused:protocol";
  await stats.set(key, "not a stream");
  const events = new ProtocolRunEvents(log.threads, "refused", "agent");
  // The graph does not wait for its `running` lifecycle; waiting for the log reports the failure.
  await events.start();
  await expect(events.written()).rejects.toThrow(/WRONGTYPE/);
  // The next event reports it too (the executor would hand the run back to the queue here).
  await expect(events.event({ method: "custom", params: { namespace: [], data: {} } })).rejects.toThrow(/WRONGTYPE/);

  await stats.del(key);
  await events.end("failed", "the log was refused");
  const entries = await log.threads.range("refused", 0, 1000);
  expect(entries.map((entry) => JSON.parse(entry.params).data)).toEqual([
    { event: "running", graph_name: "agent" },
    { event: "failed", graph_name: "agent", error: "the log was refused" },
  ]);
});
