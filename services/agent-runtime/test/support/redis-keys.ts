// Redis clean-up for tests and the benchmark: a run's keys (queue, event streams) share a prefix.
import { Redis } from "ioredis";

/** Removes a test's Redis keys (queue, event streams) by their prefix. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
