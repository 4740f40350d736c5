// GET /monitoring/runs: the console's monitoring figures, read from the runs table. Real runs (two
// succeed, one fails, one waits for later) and runs written with known timings give known numbers;
// a bad window is a 422; only the deployment's key reads them (no key or a wrong one: 401; an
// app's user under custom auth: 403).
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { AgentRuntime } from "@lgp/contracts";
import { runtimeKeyHash } from "@lgp/server-kit";
import { Client, startTestRuntime } from "../support/harness";

type RunMonitoring = AgentRuntime.components["schemas"]["RunMonitoring"];

const KEY = `lgp_rt_${randomUUID()}`;
// The custom auth fixture (users alice, bob, reader) beside the deployment key.
const FIXTURE = path.resolve(__dirname, "../auth/fixtures/langgraph.json");
let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({
    workers: 2,
    env: { LANGGRAPH_JSON: FIXTURE, API_KEY_HASHES: runtimeKeyHash(KEY), VALIDATE_RESPONSES: "true" },
  });
});
afterAll(() => rt?.close());

const client = () => new Client({ apiUrl: rt.url, apiKey: KEY, callerOptions: { maxRetries: 0 } });

async function monitoring(window?: string, headers: Record<string, string> = { "x-api-key": KEY }) {
  const response = await fetch(`${rt.url}/monitoring/runs${window ? `?window=${window}` : ""}`, { headers });
  return { status: response.status, body: (await response.json()) as RunMonitoring & { detail?: string } };
}

test("only the deployment's key reads the figures (and /metrics): no key or a wrong one is a 401, an app's user a 403", async () => {
  expect((await monitoring("1h", {})).status).toBe(401);
  expect((await monitoring("1h", { "x-api-key": "lgp_rt_not_the_key" })).status).toBe(401);
  const user = await monitoring("1h", { authorization: "Bearer alice" });
  expect(user).toEqual({ status: 403, body: { detail: expect.stringMatching(/deployment's API key/) } });
  expect((await monitoring("1h")).status).toBe(200);
  // /metrics tells of the whole deployment too: the same rule.
  const metrics = async (headers: Record<string, string>) => (await fetch(`${rt.url}/metrics`, { headers })).status;
  expect(await metrics({ authorization: "Bearer alice" })).toBe(403);
  expect(await metrics({ "x-api-key": KEY })).toBe(200);
});

test("a window other than 1h or 24h is a 422 naming the parameter", async () => {
  for (const window of ["7d", "1H", "30m"]) {
    const { status, body } = await monitoring(window);
    expect({ window, status }).toEqual({ window, status: 422 });
    expect(body.detail).toMatch(/^query\.window: /);
  }
});

test("real runs: counted by status in the window's last buckets, with the error rate and durations", async () => {
  const sdk = client();
  const thread = await sdk.threads.create();
  for (const content of ["one", "two"])
    await sdk.runs.wait(thread.thread_id, "agent", { input: { messages: [{ role: "user", content }] } });
  const failing = await sdk.runs.create(thread.thread_id, "agent", { input: { messages: 42 } });
  await sdk.runs.join(thread.thread_id, failing.run_id);
  expect((await sdk.runs.get(thread.thread_id, failing.run_id)).status).toBe("error");
  // Due in an hour: pending now, but not yet in the queue.
  const later = await sdk.threads.create();
  await sdk.runs.create(later.thread_id, "agent", { input: { messages: [] }, afterSeconds: 3600 });

  const { status, body } = await monitoring();
  expect(status).toBe(200);
  expect(body.window).toBe("1h");
  expect(body.bucket_seconds).toBe(60);
  expect(body.buckets).toHaveLength(60);
  expect(Date.parse(body.to) - Date.parse(body.from)).toBe(3_600_000);
  expect(body.buckets[0].start).toBe(body.from);
  expect(Date.parse(body.generated_at)).toBeLessThanOrEqual(Date.parse(body.to));
  expect(body.totals).toMatchObject({
    runs: 4,
    by_status: { success: 2, error: 1, pending: 1, running: 0, interrupted: 0, timeout: 0 },
    error_rate: 1 / 3,
  });
  expect(body.totals.duration_p50_seconds).toEqual(expect.any(Number));
  expect(body.totals.duration_p95_seconds!).toBeGreaterThanOrEqual(body.totals.duration_p50_seconds!);
  expect(body.totals.queue_wait_p95_seconds).toEqual(expect.any(Number));
  expect(body.current).toEqual({ pending: 1, running: 0 });
  // Made just now: in the current minute, or the one before if it turned meanwhile.
  const recent = body.buckets.slice(-2);
  expect(recent.reduce((sum, bucket) => sum + bucket.runs, 0)).toBe(4);
  expect(body.buckets.slice(0, -2).every((bucket) => bucket.runs === 0 && bucket.error_rate === null)).toBe(true);
  // The run due later is not in the queue yet; the others left it.
  expect(body.buckets.every((bucket) => bucket.queue_depth === 0)).toBe(true);
});

test("runs with known timings: percentiles, error rate and queue depth of their bucket, and the 24h window", async () => {
  const thread = await client().threads.create();
  // Five runs created together 20 minutes ago (10 s into their minute): waits of 0, 10, 20, 30 and
  // 300 s, then durations of 2, 4, 6, 8 and 1 s; two of them failed. One more, three hours ago.
  const [{ minute }] = await rt.runtime.db.$queryRaw<{ minute: Date }[]>`
    SELECT date_trunc('minute', now()) - interval '20 minutes' AS minute`;
  const created = new Date(minute.getTime() + 10_000);
  const known: [string, number, number][] = [
    ["success", 0, 2],
    ["success", 10, 4],
    ["error", 20, 6],
    ["timeout", 30, 8],
    ["success", 300, 1],
  ];
  const insert = (status: string, at: Date, wait: number, duration: number) => rt.runtime.db.$executeRaw`
    INSERT INTO runs (run_id, thread_id, assistant_id, status, created_at, started_at, updated_at)
    VALUES (${randomUUID()}::uuid, ${thread.thread_id}::uuid, ${randomUUID()}::uuid, ${status}, ${at}::timestamptz,
      ${new Date(at.getTime() + wait * 1000)}::timestamptz, ${new Date(at.getTime() + (wait + duration) * 1000)}::timestamptz)`;
  for (const [status, wait, duration] of known) await insert(status, created, wait, duration);
  await insert("success", new Date(created.getTime() - 3 * 3_600_000), 0, 1);

  const hour = (await monitoring("1h")).body;
  const bucket = hour.buckets.find((candidate) => candidate.start === minute.toISOString())!;
  expect(bucket).toEqual({
    start: minute.toISOString(),
    runs: 5,
    by_status: { pending: 0, running: 0, success: 3, error: 1, interrupted: 0, timeout: 1 },
    error_rate: 0.4,
    // percentile_cont: the median of 1, 2, 4, 6, 8 is 4; the 95th lies 80% of the way from 6 to 8.
    duration_p50_seconds: 4,
    duration_p95_seconds: 7.6,
    queue_wait_p50_seconds: 20,
    queue_wait_p95_seconds: 246,
    queue_depth: 1,
  });
  // The run that waited 300 s was in the queue at the end of its minute and the four after it.
  const index = hour.buckets.indexOf(bucket);
  expect(hour.buckets.slice(index, index + 6).map((each) => each.queue_depth)).toEqual([1, 1, 1, 1, 1, 0]);
  expect(hour.buckets.filter((each) => each.queue_depth > 0)).toHaveLength(5);
  expect(hour.totals.runs).toBe(4 + 5);

  const day = (await monitoring("24h")).body;
  expect(day.bucket_seconds).toBe(900);
  expect(day.buckets).toHaveLength(96);
  expect(day.totals.runs).toBe(4 + 5 + 1);
  expect(day.totals.by_status.success).toBe(2 + 3 + 1);
  // The three-hour-old run, alone in its quarter of an hour.
  const quarter = Math.floor((created.getTime() - 3 * 3_600_000) / 900_000) * 900_000;
  expect(day.buckets.find((each) => each.start === new Date(quarter).toISOString())).toMatchObject({
    runs: 1,
    duration_p50_seconds: 1,
    queue_wait_p50_seconds: 0,
    error_rate: 0,
  });
});
