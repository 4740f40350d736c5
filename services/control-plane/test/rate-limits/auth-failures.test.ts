// Requests that fail authentication, limited per client address by default (60 a minute): an
// address guessing API keys is refused with 429 and Retry-After past them, its right key included,
// while the probes stay open; X-Forwarded-For is not believed without TRUST_PROXY.
import { startHarness, type Harness } from "../deployments/harness";

const DEFAULT_FAILURES = 60;
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

test("60 failed attempts a minute from one address, then 429s for it, the right key included", async () => {
  const statuses = await Promise.all(
    Array.from({ length: DEFAULT_FAILURES }, (_, i) =>
      h.raw.get("/v2/deployments").set("X-Api-Key", `guess-${i}`).set("X-Forwarded-For", `203.0.113.${i}`),
    ),
  ).then((answers) => answers.map((res) => res.status));
  expect(statuses).toEqual(Array(DEFAULT_FAILURES).fill(401));

  const refused = await h.raw.get("/v2/deployments").set("X-Api-Key", h.apiKey);
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers["retry-after"]);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(refused.headers["ratelimit-policy"]).toBe(`"auth_failures";q=${DEFAULT_FAILURES};w=60`);
  expect(refused.body.detail).toMatch(/^Too many requests that failed authentication from this address/);
  for (const path of ["/ok", "/ready", "/metrics", "/openapi.json"]) expect((await h.raw.get(path)).status).toBe(200);
});
