// The total of an unfiltered thread search or count (a console's list of every thread) is kept by
// triggers in row_counts, so it costs 16 rows at any size; these prove it stays exact however
// threads come and go: one at a time, many at once, by delete, by prune, and by a run that makes
// its thread.
import pg from "pg";
import { startTestRuntime, type RunningRuntime } from "../support/harness";
import type { TestDatabase } from "@lgp/server-kit/src/testing";

let runtime: RunningRuntime & { database: TestDatabase };
let sql: pg.Client;

beforeAll(async () => {
  runtime = await startTestRuntime({});
  sql = new pg.Client({ connectionString: runtime.database.url });
  await sql.connect();
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await runtime?.close();
});

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${runtime.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return response;
};
const searchTotal = async (body: unknown = {}) =>
  Number((await post("/threads/search", body)).headers.get("x-pagination-total"));
const count = async (body: unknown = {}) => (await (await post("/threads/count", body)).json()) as number;
const kept = async () =>
  Number((await sql.query("SELECT sum(count) AS n FROM row_counts WHERE relation = 'threads'")).rows[0].n);
const actual = async () => Number((await sql.query("SELECT count(*) AS n FROM threads")).rows[0].n);

test("an unfiltered total is the kept count, exact as threads are made and removed every way", async () => {
  expect(await searchTotal()).toBe(0);

  const made = await Promise.all(
    Array.from({ length: 40 }, async (_, index) => {
      const response = await post("/threads", { metadata: { batch: index % 2 ? "odd" : "even" } });
      return ((await response.json()) as { thread_id: string }).thread_id;
    }),
  );
  expect(await kept()).toBe(40);
  expect(await searchTotal({ limit: 5 })).toBe(40);
  expect(await count()).toBe(40);
  // A filtered total is still counted from the rows.
  expect(await searchTotal({ metadata: { batch: "odd" } })).toBe(20);

  // A run on a thread that does not exist yet makes it (if_not_exists: create).
  await post(`/threads/${crypto.randomUUID()}/runs/wait`, {
    assistant_id: "agent",
    input: { messages: [{ role: "user", content: "hi" }] },
    if_not_exists: "create",
  });
  expect(await count()).toBe(41);

  const deleted = await fetch(`${runtime.url}/threads/${made[0]}`, { method: "DELETE" });
  expect(deleted.status).toBeLessThan(300);
  await post("/threads/prune", { thread_ids: made.slice(1, 11), strategy: "delete" });
  expect(await actual()).toBe(30);
  expect(await kept()).toBe(30);
  expect(await searchTotal()).toBe(30);
  expect(await count()).toBe(30);

  // Many at once in one statement (as a sweep deletes): one shard moves by all of them.
  await sql.query('DELETE FROM threads WHERE metadata @> \'{"batch": "even"}\'');
  expect(await count()).toBe(await actual());
  await sql.query("TRUNCATE threads CASCADE");
  expect(await count()).toBe(0);
});

test("so is an unfiltered assistant search's total: the graphs' own assistants, then made and deleted", async () => {
  const keptAssistants = async () =>
    Number((await sql.query("SELECT sum(count) AS n FROM row_counts WHERE relation = 'assistants'")).rows[0].n);
  const assistantsTotal = async () =>
    Number((await post("/assistants/search", { limit: 1 })).headers.get("x-pagination-total"));
  const existing = Number((await sql.query("SELECT count(*) AS n FROM assistants")).rows[0].n);
  expect(existing).toBeGreaterThan(0);
  expect(await keptAssistants()).toBe(existing);
  const made = await Promise.all(
    [1, 2, 3].map(
      async () =>
        ((await (await post("/assistants", { graph_id: "agent" })).json()) as { assistant_id: string }).assistant_id,
    ),
  );
  expect(await assistantsTotal()).toBe(existing + 3);
  expect(await (await post("/assistants/count", {})).json()).toBe(existing + 3);
  await fetch(`${runtime.url}/assistants/${made[0]}`, { method: "DELETE" });
  expect(await keptAssistants()).toBe(existing + 2);
  expect(await assistantsTotal()).toBe(existing + 2);
});

// Per status, as runs move threads between statuses: error and interrupted (and any other status)
// kept beside the total (threads:status:<s>); busy counted by the status index and idle derived
// (the kept total less those), since every run moves its thread between them.
const STATUSES = ["busy", "error", "idle", "interrupted"] as const;
const KEPT = ["error", "interrupted"] as const;
const keptByStatus = async () => {
  const { rows } = await sql.query<{ relation: string; n: string }>(
    "SELECT relation, sum(count) AS n FROM row_counts WHERE relation LIKE 'threads:status:%' GROUP BY relation",
  );
  expect(rows.map((row) => row.relation).filter((relation) => /:(idle|busy)$/.test(relation))).toEqual([]);
  return Object.fromEntries(
    KEPT.map((status) => [status, Number(rows.find((row) => row.relation === `threads:status:${status}`)?.n ?? 0)]),
  );
};
const actualByStatus = async () => {
  const { rows } = await sql.query<{ status: string; n: string }>(
    "SELECT status, count(*) AS n FROM threads GROUP BY status",
  );
  return Object.fromEntries(
    STATUSES.map((status) => [status, Number(rows.find((row) => row.status === status)?.n ?? 0)]),
  );
};
/** The kept statuses' counters agree with the rows, and so does every status's count over HTTP. */
const expectExact = async () => {
  const actualNow = await actualByStatus();
  expect(await keptByStatus()).toEqual({ error: actualNow.error, interrupted: actualNow.interrupted });
  for (const status of STATUSES)
    expect({ status, count: await count({ status }) }).toEqual({ status, count: actualNow[status] });
};
const say = (content: string) => ({ messages: [{ role: "user", content }] });

test("a count by status alone is kept too, exact through runs, deletes and concurrent changes", async () => {
  await sql.query("TRUNCATE threads CASCADE");
  expect(await keptByStatus()).toEqual({ error: 0, interrupted: 0 });
  const made = await Promise.all(
    Array.from({ length: 12 }, async (_, index) => {
      const response = await post("/threads", { metadata: { batch: index % 3 ? "rest" : "third" } });
      return ((await response.json()) as { thread_id: string }).thread_id;
    }),
  );
  expect(await keptByStatus()).toEqual({ error: 0, interrupted: 0 });
  expect(await count({ status: "idle" })).toBe(12);

  // A run interrupts one thread, fails on another, finishes on a third (idle again); a run due in
  // a minute keeps a fourth busy until it is cancelled.
  await post(`/threads/${made[0]}/runs/wait`, { assistant_id: "approval", input: say("ship it") });
  await post(`/threads/${made[1]}/runs/wait`, {
    assistant_id: "agent",
    input: { messages: [{ role: "robot", content: "beep" }] },
  });
  await post(`/threads/${made[2]}/runs/wait`, { assistant_id: "agent", input: say("hi") });
  const delayed = (await (
    await post(`/threads/${made[3]}/runs`, { assistant_id: "agent", input: say("later"), after_seconds: 60 })
  ).json()) as { run_id: string };
  expect(await actualByStatus()).toEqual({ busy: 1, error: 1, idle: 9, interrupted: 1 });
  await expectExact();
  for (const status of STATUSES) {
    expect({ status, count: await count({ status }) }).toEqual({ status, count: (await actualByStatus())[status] });
    expect({ status, total: await searchTotal({ status, limit: 1 }) }).toEqual({
      status,
      total: (await actualByStatus())[status],
    });
  }
  // The interrupted thread resumed (idle), the delayed run cancelled (its thread idle again).
  await post(`/threads/${made[0]}/runs/wait`, { assistant_id: "approval", command: { resume: { approved: true } } });
  await post(`/threads/${made[3]}/runs/${delayed.run_id}/cancel?wait=true`, {});
  expect(await actualByStatus()).toMatchObject({ busy: 0, interrupted: 0, error: 1 });
  await expectExact();

  // The count is read from the kept rows, not counted: a kept row moved by hand shows through it
  // (the error count's; the idle count's through the kept total), and not through a count that
  // another filter narrows (counted from the threads).
  await sql.query("UPDATE row_counts SET count = count + 1000 WHERE relation = 'threads:status:error' AND shard = 0");
  await sql.query("UPDATE row_counts SET count = count + 500 WHERE relation = 'threads' AND shard = 0");
  try {
    expect(await count({ status: "error" })).toBe(1001);
    expect(await searchTotal({ status: "error" })).toBe(1001);
    // The total's 500 more, less the error count's 1000 more.
    expect(await count({ status: "idle" })).toBe(11 + 500 - 1000);
    expect(await searchTotal({ status: "idle" })).toBe(11 + 500 - 1000);
    expect(await count({ status: "idle", metadata: { batch: "third" } })).toBe(4);
    expect(await count({ status: "idle", values: { steps: ["propose", "review", "publish"] } })).toBe(1);
    expect(await count({ status: "idle", ids: made.slice(0, 2) })).toBe(1);
  } finally {
    await sql.query("UPDATE row_counts SET count = count - 1000 WHERE relation = 'threads:status:error' AND shard = 0");
    await sql.query("UPDATE row_counts SET count = count - 500 WHERE relation = 'threads' AND shard = 0");
  }
  expect(await count({ status: "idle" })).toBe(11);

  // Concurrent transactions on 6 connections, each changing one thread's status in one statement
  // (as the runtime's writes do) and its metadata in another, some rolled back, while threads are
  // made and deleted beside them: a thread's changes queue on its row lock, each re-reading the
  // status the one before it committed (or left, rolling back).
  const clients = await Promise.all(
    Array.from({ length: 6 }, async () => {
      const client = new pg.Client({ connectionString: runtime.database.url });
      await client.connect();
      return client;
    }),
  );
  try {
    const [first, second] = clients;
    // Deterministic interleavings on one row: the second waits for the first, then counts from
    // what the first committed, or from what was there before the first rolled back.
    for (const ending of ["COMMIT", "ROLLBACK"]) {
      await first.query("BEGIN");
      await first.query("UPDATE threads SET status = 'busy' WHERE thread_id = $1", [made[4]]);
      const waiting = second.query(
        "UPDATE threads SET status = CASE WHEN status = 'busy' THEN 'interrupted' ELSE 'error' END WHERE thread_id = $1",
        [made[4]],
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      await first.query(ending);
      await waiting;
      await expectExact();
    }
    await Promise.all([
      ...clients.map(async (client, index) => {
        for (let round = 0; round < 20; round++) {
          const threadId = made[(index * 5 + round) % made.length];
          await client.query("BEGIN");
          await client.query("UPDATE threads SET status = $1 WHERE thread_id = $2", [
            STATUSES[(index + round) % STATUSES.length],
            threadId,
          ]);
          await client.query("UPDATE threads SET metadata = metadata || $1 WHERE thread_id = $2", [
            JSON.stringify({ round }),
            threadId,
          ]);
          await client.query(round % 4 === 3 ? "ROLLBACK" : "COMMIT");
        }
      }),
      ...Array.from({ length: 8 }, () => post("/threads", {})),
      fetch(`${runtime.url}/threads/${made[11]}`, { method: "DELETE" }),
    ]);
    await expectExact();
    // Unchanged statuses and other columns move nothing.
    await sql.query("UPDATE threads SET metadata = metadata || '{\"touched\": true}', status = status");
    await expectExact();
    // Many rows in one statement: a bulk status change, a bulk delete, a TRUNCATE.
    await sql.query("UPDATE threads SET status = 'error' WHERE metadata @> '{\"batch\": \"rest\"}'");
    await expectExact();
    await sql.query("DELETE FROM threads WHERE status = 'error' AND metadata @> '{\"batch\": \"rest\"}'");
    await fetch(`${runtime.url}/threads/${made[0]}`, { method: "DELETE" });
    await expectExact();
    await sql.query("TRUNCATE threads CASCADE");
    expect(await keptByStatus()).toEqual({ error: 0, interrupted: 0 });
    for (const status of STATUSES) expect(await count({ status })).toBe(0);
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}, 60_000);

test("a run that leaves its thread idle writes no counter: the status counts cost the run path nothing", async () => {
  const threadId = ((await (await post("/threads", {})).json()) as { thread_id: string }).thread_id;
  // Each row version's transaction id: any counter written since shows as a new one.
  const versions = async () =>
    (await sql.query("SELECT relation, shard, count, xmin::text AS version FROM row_counts ORDER BY 1, 2")).rows;
  const before = await versions();
  for (const content of ["one", "two", "three"])
    await post(`/threads/${threadId}/runs/wait`, { assistant_id: "agent", input: say(content) });
  expect(await versions()).toEqual(before);
  expect(await count({ status: "idle" })).toBe((await actualByStatus()).idle);

  // Entering a kept status still counts (an interrupt), and leaving it (resumed, idle again).
  await post(`/threads/${threadId}/runs/wait`, { assistant_id: "approval", input: say("ship it") });
  expect(await count({ status: "interrupted" })).toBe(1);
  await post(`/threads/${threadId}/runs/wait`, { assistant_id: "approval", command: { resume: { approved: true } } });
  await expectExact();
});
