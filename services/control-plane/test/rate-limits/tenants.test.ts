// Per-tenant rate limits, counted in memory (no REDIS_URL): a tenant over its budget gets 429s with
// Retry-After and the IETF RateLimit fields, whichever of its keys it uses; another tenant is served
// as before; requests that may start a build have a budget of their own; probes, /metrics, the docs
// and the console are never limited.
import { createTenantKey } from "../../src/tenants/api-keys";
import { dockerBody, startHarness, type Harness } from "../deployments/harness";

const BUDGET = 12;
const DEPLOYS = 3;

let h: Harness;
let secondKeyOfA: string;
let keyOfB: string;
beforeAll(async () => {
  h = await startHarness({
    env: { RATE_LIMIT_REQUESTS_PER_MINUTE: String(BUDGET), RATE_LIMIT_DEPLOYS_PER_MINUTE: String(DEPLOYS) },
  });
  secondKeyOfA = (await createTenantKey(h.db, "tenant-a", "second")).apiKey;
  keyOfB = (await createTenantKey(h.db, "tenant-b")).apiKey;
});
afterAll(async () => {
  await h.close();
});

const list = (key: string) => h.raw.get("/v2/deployments").set("X-Api-Key", key);

test("a flood from one tenant is refused with 429, Retry-After and RateLimit fields; another tenant is unaffected", async () => {
  // Both of tenant A's keys draw on one budget.
  const answers = await Promise.all(
    Array.from({ length: BUDGET + 6 }, (_, i) => list(i % 2 ? h.apiKey : secondKeyOfA)),
  );
  const served = answers.filter((res) => res.status === 200);
  const refused = answers.filter((res) => res.status === 429);
  expect(served).toHaveLength(BUDGET);
  expect(refused).toHaveLength(6);

  for (const res of served) {
    expect(res.headers["ratelimit-policy"]).toBe(`"requests";q=${BUDGET};w=60`);
    expect(res.headers["ratelimit"]).toMatch(/^"requests";r=\d+;t=\d+$/);
  }
  const remaining = served.map((res) => Number(/r=(\d+)/.exec(res.headers["ratelimit"])![1])).sort((a, b) => a - b);
  expect(remaining).toEqual(Array.from({ length: BUDGET }, (_, i) => i));

  const refusal = refused[0];
  const retryAfter = Number(refusal.headers["retry-after"]);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(refusal.headers["ratelimit-policy"]).toBe(`"requests";q=${BUDGET};w=60`);
  expect(refusal.headers["ratelimit"]).toBe(`"requests";r=0;t=${retryAfter}`);
  expect(refusal.body).toEqual({
    detail: `Rate limit exceeded: at most ${BUDGET} requests per minute for this tenant; retry in ${retryAfter} s`,
  });

  // Tenant B has its whole budget.
  const other = await list(keyOfB);
  expect(other.status).toBe(200);
  expect(other.headers["ratelimit"]).toMatch(new RegExp(`^"requests";r=${BUDGET - 1};t=\\d+$`));
});

test("probes, /metrics, the docs and the console are never limited, and /metrics counts the 429s", async () => {
  // Tenant A is over its budget (the test above); its key on these paths changes nothing.
  expect((await list(h.apiKey)).status).toBe(429);
  for (const path of ["/ok", "/ready", "/metrics", "/openapi.json", "/docs/", "/console/"]) {
    for (let i = 0; i < BUDGET + 2; i++) {
      const res = await h.raw.get(path).set("X-Api-Key", h.apiKey);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers["ratelimit"]).toBeUndefined();
    }
  }
  const metrics = (await h.raw.get("/metrics")).text;
  expect(metrics).toMatch(/^http_rate_limited_total\{policy="requests",service="control-plane"\} 7$/m);
  expect(metrics).toMatch(/^http_rate_limit_unchecked_total\{service="control-plane"\} 0$/m);
});

test("creates, patches and redeploys have a budget of their own, apart from the other requests", async () => {
  // A fresh tenant: C.
  const { apiKey } = await createTenantKey(h.db, "tenant-c");
  const as = (res: import("supertest").Test) => res.set("X-Api-Key", apiKey);
  const first = await as(h.raw.post("/v2/deployments")).send(dockerBody("limited-1"));
  expect(first.status).toBe(201);
  expect(first.headers["ratelimit-policy"]).toBe(`"deploys";q=${DEPLOYS};w=60`);
  expect(first.headers["ratelimit"]).toMatch(new RegExp(`^"deploys";r=${DEPLOYS - 1};t=\\d+$`));
  const patched = await as(h.raw.patch(`/v2/deployments/${first.body.id}`)).send({
    source_config: { custom_url: "http://127.0.0.1:9/other" },
  });
  expect(patched.status).toBe(200);
  const revision = `/v2/deployments/${first.body.id}/revisions/${first.body.latest_revision_id}`;
  expect((await as(h.raw.post(`${revision}/redeploy`))).status).not.toBe(429);

  const refused = await as(h.raw.post("/v2/deployments")).send(dockerBody("limited-2"));
  expect(refused.status).toBe(429);
  expect(refused.body.detail).toMatch(
    new RegExp(`^Rate limit exceeded: at most ${DEPLOYS} deploys per minute for this tenant; retry in \\d+ s$`),
  );
  expect(refused.headers["ratelimit-policy"]).toBe(`"deploys";q=${DEPLOYS};w=60`);
  // Nothing was created, and the tenant's reads still pass.
  const listed = await as(h.raw.get("/v2/deployments"));
  expect(listed.status).toBe(200);
  expect(listed.body.resources.map((d: { name: string }) => d.name)).toEqual(["limited-1"]);
  expect(listed.headers["ratelimit"]).toMatch(new RegExp(`^"requests";r=${BUDGET - 1};t=\\d+$`));
});

test("requests without a tenant (a missing or wrong key) are refused by authentication, not counted", async () => {
  for (let i = 0; i < BUDGET + 2; i++) {
    const res = await h.raw.get("/v2/deployments").set("X-Api-Key", "not-a-key-of-anyone");
    expect(res.status).toBe(401);
    expect(res.headers["ratelimit"]).toBeUndefined();
  }
});
