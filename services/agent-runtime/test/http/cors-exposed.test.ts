// What a page of another origin can read of the rate limits and idempotent repeats, over real HTTP
// as a browser sends it: the preflight lets the Idempotency-Key through, and the answers expose
// Retry-After, RateLimit, RateLimit-Policy and Idempotent-Replayed (a browser withholds every
// header not in Access-Control-Expose-Headers from the page), on a 429 too.
import { randomUUID } from "node:crypto";
import { runtimeKeyHash } from "@lgp/server-kit";
import { startTestRuntime } from "../support/harness";

const ORIGIN = "http://localhost:5173";
const KEY = `lgp_rt_${randomUUID()}`;
const BUDGET = 4;
let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({
    workers: 1,
    env: { API_KEY_HASHES: runtimeKeyHash(KEY), RATE_LIMIT_REQUESTS_PER_MINUTE: String(BUDGET) },
  });
});
afterAll(async () => {
  await rt?.close();
});

/** The headers a page may read: the ones listed in Access-Control-Expose-Headers. */
const exposed = (response: Response) =>
  (response.headers.get("access-control-expose-headers") ?? "").split(",").map((name) => name.trim().toLowerCase());

test("a page reads the RateLimit fields, Idempotent-Replayed and a 429's Retry-After", async () => {
  const preflight = await fetch(`${rt.url}/threads`, {
    method: "OPTIONS",
    headers: {
      Origin: ORIGIN,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type,idempotency-key,x-api-key",
    },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get("access-control-allow-headers")).toContain("idempotency-key");

  const create = () =>
    fetch(`${rt.url}/threads`, {
      method: "POST",
      headers: { Origin: ORIGIN, "content-type": "application/json", "x-api-key": KEY, "Idempotency-Key": "k1" },
      body: "{}",
    });
  const first = await create();
  const repeat = await create();
  expect([first.status, repeat.status]).toEqual([200, 200]);
  expect(await repeat.json()).toEqual(await first.json());
  expect(repeat.headers.get("idempotent-replayed")).toBe("true");
  expect(repeat.headers.get("ratelimit")).toMatch(/^"requests";r=\d+;t=\d+$/);
  expect(exposed(repeat)).toEqual(expect.arrayContaining(["idempotent-replayed", "ratelimit", "ratelimit-policy"]));

  let refused: Response | undefined;
  for (let i = 0; i < BUDGET && !refused; i++) {
    const response = await create();
    await response.arrayBuffer();
    if (response.status === 429) refused = response;
  }
  expect(refused?.headers.get("access-control-allow-origin")).toBe("*");
  expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(exposed(refused!)).toEqual(expect.arrayContaining(["retry-after", "ratelimit", "ratelimit-policy"]));
});
