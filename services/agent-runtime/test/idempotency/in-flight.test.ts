// A repeat that arrives while its first request is still working: it does not start a second
// run. A background create's repeat waits for the first answer (held here by a lock on the runs
// table, so the first is provably still in flight); a wait's repeat waits for the same run; a
// stream's repeat streams the same run from its first event, during the run and after it.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { Client, collect, startTestRuntime } from "../support/harness";

const WAIT_MS = 3_000;
let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let db: pg.Client;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: 2, env: { IDEMPOTENCY_WAIT_MS: String(WAIT_MS) } });
  db = new pg.Client({ connectionString: rt.database.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await rt?.close();
});

const say = (content: string) => ({ messages: [{ role: "human", content }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The official client with one Idempotency-Key on every request it sends. */
const keyed = (key: string) =>
  new Client({ apiUrl: rt.url, defaultHeaders: { "Idempotency-Key": key }, callerOptions: { maxRetries: 0 } });

async function runsTagged(tag: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM runs WHERE metadata->>'tag' = $1", [
    tag,
  ]);
  return rows[0]!.n;
}

/** Runs of the `steps` graph created so far, as /metrics counts them (a stateless run's row goes with its thread). */
async function stepsRunsCreated(): Promise<number> {
  const text = await (await fetch(`${rt.url}/metrics`)).text();
  return Number(/^lgp_runs_created_total\{[^}]*graph_id="steps"[^}]*\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

async function keyState(key: string): Promise<string | undefined> {
  const { rows } = await db.query<{ state: string }>("SELECT state FROM idempotency_keys WHERE key = $1", [key]);
  return rows[0]?.state;
}

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

/** Holds the runs table against writes until `release` (a run's creation waits meanwhile). */
async function lockRuns(): Promise<{ release(): Promise<void>; client: pg.Client }> {
  const client = new pg.Client({ connectionString: rt.database.url });
  await client.connect();
  await client.query("BEGIN");
  await client.query("LOCK TABLE runs IN EXCLUSIVE MODE");
  return {
    client,
    async release() {
      await client.query("COMMIT");
      await client.end();
    },
  };
}

function post(path: string, body: unknown, key: string) {
  return fetch(`${rt.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(body),
  }).then(async (response) => ({
    status: response.status,
    body: await response.text(),
    retryAfter: response.headers.get("retry-after"),
  }));
}

test("a repeat of a create still in flight waits for it, and both get the one run's answer", async () => {
  const thread = await rt.client.threads.create();
  const tag = randomUUID();
  const key = randomUUID();
  const body = { assistant_id: "agent", input: say("hi"), metadata: { tag } };
  const lock = await lockRuns();
  let settled = 0;
  const first = post(`/threads/${thread.thread_id}/runs`, body, key).finally(() => (settled += 1));
  await until(async () => (await keyState(key)) === "pending");
  const repeat = post(`/threads/${thread.thread_id}/runs`, body, key).finally(() => (settled += 1));
  await sleep(500);
  // Neither has answered: the first cannot store its run, the repeat waits for the first.
  expect(settled).toBe(0);
  await lock.release();
  const [a, b] = await Promise.all([first, repeat]);
  expect(a.status).toBe(200);
  expect(b).toEqual(a);
  expect(await runsTagged(tag)).toBe(1);
});

test("past IDEMPOTENCY_WAIT_MS the repeat is a 409 with Retry-After; retried later it gets the first answer", async () => {
  const thread = await rt.client.threads.create();
  const tag = randomUUID();
  const key = randomUUID();
  const body = { assistant_id: "agent", input: say("hi"), metadata: { tag } };
  const lock = await lockRuns();
  const first = post(`/threads/${thread.thread_id}/runs`, body, key);
  await until(async () => (await keyState(key)) === "pending");
  const started = Date.now();
  const repeat = await post(`/threads/${thread.thread_id}/runs`, body, key);
  expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 50);
  expect([repeat.status, repeat.retryAfter]).toEqual([409, "1"]);
  expect(JSON.parse(repeat.body).detail).toMatch(/Idempotency-Key is still in progress/);
  await lock.release();
  const answer = await first;
  expect(await post(`/threads/${thread.thread_id}/runs`, body, key)).toEqual({ ...answer, retryAfter: null });
  expect(await runsTagged(tag)).toBe(1);
});

describe.each([
  ["on a thread", true],
  ["stateless", false],
])("runs %s", (_kind, onThread) => {
  const slow = (tag: string) => ({ input: {}, context: { delay_ms: 300 }, metadata: { tag } });
  const modes = ["custom" as const, "values" as const];

  // The official client's calls, on the thread or stateless (their two overloads).
  const wait = (key: string, threadId: string | null, tag: string) =>
    threadId === null
      ? keyed(key).runs.wait(null, "steps", slow(tag))
      : keyed(key).runs.wait(threadId, "steps", slow(tag));
  const stream = (key: string, threadId: string | null, tag: string) =>
    threadId === null
      ? keyed(key).runs.stream(null, "steps", { ...slow(tag), streamMode: modes })
      : keyed(key).runs.stream(threadId, "steps", { ...slow(tag), streamMode: modes });

  test("a wait repeated while its run goes on waits for that same run", async () => {
    const threadId = onThread ? (await rt.client.threads.create()).thread_id : null;
    const tag = randomUUID();
    const key = randomUUID();
    const created = await stepsRunsCreated();
    const first = wait(key, threadId, tag);
    // The run exists and the first request is waiting for it.
    await until(async () => (await keyState(key)) === "started");
    const repeat = await wait(key, threadId, tag);
    expect(repeat).toEqual({ count: 3, visited: ["one", "two", "three"] });
    expect(await first).toEqual(repeat);
    // Once answered, the repeat is the stored answer.
    expect(await wait(key, threadId, tag)).toEqual(repeat);
    expect(await stepsRunsCreated()).toBe(created + 1);
  });

  test("a stream repeated while its run goes on streams that same run from its first event", async () => {
    const threadId = onThread ? (await rt.client.threads.create()).thread_id : null;
    const tag = randomUUID();
    const key = randomUUID();
    const created = await stepsRunsCreated();
    const firstEvents: { event: string; data: unknown }[] = [];
    const first = (async () => {
      for await (const chunk of stream(key, threadId, tag)) firstEvents.push(chunk);
    })();
    await until(async () => firstEvents.some((chunk) => chunk.event === "custom"));
    const repeated = await collect(stream(key, threadId, tag));
    await first;
    expect(repeated).toEqual(firstEvents);
    expect(repeated[0]).toMatchObject({ event: "metadata" });
    expect(repeated.filter((chunk) => chunk.event === "custom")).toHaveLength(3);
    // After the run: the same events again, from the run's log (no new run).
    expect(await collect(stream(key, threadId, tag))).toEqual(firstEvents);
    expect(await stepsRunsCreated()).toBe(created + 1);
  });
});

test("a stateless stream repeated after its run ended and its thread went streams the run's events again", async () => {
  const key = randomUUID();
  const payload = { input: {}, context: { delay_ms: 0 }, streamMode: ["custom" as const] };
  const first = await collect(keyed(key).runs.stream(null, "steps", payload));
  const runId = (first[0]!.data as { run_id: string }).run_id;
  await until(async () => (await db.query("SELECT 1 FROM runs WHERE run_id = $1", [runId])).rowCount === 0);
  expect(await collect(keyed(key).runs.stream(null, "steps", payload))).toEqual(first);
});
