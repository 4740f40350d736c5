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
