// The searches and lists (threads/search and /count, assistants/search, store/items/search, a
// thread's history and state) find their rows through indexes and read about what they answer,
// however many rows the tables hold (issue 40): each statement is EXPLAINed (ANALYZE, in a
// transaction rolled back) as the repository sends it (test/support/statement-plans.ts, shared
// with the growth bench), with sequential scans priced out (enable_seqscan = off, as
// query-plans.test.ts does for the run path), and the rows its scans looked at (kept or dropped
// by a filter) are counted per table. A filter or sort with no index
// to serve it reads the whole table through some other index: thousands of rows, not tens.
import path from "node:path";
import pg from "pg";
import { migrate } from "@lgp/server-kit";
import { createEmptyDatabase, REPO_ROOT, type TestDatabase } from "@lgp/server-kit/src/testing";
import { createDb, type Db } from "../../src/db";
import { AssistantRepository } from "../../src/assistants/repository";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { setupCheckpointer } from "../../src/graphs/checkpointer-setup";
import { StoreRepository } from "../../src/store/repository";
import { CHECKPOINT_SCHEMA } from "../../src/threads/checkpoints";
import { ThreadRepository } from "../../src/threads/repository";
import { StatementPlans, type ExplainedStatement } from "../support/statement-plans";

const ROWS = 3_000;
let database: TestDatabase;
let db: Db;
let pool: pg.Pool;
let explainer: StatementPlans;
let plans: ExplainedStatement[];

beforeAll(async () => {
  database = await createEmptyDatabase("searchplans");
  await migrate(database.url, path.join(REPO_ROOT, "prisma/agent-runtime/migrations"));
  db = createDb(database.url, 2);
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  await setupCheckpointer(pool, new RuntimeCheckpointer(pool, undefined, { schema: CHECKPOINT_SCHEMA }));
  // Threads of 1,000 users (3 each), 1% of them in error; assistants of 300 owners over 20 graphs;
  // store items in 100 namespaces (30 each) of 10 kinds.
  await pool.query(
    `INSERT INTO threads (thread_id, status, metadata, created_at, updated_at)
     SELECT gen_random_uuid(), CASE WHEN i % 100 = 0 THEN 'error' ELSE 'idle' END,
       jsonb_build_object('user_id', 'u' || (i % 1000), 'tier', i % 3),
       now() - make_interval(secs => i), now() - make_interval(secs => (i * 7919) % $1)
     FROM generate_series(1, $1::int) i`,
    [ROWS],
  );
  await pool.query(
    `INSERT INTO assistants (assistant_id, graph_id, name, metadata, created_at, updated_at)
     SELECT gen_random_uuid(), 'g' || (i % 20), 'assistant ' || i, jsonb_build_object('owner', 'u' || (i % 300)),
       now() - make_interval(secs => i), now() - make_interval(secs => (i * 7919) % $1)
     FROM generate_series(1, $1::int) i`,
    [ROWS],
  );
  // And a graph of few assistants (1 in 100), spread over the same dates.
  await pool.query(
    `INSERT INTO assistants (assistant_id, graph_id, name, created_at, updated_at)
     SELECT gen_random_uuid(), 'rare', 'rare ' || i, now() - make_interval(secs => i * 100), now()
     FROM generate_series(1, $1::int) i`,
    [ROWS / 100],
  );
  await pool.query(
    `INSERT INTO store_items (namespace, key, value, updated_at)
     SELECT 'users.u' || (i % 100) || '.memories', 'k' || i, jsonb_build_object('kind', 'k' || (i % 10), 'n', i),
       now() - make_interval(secs => (i * 7919) % $1)
     FROM generate_series(1, $1::int) i`,
    [ROWS],
  );
  // One thread with a history of 3,000 checkpoints (four channel blobs and a write each), and
  // another of one.
  for (const [threadId, count] of [
    ["deep", ROWS],
    ["shallow", 1],
  ] as const) {
    const id = (i: string) => `'00000000-0000-6000-8000-' || lpad((${i})::text, 12, '0')`;
    await pool.query(
      `INSERT INTO langgraph.checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
       SELECT $1, '', ${id("i")}, CASE WHEN i > 1 THEN ${id("i - 1")} END,
         jsonb_build_object('v', 4, 'id', ${id("i")}, 'ts', now()::text, 'versions_seen', '{}'::jsonb,
           'channel_versions', jsonb_build_object('a', i || '.5', 'b', i || '.5', 'c', i || '.5', 'd', i || '.5')),
         jsonb_build_object('source', 'loop', 'step', i)
       FROM generate_series(1, $2::int) i`,
      [threadId, count],
    );
    await pool.query(
      `INSERT INTO langgraph.checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
       SELECT $1, '', c, i || '.5', 'json', convert_to('1', 'UTF8')
       FROM generate_series(1, $2::int) i, unnest(array['a', 'b', 'c', 'd']) c`,
      [threadId, count],
    );
    await pool.query(
      `INSERT INTO langgraph.checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
       SELECT $1, '', ${id("i")}, 't' || i, 0, 'a', 'json', convert_to('1', 'UTF8') FROM generate_series(1, $2::int) i`,
      [threadId, count],
    );
  }
  await pool.query("ANALYZE");
  explainer = await StatementPlans.connect(database.url, { seqscan: false });
  plans = explainer.plans;
}, 60_000);

afterAll(async () => {
  await explainer?.end();
  await pool?.end();
  await db?.$disconnect();
  await database?.drop();
});

beforeEach(() => {
  explainer.take();
});

/** The statements that scanned a table sequentially or read more than `most` rows of one. */
const readingMore = (most: number) =>
  plans
    .filter((plan) => plan.sequential.length > 0 || Object.values(plan.rows).some((rows) => rows > most))
    .map(({ statement, sequential, rows }) => ({ statement, sequential, rows }));

const sort = (sortBy: "created_at" | "updated_at", sortOrder: "asc" | "desc" = "desc") => ({
  limit: 10,
  offset: 0,
  sortBy,
  sortOrder,
});

test("threads/search and /count by metadata, by status and sorted by date read through indexes", async () => {
  const threads = new ThreadRepository(explainer.db(db));
  // 3 threads of the user, 30 in error.
  expect((await threads.search({ metadata: { user_id: "u7" } }, sort("created_at"))).total).toBe(3);
  expect((await threads.search({ status: "error" }, sort("updated_at"))).rows).toHaveLength(10);
  expect(await threads.count({ metadata: { user_id: "u7" }, status: "idle" })).toBe(3);
  expect(readingMore(40)).toEqual([]);
  expect(plans.filter((plan) => plan.statement.includes("metadata @>")).map((plan) => plan.indexes)).toContainEqual([
    "threads_metadata_idx",
  ]);

  // Unfiltered, a page walks the date index; the total counts every thread (see the report).
  plans.length = 0;
  const { rows } = await threads.search({}, sort("updated_at"));
  expect(rows).toHaveLength(10);
  const page = plans.find((plan) => plan.statement.startsWith("SELECT * FROM threads"))!;
  expect(page).toMatchObject({ indexes: ["threads_updated_at_idx"], sequential: [] });
  expect(page.rows.threads).toBeLessThanOrEqual(20);

  // By status alone, the total is kept, not a count of the status's threads (2,970 idle here): an
  // error count reads its status's 16 rows of row_counts (migration thread_status_counts); the idle
  // one is the kept total less the busy threads (counted by the status index: none here) and the
  // kept statuses (the total's 16 rows, then every row of row_counts, which holds a few per
  // counted relation; no thread: migration thread_status_counts_off_run_path).
  plans.length = 0;
  expect((await threads.search({ status: "idle" }, sort("updated_at"))).total).toBe(ROWS - 30);
  expect(await threads.count({ status: "error" })).toBe(30);
  const counters = Number((await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM row_counts`)[0].n);
  expect(counters).toBeLessThan(200);
  expect(plans.filter((plan) => plan.statement.includes("row_counts")).map((plan) => plan.rows)).toEqual([
    { row_counts: 16 + counters, threads: 0 },
    { row_counts: 16 },
  ]);
  // The busy ones are counted through a status index.
  plans.length = 0;
  expect(await threads.count({ status: "busy" })).toBe(0);
  expect(plans.map((plan) => plan.indexes.filter((index) => index.startsWith("threads_status")).length)).toEqual([1]);
  // The scan of row_counts is the only one: its size follows the graphs and statuses, not the data.
  expect(
    readingMore(20).filter(
      (plan) => !plan.statement.startsWith("SELECT (SELECT coalesce(sum(count), 0) FROM row_counts"),
    ),
  ).toEqual([]);
});

test("assistants/search by metadata and graph, sorted by date or name, read through indexes", async () => {
  const assistants = new AssistantRepository(explainer.db(db));
  expect((await assistants.search({ metadata: { owner: "u7" } }, sort("updated_at"))).total).toBe(10);
  expect((await assistants.search({ graphId: "g3" }, sort("created_at"))).rows).toHaveLength(10);
  expect(readingMore(ROWS / 10)).toEqual([]);
  expect(plans.some((plan) => plan.indexes.includes("assistants_metadata_idx"))).toBe(true);

  // A graph holding a small share, newest first: its page reads its own rows, not everyone's.
  plans.length = 0;
  expect((await assistants.search({ graphId: "rare" }, sort("created_at"))).rows).toHaveLength(10);
  expect(plans.find((plan) => plan.statement.startsWith("SELECT * FROM assistants"))).toMatchObject({
    indexes: ["assistants_graph_id_created_at_idx"],
    rows: { assistants: 10 },
  });

  plans.length = 0;
  await assistants.search({}, { limit: 10, offset: 0, sortBy: "name", sortOrder: "asc" });
  const page = plans.find((plan) => plan.statement.startsWith("SELECT * FROM assistants"))!;
  expect(page).toMatchObject({ indexes: ["assistants_name_idx"], sequential: [] });

  // By graph alone, the total is the kept count (the graph's rows of row_counts, 16 at most:
  // migration assistant_graph_counts), not a count of the graph's 150 assistants.
  plans.length = 0;
  expect((await assistants.search({ graphId: "g3" }, sort("updated_at"))).total).toBe(ROWS / 20);
  expect(await assistants.count({ graphId: "g4" })).toBe(ROWS / 20);
  const totals = plans.filter((plan) => !plan.statement.startsWith("SELECT * FROM assistants"));
  expect(totals.map(({ indexes, sequential, rows }) => ({ indexes, sequential, tables: Object.keys(rows) }))).toEqual([
    { indexes: ["row_counts_pkey"], sequential: [], tables: ["row_counts"] },
    { indexes: ["row_counts_pkey"], sequential: [], tables: ["row_counts"] },
  ]);
  expect(totals.every((plan) => plan.rows.row_counts <= 16)).toBe(true);
});

test("store/items/search by namespace prefix and filter reads the items it answers", async () => {
  const store = new StoreRepository(explainer.db(db), undefined, { refreshOnRead: false });
  const search = (namespacePrefix: string[], filter?: Record<string, unknown>) =>
    store.search({ namespacePrefix, filter, limit: 10, offset: 0 });
  expect(await search(["users", "u7"])).toHaveLength(10);
  expect((await search(["users"], { n: 42 })).map((item) => item.key)).toEqual(["k42"]);
  expect((await search(["users", "u7", "memories"], { kind: { $eq: "k7" } })).map((item) => item.key)).toHaveLength(10);
  expect(await search([])).toHaveLength(10);
  expect(readingMore(40)).toEqual([]);
  // A prefix is the namespace itself (the key's index) or a range of the prefix index; a filter
  // within a small namespace may read it whole rather than the filter's index.
  expect(plans.map((plan) => plan.indexes)).toEqual([
    expect.arrayContaining(["store_items_namespace_prefix_idx"]),
    ["store_items_value_idx"],
    expect.arrayContaining(["store_items_namespace_prefix_idx"]),
    ["store_items_updated_at_idx"],
  ]);
});

test("a thread's state and a page of its history read the checkpoints they answer, not its whole history", async () => {
  const saver = new RuntimeCheckpointer(explainer.pool(pool), undefined, { schema: CHECKPOINT_SCHEMA });
  const latest = await saver.getTuple({ configurable: { thread_id: "deep", checkpoint_ns: "" } });
  expect(latest?.checkpoint.channel_values).toEqual({ a: 1, b: 1, c: 1, d: 1 });
  const page = [];
  for await (const tuple of saver.list(
    { configurable: { thread_id: "deep", checkpoint_ns: "" } },
    { limit: 10, before: { configurable: { checkpoint_id: latest!.config.configurable!.checkpoint_id } } },
  )) {
    page.push(tuple);
  }
  expect(page).toHaveLength(10);
  expect(page.every((tuple) => tuple.pendingWrites?.length === 1)).toBe(true);
  await saver.getTuple({ configurable: { thread_id: "shallow", checkpoint_ns: "" } });
  // Per checkpoint answered: its row, one blob per channel, its writes.
  expect(plans.map((plan) => plan.rows)).toEqual([
    { checkpoints: 1, checkpoint_blobs: 4, checkpoint_writes: 1 },
    { checkpoints: 10, checkpoint_blobs: 40, checkpoint_writes: 10 },
    { checkpoints: 1, checkpoint_blobs: 4, checkpoint_writes: 1 },
  ]);
  expect(plans.flatMap((plan) => plan.sequential)).toEqual([]);
});
