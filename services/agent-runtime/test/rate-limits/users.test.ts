// Rate limits per custom-auth user: the identity the `authenticate` handler returns has its own
// budget (one user's flood leaves another user, and the deployment key standing for the studio
// user, their whole budgets); credentials authenticate refuses are 401s, never counted.
import path from "node:path";
import { randomUUID } from "node:crypto";
import { runtimeKeyHash } from "@lgp/server-kit";
import { Client, startTestRuntime } from "../support/harness";

/** The custom auth tests' handler: `Authorization: Bearer alice` (or bob) is that user. */
const FIXTURE = path.resolve(__dirname, "../auth/fixtures/langgraph.json");
const DEPLOYMENT_KEY = `lgp_rt_${randomUUID()}`;
const BUDGET = 10;
let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({
    workers: 1,
    env: {
      LANGGRAPH_JSON: FIXTURE,
      API_KEY_HASHES: runtimeKeyHash(DEPLOYMENT_KEY),
      RATE_LIMIT_REQUESTS_PER_MINUTE: String(BUDGET),
    },
  });
});
afterAll(async () => {
  await rt?.close();
});

const as = (headers: Record<string, string>) =>
  new Client({ apiUrl: rt.url, defaultHeaders: headers, callerOptions: { maxRetries: 0 } });
const statusOf = (call: Promise<unknown>) =>
  call.then(
    () => 200,
    (error: { status?: number }) => error.status,
  );

test("one user's flood is refused with 429; another user and the deployment key are unaffected", async () => {
  const alice = as({ Authorization: "Bearer alice" });
  const statuses = await Promise.all(Array.from({ length: BUDGET + 4 }, () => statusOf(alice.threads.search())));
  expect(statuses.filter((status) => status === 200)).toHaveLength(BUDGET);
  expect(statuses.filter((status) => status === 429)).toHaveLength(4);

  const refused = await fetch(`${rt.url}/threads/search`, {
    method: "POST",
    headers: { authorization: "Bearer alice", "content-type": "application/json" },
    body: "{}",
  });
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(refused.headers.get("ratelimit")).toMatch(/^"requests";r=0;t=\d+$/);
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/ per minute for this user; retry in \d+ s$/);

  const bob = as({ Authorization: "Bearer bob" });
  for (let i = 0; i < BUDGET; i++) expect(await statusOf(bob.threads.search())).toBe(200);
  expect(await statusOf(bob.threads.search())).toBe(429);

  const studio = as({ "x-api-key": DEPLOYMENT_KEY });
  expect(await statusOf(studio.threads.search())).toBe(200);
});

test("credentials authenticate refuses are 401s, not counted against anyone", async () => {
  for (let i = 0; i < BUDGET + 2; i++) {
    const res = await fetch(`${rt.url}/threads/search`, {
      method: "POST",
      headers: { authorization: "Bearer mallory", "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("ratelimit")).toBeNull();
  }
});
