// Requests that fail authentication, limited per client address (guessing deployment keys): past
// the budget the address is refused with 429 and Retry-After, the right key included, until its
// window ends; the probes stay open. The address is the socket's: X-Forwarded-For is believed only
// from the proxies TRUST_PROXY names.
import { randomUUID } from "node:crypto";
import { runtimeKeyHash } from "@lgp/server-kit";
import { loadAgentRuntimeConfig } from "../../src/config";
import { startTestRuntime } from "../support/harness";

const KEY = `lgp_rt_${randomUUID()}`;
const FAILURES = 5;
type Runtime = Awaited<ReturnType<typeof startTestRuntime>>;

const start = (env: Record<string, string> = {}) =>
  startTestRuntime({
    workers: 1,
    env: { API_KEY_HASHES: runtimeKeyHash(KEY), RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: String(FAILURES), ...env },
  });
const search = (rt: Runtime, key: string, headers: Record<string, string> = {}) =>
  fetch(`${rt.url}/threads/search`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json", ...headers },
    body: "{}",
  });

describe("the socket's address (no TRUST_PROXY)", () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await start();
  });
  afterAll(async () => {
    await rt?.close();
  });

  test("an address guessing keys gets 429s after the budget, whatever X-Forwarded-For it sends", async () => {
    // Served with the right key before: only failures count.
    expect((await search(rt, KEY)).status).toBe(200);
    const statuses = [];
    for (let i = 0; i < FAILURES + 2; i++)
      statuses.push((await search(rt, `guess-${i}`, { "X-Forwarded-For": `203.0.113.${i}` })).status);
    expect(statuses).toEqual([...Array(FAILURES).fill(401), 429, 429]);

    const refused = await search(rt, KEY, { Origin: "http://localhost:5173" });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-policy")).toBe(`"auth_failures";q=${FAILURES};w=60`);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(await refused.json()).toEqual({
      detail: `Too many requests that failed authentication from this address: at most ${FAILURES} per minute; retry in ${retryAfter} s`,
    });
    // The probes and /metrics (with the key it needs) still answer the refused address.
    for (const path of ["/ok", "/ready", "/metrics"])
      expect((await fetch(`${rt.url}${path}`, { headers: { "x-api-key": KEY } })).status).toBe(200);
    const metrics = await (await fetch(`${rt.url}/metrics`, { headers: { "x-api-key": KEY } })).text();
    expect(metrics).toMatch(/^http_rate_limited_total\{policy="auth_failures",service="agent-runtime"\} 3$/m);
  });
});

test("behind a trusted proxy each client's address is counted apart", async () => {
  const rt = await start({ TRUST_PROXY: "loopback" });
  try {
    for (let i = 0; i < FAILURES; i++)
      expect((await search(rt, "guess", { "X-Forwarded-For": "203.0.113.7" })).status).toBe(401);
    expect((await search(rt, KEY, { "X-Forwarded-For": "203.0.113.7" })).status).toBe(429);
    // Another client behind the same proxy is served.
    expect((await search(rt, KEY, { "X-Forwarded-For": "198.51.100.1" })).status).toBe(200);
  } finally {
    await rt.close();
  }
});

test("TRUST_PROXY is a hop count or proxies' addresses, never every address", () => {
  const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/unused" };
  expect(loadAgentRuntimeConfig({ ...env, TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
  expect(loadAgentRuntimeConfig({ ...env, TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY).toBe(
    "loopback, 10.0.0.0/8",
  );
  expect(loadAgentRuntimeConfig(env).TRUST_PROXY).toBeUndefined();
  expect(() => loadAgentRuntimeConfig({ ...env, TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY: must be a hop count/);
  expect(() => loadAgentRuntimeConfig({ ...env, TRUST_PROXY: "10.0.0.300" })).toThrow(/TRUST_PROXY/);
});
