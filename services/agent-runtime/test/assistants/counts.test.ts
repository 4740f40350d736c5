// How many assistants each graph has is kept by triggers in row_counts (migration
// assistant_graph_counts), so a count or a search's total filtered by graph_id alone costs 16 rows
// at any size; these prove it stays exact however assistants come, change graph and go, and that
// only a graph-only count reads it.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrate, readMigrations } from "@lgp/server-kit";
import { createEmptyDatabase, REPO_ROOT, type TestDatabase } from "@lgp/server-kit/src/testing";
import { startTestRuntime, type RunningRuntime } from "../support/harness";

const MIGRATIONS = path.join(REPO_ROOT, "prisma/agent-runtime/migrations");
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
const patch = async (assistantId: string, body: unknown) => {
  const response = await fetch(`${runtime.url}/assistants/${assistantId}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
};
const create = async (body: Record<string, unknown>) =>
  ((await (await post("/assistants", body)).json()) as { assistant_id: string }).assistant_id;
const count = async (body: unknown) => (await (await post("/assistants/count", body)).json()) as number;
const searchTotal = async (body: unknown) =>
  Number((await post("/assistants/search", body)).headers.get("x-pagination-total"));

/** Kept and counted assistants per graph row name (graphs with none left out). */
const keptByGraph = async (client: pg.Client = sql) => {
  const { rows } = await client.query<{ relation: string; n: string }>(
    `SELECT relation, sum(count) AS n FROM row_counts
     WHERE relation LIKE 'assistants:graph:%' OR relation LIKE 'assistants:graph#%' GROUP BY relation`,
  );
  return Object.fromEntries(rows.filter((row) => Number(row.n) !== 0).map((row) => [row.relation, Number(row.n)]));
};
const actualByGraph = async (client: pg.Client = sql) => {
  const { rows } = await client.query<{ relation: string; n: string }>(
    "SELECT assistants_graph_relation(graph_id) AS relation, count(*) AS n FROM assistants GROUP BY 1",
  );
  return Object.fromEntries(rows.map((row) => [row.relation, Number(row.n)]));
};

test("a count by graph alone is kept: the graphs' own assistants, creates, graph changes, deletes, TRUNCATE", async () => {
  // The default assistant of each graph, made at start-up.
  expect(await keptByGraph()).toEqual({
    "assistants:graph:agent": 1,
    "assistants:graph:approval": 1,
    "assistants:graph:steps": 1,
    "assistants:graph:tools": 1,
  });
  const made = await Promise.all(
    Array.from({ length: 12 }, (_, index) =>
      create({ graph_id: index % 3 ? "agent" : "steps", name: `a${index}`, metadata: { batch: index % 2 } }),
    ),
  );
  // Made again, kept as it is: not counted twice.
  await post("/assistants", { graph_id: "agent", assistant_id: made[1], if_exists: "do_nothing" });
  expect(await keptByGraph()).toMatchObject({ "assistants:graph:agent": 9, "assistants:graph:steps": 5 });
  expect(await keptByGraph()).toEqual(await actualByGraph());

  // An update naming another graph moves it; one leaving the graph as it is moves nothing; making
  // version 1 the latest again moves it back.
  await patch(made[1], { graph_id: "tools" });
  await patch(made[2], { name: "renamed", graph_id: "agent" });
  await patch(made[4], { metadata: { touched: true } });
  expect(await keptByGraph()).toMatchObject({ "assistants:graph:agent": 8, "assistants:graph:tools": 2 });
  expect(await keptByGraph()).toEqual(await actualByGraph());
  await post(`/assistants/${made[1]}/latest`, { version: 1 });
  expect(await keptByGraph()).toMatchObject({ "assistants:graph:agent": 9, "assistants:graph:tools": 1 });
  expect(await keptByGraph()).toEqual(await actualByGraph());
  for (const graph of ["agent", "steps", "tools", "nowhere"]) {
    const actual = Number(
      (await sql.query("SELECT count(*) AS n FROM assistants WHERE graph_id = $1", [graph])).rows[0].n,
    );
    expect({ graph, count: await count({ graph_id: graph }) }).toEqual({ graph, count: actual });
    expect({ graph, total: await searchTotal({ graph_id: graph, limit: 1 }) }).toEqual({ graph, total: actual });
  }

  // The count is read from the kept rows, not counted: a kept row moved by hand shows through it,
  // and not through a count another filter narrows (counted from the assistants), nor the total.
  // (A graph's shard rows are made by the first write on that shard: shard 0 may have none yet.)
  const addByHand = (n: number) =>
    sql.query(
      `INSERT INTO row_counts (relation, shard, count) VALUES ('assistants:graph:agent', 0, $1)
       ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count`,
      [n],
    );
  await addByHand(1000);
  try {
    expect(await count({ graph_id: "agent" })).toBe(1009);
    expect(await searchTotal({ graph_id: "agent", limit: 2 })).toBe(1009);
    expect(await count({ graph_id: "agent", name: "a1" })).toBe(3); // a1, a10, a11
    expect(await count({ graph_id: "agent", metadata: { batch: 1 } })).toBe(4);
    expect(await searchTotal({ graph_id: "agent", metadata: { created_by: "system" } })).toBe(1);
    expect(await count({})).toBe(16);
  } finally {
    await addByHand(-1000);
  }

  // Deletes: one through the API, many in one statement; a bulk move between graphs.
  await fetch(`${runtime.url}/assistants/${made[0]}`, { method: "DELETE" });
  await sql.query("DELETE FROM assistants WHERE graph_id = 'agent' AND metadata @> '{\"batch\": 1}'");
  await sql.query("UPDATE assistants SET graph_id = 'approval' WHERE graph_id = 'steps' AND name <> 'steps'");
  expect(await keptByGraph()).toEqual(await actualByGraph());
  expect(await count({ graph_id: "approval" })).toBe(4);

  // A long graph id (2.6 kB, not compressible: about the longest the graph indexes take) is
  // counted under its hash (the counts' key, a btree too, refuses entries that long).
  const long = Array.from({ length: 81 }, () => crypto.randomUUID().replace(/-/g, "")).join("");
  await sql.query("INSERT INTO assistants (assistant_id, graph_id, name) VALUES (gen_random_uuid(), $1, 'long')", [
    long,
  ]);
  expect(Object.keys(await keptByGraph())).toContainEqual(expect.stringMatching(/^assistants:graph#[0-9a-f]{64}$/));
  expect(await keptByGraph()).toEqual(await actualByGraph());
  expect(await count({ graph_id: long })).toBe(1);
  expect(await count({ graph_id: long.slice(0, 1000) })).toBe(0);

  // Concurrent transactions on 6 connections, each moving one assistant between graphs in one
  // statement and renaming it in another, some rolled back, while assistants are made beside them.
  const clients = await Promise.all(
    Array.from({ length: 6 }, async () => {
      const client = new pg.Client({ connectionString: runtime.database.url });
      await client.connect();
      return client;
    }),
  );
  const graphs = ["agent", "approval", "steps", "tools"];
  try {
    await Promise.all([
      ...clients.map(async (client, index) => {
        for (let round = 0; round < 20; round++) {
          const assistantId = made[1 + ((index * 5 + round) % (made.length - 1))];
          await client.query("BEGIN");
          await client.query("UPDATE assistants SET graph_id = $1 WHERE assistant_id = $2", [
            graphs[(index + round) % graphs.length],
            assistantId,
          ]);
          await client.query("UPDATE assistants SET name = $1 WHERE assistant_id = $2", [`r${round}`, assistantId]);
          await client.query(round % 4 === 3 ? "ROLLBACK" : "COMMIT");
        }
      }),
      ...Array.from({ length: 8 }, (_, index) => create({ graph_id: graphs[index % graphs.length] })),
    ]);
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
  expect(await keptByGraph()).toEqual(await actualByGraph());

  await sql.query("TRUNCATE assistants CASCADE");
  expect(await keptByGraph()).toEqual({});
  expect(await count({ graph_id: "agent" })).toBe(0);
}, 60_000);

test("the migration counts the assistants already there", async () => {
  const database = await createEmptyDatabase("graphcounts");
  const before = mkdtempSync(path.join(os.tmpdir(), "graph-counts-"));
  try {
    for (const { name } of readMigrations(MIGRATIONS).filter(({ name }) => name < "20261203020000"))
      cpSync(path.join(MIGRATIONS, name), path.join(before, name), { recursive: true });
    await migrate(database.url, before);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO assistants (assistant_id, graph_id, name)
         SELECT gen_random_uuid(), CASE WHEN i % 10 = 0 THEN 'rare' ELSE 'common' END, 'a' || i
         FROM generate_series(1, 50) i`,
      );
      await migrate(database.url, MIGRATIONS);
      expect(await keptByGraph(client)).toEqual({ "assistants:graph:common": 45, "assistants:graph:rare": 5 });
      // Every shard of a graph there is made; a create adds to its connection's.
      expect(
        Number(
          (await client.query("SELECT count(*) AS n FROM row_counts WHERE relation LIKE 'assistants:graph:%'")).rows[0]
            .n,
        ),
      ).toBe(32);
      await client.query(
        "INSERT INTO assistants (assistant_id, graph_id, name) VALUES (gen_random_uuid(), 'rare', 'b')",
      );
      expect(await keptByGraph(client)).toEqual(await actualByGraph(client));
    } finally {
      await client.end();
    }
  } finally {
    rmSync(before, { recursive: true, force: true });
    await database.drop();
  }
}, 60_000);
