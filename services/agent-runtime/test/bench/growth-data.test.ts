// The growth bench's data (bench/growth, `npm run bench -- growth`): what its SQL generates is what
// the runtime would have written. A history deepened by copies reads back through LangGraph's own
// saver as one chain, newest first, ending at the thread's real checkpoints; bulk rows top up to
// exact counts; a plan's scans are read from EXPLAIN; the report renders tables and curves.
import path from "node:path";
import pg from "pg";
import { HumanMessage } from "@langchain/core/messages";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { explainingServices, planCells } from "../../../../bench/growth/plans";
import { markdown, svg } from "../../../../bench/growth/report";
import { deepenHistory, seedAssistants, seedStoreItems, seedThreads, seedVectors } from "../../../../bench/growth/seed";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { setupCheckpointer } from "../../src/graphs/checkpointer-setup";
import { CHECKPOINT_SCHEMA } from "../../src/threads/checkpoints";
import { StatementPlans } from "../support/statement-plans";

let database: TestDatabase;
let pool: pg.Pool;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  pool = new pg.Pool({ connectionString: database.url, max: 3 });
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await pool.end();
  await database.drop();
});

test("a history deepened by SQL copies reads back through the saver as one chain before the real checkpoints", async () => {
  const saver = new RuntimeCheckpointer(pool, undefined, { schema: CHECKPOINT_SCHEMA });
  await setupCheckpointer(pool, saver);
  const { graph } = require(path.resolve(__dirname, "../../../../examples/src/agent.ts")) as {
    graph: { checkpointer: unknown; invoke(input: unknown, options: unknown): Promise<unknown> };
  };
  graph.checkpointer = saver;
  const threadId = crypto.randomUUID();
  await graph.invoke({ messages: [new HumanMessage("hello")] }, { configurable: { thread_id: threadId } });
  await client.query(`INSERT INTO threads (thread_id) VALUES ($1)`, [threadId]);
  const assistantId = crypto.randomUUID();
  await client.query(`INSERT INTO assistants (assistant_id, graph_id, name) VALUES ($1, 'agent', 'a')`, [assistantId]);

  await deepenHistory(client, threadId, assistantId, 20);
  await deepenHistory(client, threadId, assistantId, 50, 17);

  const tuples: CheckpointTuple[] = [];
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } })) tuples.push(tuple);
  expect(tuples).toHaveLength(50);
  // Each checkpoint's parent is the next one read (the chain is whole, across the top-up).
  tuples.slice(0, -1).forEach((tuple, i) => {
    expect(tuple.parentConfig?.configurable?.checkpoint_id).toBe(tuples[i + 1]!.config.configurable?.checkpoint_id);
  });
  expect(tuples.at(-1)!.parentConfig).toBeUndefined();
  // The newest is the real run's end, with its answer; the copies carry the oldest real state.
  expect((tuples[0]!.checkpoint.channel_values.messages as HumanMessage[]).map((m) => m.content)).toEqual([
    "hello",
    "echo: hello",
  ]);
  const runs = await client.query(`SELECT count(*)::int AS n FROM runs WHERE thread_id = $1`, [threadId]);
  expect(runs.rows[0].n).toBe(15);
});

test("bulk rows top up to exact counts, and a plan's scans are named", async () => {
  await seedThreads(client, 0, 300);
  await seedThreads(client, 300, 1_000);
  await seedAssistants(client, 0, 500);
  await seedStoreItems(client, 0, 400);
  await seedVectors(client, 0, 100, 8);
  const count = async (table: string) => (await client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  // (The test before made a thread and an assistant of its own, without metadata.)
  expect(await count("threads WHERE metadata ? 'user'")).toBe(1_000);
  expect(await count("assistants WHERE metadata ? 'team'")).toBe(500);
  expect(await count("assistant_versions")).toBe(500);
  expect(await count("store_items")).toBe(500);
  expect(await count("store_vectors")).toBe(100);
  const dims = await client.query(`SELECT DISTINCT cardinality(embedding) AS dims FROM store_vectors`);
  expect(dims.rows).toEqual([{ dims: 8 }]);
  await client.query("ANALYZE threads");
  const plans = await StatementPlans.connect(database.url);
  await plans.explain("SELECT * FROM threads WHERE thread_id = $1::uuid", [crypto.randomUUID()]);
  expect(planCells(plans.take())).toEqual(["1", "threads_pkey", "none", "threads 0"]);
  await plans.explain("SELECT count(*) FROM threads WHERE metadata->>'user' = $1", ["u1"]);
  await plans.end();
  expect(planCells(plans.take())).toEqual(["1", "none", "threads 1", expect.stringMatching(/^threads 1,00\d$/)]);

  const table = { title: "t", header: ["a", "b"], rows: [["x", "1"]] };
  expect(markdown([table])).toContain("| x | 1 |");
  const picture = svg(
    [
      {
        title: "p",
        xLabel: "x",
        yLabel: "y",
        series: [
          {
            name: "s",
            points: [
              [1, 2],
              [10, 4],
            ],
          },
        ],
      },
    ],
    "c",
  );
  expect(picture).toMatch(/^<svg[\s\S]*<path d="M[\d.]+,[\d.]+ L[\d.]+,[\d.]+"/);
});

test("the bench's plans are of the statements a request's body makes the runtime's services send", async () => {
  // The bench's langgraph.json (target.ts's GROWTH_CONFIG; that module needs the SDK, which jest does not load).
  const config = path.resolve(__dirname, "../../../../bench/growth/graphs/langgraph.json");
  const services = await explainingServices(database.url, config);
  try {
    const { total } = await services.threads.search({ metadata: { user: "u42" }, limit: 10, offset: 0 });
    expect(total).toBe(1);
    // The page and its total, each with the request's values.
    const plans = services.take();
    expect(plans).toHaveLength(2);
    expect(plans.every((plan) => plan.rows.threads !== undefined)).toBe(true);
    await services.store.search({ namespace_prefix: ["users"], filter: { kind: "task" }, limit: 10, offset: 0 });
    expect(planCells(services.take())).toEqual([
      "1",
      expect.any(String),
      expect.any(String),
      expect.stringMatching(/^store_items /),
    ]);
  } finally {
    await services.close();
  }
});
