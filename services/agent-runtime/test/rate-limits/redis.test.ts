// Rate limits through Redis (REDIS_URL, as main.ts builds them), on a private redis-server this
// test can kill: two API instances count against one budget per key; with Redis dead every request
// passes (fail open), counted in /metrics and logged once; Redis back, the limits are enforced again.
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { runtimeKeyHash, type Logger } from "@lgp/server-kit";
import { createAgentRuntimeApp } from "../../src/app";
import { runtimeRateLimiter } from "../../src/http/rate-limits";
import { randomPrefix, startTestRuntime } from "../support/harness";
import { startPrivateRedis, type PrivateRedis } from "../support/redis-server";

const BUDGET = 8;
const KEYS = Array.from({ length: 3 }, () => `lgp_rt_${randomUUID()}`);
let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let redis: PrivateRedis;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis();
  rt = await startTestRuntime({
    workers: 1,
    env: { API_KEY_HASHES: KEYS.map(runtimeKeyHash).join(","), RATE_LIMIT_REQUESTS_PER_MINUTE: String(BUDGET) },
  });
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await rt?.close();
  await redis?.close();
});

const prefix = randomPrefix();

/** Another API instance of the runtime, its limits in the private Redis. */
async function instance(logger: Logger = pino({ level: "silent" })): Promise<string> {
  // The instances of one deployment share its prefix.
  const config = { ...rt.config, REDIS_URL: redis.url, REDIS_PREFIX: prefix };
  const rateLimiter = runtimeRateLimiter(config, logger, { shared: true });
  await rateLimiter.ready(2_000);
  const app = createAgentRuntimeApp({ config, db: rt.runtime.db, logger, runtime: rt.runtime, rateLimiter });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  closers.push(() => rateLimiter.close());
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  closers.push(async () => server.closeAllConnections());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const search = (url: string, key: string) =>
  fetch(`${url}/threads/search`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: "{}",
  }).then(async (res) => {
    await res.arrayBuffer();
    return res;
  });

test("two instances on one Redis share a key's budget", async () => {
  const [first, second] = [await instance(), await instance()];
  const statuses: number[] = [];
  for (let i = 0; i < BUDGET + 3; i++) statuses.push((await search(i % 2 ? second : first, KEYS[0])).status);
  expect(statuses).toEqual([...Array(BUDGET).fill(200), 429, 429, 429]);
  // Another key is counted apart, on either instance.
  expect((await search(second, KEYS[1])).headers.get("ratelimit")).toMatch(
    new RegExp(`^"requests";r=${BUDGET - 1};t=\\d+$`),
  );
});

test("with Redis dead every request passes, counted and logged once; Redis back, limits are enforced again", async () => {
  const lines: string[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
  const url = await instance(logger);
  const key = KEYS[2];
  expect((await search(url, key)).headers.get("ratelimit")).toMatch(/^"requests";r=\d+;t=\d+$/);

  await redis.kill();
  const started = Date.now();
  const statuses = await Promise.all(Array.from({ length: BUDGET * 3 }, () => search(url, key).then((r) => r.status)));
  expect(statuses).toEqual(Array(BUDGET * 3).fill(200));
  // Failing open costs no wait on Redis.
  expect(Date.now() - started).toBeLessThan(5_000);
  const metrics = await (await fetch(`${url}/metrics`, { headers: { "x-api-key": key } })).text();
  expect(Number(/^http_rate_limit_unchecked_total\{[^}]*\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(
    BUDGET * 3,
  );
  const messages = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(messages().filter((line) => line.msg.startsWith("rate limits are not enforced"))).toHaveLength(1);

  await redis.restart();
  // ioredis reconnects on its own; the first counted answer carries the RateLimit field again.
  const deadline = Date.now() + 15_000;
  while (!(await search(url, key)).headers.get("ratelimit")) {
    expect(Date.now()).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const after = await Promise.all(Array.from({ length: BUDGET + 2 }, () => search(url, key).then((r) => r.status)));
  expect(after).toContain(429);
  expect(messages().filter((line) => line.msg.startsWith("rate limits are enforced again"))).toHaveLength(1);
});
