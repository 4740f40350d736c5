// Per-tenant rate limits through Redis (REDIS_URL, as main.ts builds them): two control-plane
// instances count against one budget; Redis unreachable, every request passes (fail open), counted
// in /metrics and logged once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { Redis } from "ioredis";
import { freePort, type Logger } from "@lgp/server-kit";
import { testRedisUrl } from "@lgp/server-kit/src/testing";
import { createControlPlaneApp } from "../../src/app";
import type { ControlPlaneConfig } from "../../src/config";
import { controlPlaneRateLimiter } from "../../src/rate-limits";
import { startHarness, type Harness } from "../deployments/harness";

const BUDGET = 10;

let h: Harness;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  const redis = new Redis(testRedisUrl());
  const keys = await redis.keys(`lgp-control-plane:ratelimit:*:tenant:${h.tenantId}`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  await h.close();
});

/** Another control-plane instance on the harness's database, its limits in `redisUrl`'s Redis. */
async function instance(redisUrl: string, logger: Logger = h.logger): Promise<string> {
  const config: ControlPlaneConfig = { ...h.config, REDIS_URL: redisUrl, RATE_LIMIT_REQUESTS_PER_MINUTE: BUDGET };
  const rateLimiter = controlPlaneRateLimiter(config, logger, { shared: true });
  await rateLimiter.ready(1_000);
  const server: Server = createServer(createControlPlaneApp({ config, db: h.db, logger, rateLimiter }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => rateLimiter.close());
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  closers.push(async () => server.closeAllConnections());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const list = (url: string) => fetch(`${url}/v2/deployments`, { headers: { "X-Api-Key": h.apiKey } });

test("two instances on one Redis share a tenant's budget", async () => {
  const [first, second] = [await instance(testRedisUrl()), await instance(testRedisUrl())];
  const statuses: number[] = [];
  // One at a time, alternating: each instance alone would allow BUDGET.
  for (let i = 0; i < BUDGET + 4; i++) statuses.push((await list(i % 2 ? second : first)).status);
  expect(statuses.slice(0, BUDGET)).toEqual(Array(BUDGET).fill(200));
  expect(statuses.slice(BUDGET)).toEqual([429, 429, 429, 429]);
  const refused = await list(first);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(refused.headers.get("ratelimit")).toMatch(/^"requests";r=0;t=\d+$/);
});

test("with Redis unreachable every request passes, counted in /metrics, and the outage is logged once", async () => {
  const lines: string[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
  // Nothing listens there: Redis is down.
  const url = await instance(`redis://127.0.0.1:${await freePort()}`, logger);
  const statuses = await Promise.all(Array.from({ length: BUDGET * 2 }, () => list(url).then((res) => res.status)));
  expect(statuses).toEqual(Array(BUDGET * 2).fill(200));
  for (let i = 0; i < 5; i++) expect((await list(url)).status).toBe(200);

  const metrics = await (await fetch(`${url}/metrics`)).text();
  expect(metrics).toMatch(
    new RegExp(`^http_rate_limit_unchecked_total\\{service="control-plane"\\} ${BUDGET * 2 + 5}$`, "m"),
  );
  const warnings = lines
    .map((line) => JSON.parse(line))
    .filter((line) => /rate limits are not enforced/.test(line.msg));
  expect(warnings).toHaveLength(1);
  expect(warnings[0].level).toBe(40);
});
