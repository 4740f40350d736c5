// A thread's protocol log (Redis) is kept for at least a day after its last entry, without paying
// two EXPIREs on every entry: the expiry is set to a day and an hour, and pushed back only once
// less than a day is left. Both keys (the entries and their counter) expire together.
import { randomUUID } from "node:crypto";
import { testRedisUrl } from "@lgp/server-kit/src/testing";
import Redis from "ioredis";
import { RedisEventLog } from "../../src/queue/redis";
import { randomPrefix } from "../support/harness";
import { deleteRedisKeys } from "../support/redis-keys";

const DAY = 24 * 3600;
const prefix = randomPrefix();
let log: RedisEventLog;
let redis: Redis;

beforeAll(() => {
  log = new RedisEventLog(testRedisUrl(), prefix);
  redis = new Redis(testRedisUrl());
});

afterAll(async () => {
  await log.close();
  await deleteRedisKeys(testRedisUrl(), prefix);
  redis.disconnect();
});

test("entries keep the log a day past the last one, and only a log with less than a day left has its expiry moved", async () => {
  const threadId = randomUUID();
  const key = `${prefix}:thread:${threadId}:protocol`;
  const ttls = async () => [await redis.ttl(key), await redis.ttl(`${key}:seq`)];

  expect(await log.threads.appendMany(threadId, [{ method: "lifecycle", params: "{}" }])).toBe(1);
  for (const ttl of await ttls()) expect(ttl).toBeGreaterThan(DAY);

  // With more than a day left, an entry leaves the expiry where it is.
  await redis.expire(key, DAY + 600);
  await redis.expire(`${key}:seq`, DAY + 600);
  expect(await log.threads.appendMany(threadId, [{ method: "values", params: "{}" }])).toBe(2);
  for (const ttl of await ttls()) expect(ttl).toBeLessThanOrEqual(DAY + 600);

  // Less than a day left (time has passed since it was set): the next entry moves it past a day again.
  await redis.expire(key, 60);
  await redis.expire(`${key}:seq`, 60);
  expect(await log.threads.appendMany(threadId, [{ method: "lifecycle", params: "{}" }])).toBe(3);
  for (const ttl of await ttls()) expect(ttl).toBeGreaterThan(DAY);
  expect((await log.threads.range(threadId, 0, 3)).map((entry) => entry.seq)).toEqual([1, 2, 3]);
});
