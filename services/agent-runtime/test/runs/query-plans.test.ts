// The statements every run executes (create; claim, with the graph's first checkpoint read, or
// both in one when the creation claims the run; finish) find their rows through indexes, and read
// only the rows they need: each is EXPLAINed (ANALYZE, in a transaction rolled back) as the
// repository sends it, with sequential scans priced out (enable_seqscan = off), so a plan that
// still holds one has no index to use. A thread with a long history, or a backlog of runs waiting
// on other threads, must not make a run's statements read more.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { migrate } from "@lgp/server-kit";
import { createEmptyDatabase, REPO_ROOT, type TestDatabase } from "@lgp/server-kit/src/testing";
import path from "node:path";
import { RunRepository, type NewRun } from "../../src/runs/repository";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { CHECKPOINT_SCHEMA } from "../../src/threads/checkpoints";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

function scans(node: PlanNode, found: string[] = []): string[] {
  if (node["Relation Name"]) found.push(`${node["Node Type"]} on ${node["Relation Name"]}`);
  for (const child of node.Plans ?? []) scans(child, found);
  return found;
}

/** Rows of `runs` the statement's scans looked at: those they kept and those their filters dropped. */
function runRowsRead(node: PlanNode): number {
  const own =
    node["Relation Name"] === "runs" && node["Node Type"] !== "ModifyTable"
      ? ((node["Actual Rows"] ?? 0) +
          (node["Rows Removed by Filter"] ?? 0) +
          (node["Rows Removed by Index Recheck"] ?? 0)) *
        (node["Actual Loops"] ?? 1)
      : 0;
  return (node.Plans ?? []).reduce((sum, child) => sum + runRowsRead(child), own);
}

let database: TestDatabase;
let pool: pg.Pool;
let explainer: pg.Client;
/** Each statement the repository sent, with the table accesses of its plan and the run rows it read. */
const plans: { text: string; scans: string[]; runRows: number }[] = [];

/**
 * The repository's own pool, with each statement executed first under EXPLAIN ANALYZE on the side,
 * in a transaction rolled back, then for real.
 */
function explainingPool(): pg.Pool {
  return {
    query: async (config: pg.QueryConfig) => {
      await explainer.query("BEGIN");
      try {
        const { rows } = await explainer.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${config.text}`, config.values);
        const plan = (rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0].Plan;
        plans.push({ text: config.text, scans: scans(plan), runRows: runRowsRead(plan) });
      } finally {
        await explainer.query("ROLLBACK");
      }
      return pool.query(config);
    },
  } as unknown as pg.Pool;
}

beforeAll(async () => {
  database = await createEmptyDatabase("plans");
  await migrate(database.url, path.join(REPO_ROOT, "prisma/agent-runtime/migrations"));
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // The plans are judged on the statistics of the test's own ANALYZE, taken once every row is in.
  // An autovacuum ANALYZE started between the inserts could finish after it, with statistics that
  // miss rows: the likely cause of one CI run where both creations read the thread's 300 finished
  // runs (not reproduced by hand).
  for (const table of ["runs", "threads"]) await pool.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
  explainer = new pg.Client({ connectionString: database.url });
  await explainer.connect();
  await explainer.query("SET enable_seqscan = off");
});

afterAll(async () => {
  await explainer?.end();
  await pool?.end();
  await database?.drop();
});

test("creating, claiming and finishing a run read a few rows, whatever the thread's history and other threads' backlog", async () => {
  const assistantId = randomUUID();
  await pool.query(
    `INSERT INTO assistants (assistant_id, graph_id, config, context, metadata, name, version)
     VALUES ($1, 'agent', '{}', '{}', '{}', 'agent', 1)`,
    [assistantId],
  );
  // Many threads, one run waiting on each (a backlog), and one thread with 300 finished runs
  // before the measured one.
  const threadId = randomUUID();
  await pool.query(
    `INSERT INTO threads (thread_id) SELECT gen_random_uuid() FROM generate_series(1, 500)
     UNION ALL SELECT $1::uuid`,
    [threadId],
  );
  await pool.query(
    `INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, kwargs, multitask_strategy)
     SELECT gen_random_uuid(), thread_id, $2, 'pending', '{}', '{}', 'reject' FROM threads WHERE thread_id <> $1`,
    [threadId, assistantId],
  );
  await pool.query(
    `INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, kwargs, multitask_strategy)
     SELECT gen_random_uuid(), $1, $2, 'success', '{}', '{}', 'reject' FROM generate_series(1, 300)`,
    [threadId, assistantId],
  );
  await pool.query("ANALYZE");

  // The claim also reads the thread's latest checkpoint (the graph's first read), as it does in the runtime.
  const checkpointer = new RuntimeCheckpointer(pool, undefined, { schema: CHECKPOINT_SCHEMA });
  await checkpointer.setup();
  const runs = new RunRepository(explainingPool(), checkpointer);
  const run: NewRun = {
    runId: randomUUID(),
    threadId,
    assistantId,
    metadata: {},
    kwargs: { graph_id: "agent", input: { messages: [] }, config: {}, context: {}, stream_mode: ["values"] },
    multitaskStrategy: "reject",
    threadMetadata: { graph_id: "agent", assistant_id: assistantId },
    threadConfig: { assistant: {}, run: {} },
    rejectIfBusy: true,
  };
  expect(await runs.insert(run)).toMatchObject({ run: { run_id: run.runId } });
  expect(await runs.claim(run.runId, false)).toMatchObject({ run: { run_id: run.runId, status: "running" } });
  expect(await runs.finish({ runId: run.runId, threadId, status: "success" }, "idle", null)).toBeUndefined();

  // In the embedded mode a creation on a free thread claims the run itself, with the same read.
  const started = { ...run, runId: randomUUID(), claim: true };
  expect(await runs.insert(started)).toMatchObject({ claimed: { run: { run_id: started.runId, status: "running" } } });
  expect(await runs.finish({ runId: started.runId, threadId, status: "success" }, "idle", null)).toBeUndefined();

  // One statement each: create, claim, finish; then create-and-claim, finish.
  expect(plans).toHaveLength(5);
  for (const plan of plans) {
    const sequential = plan.scans.filter((scan) => scan.startsWith("Seq Scan"));
    expect({ statement: plan.text.trim().slice(0, 80), sequential }).toEqual({
      statement: plan.text.trim().slice(0, 80),
      sequential: [],
    });
    expect(plan.scans.length).toBeGreaterThan(0);
  }
  // Each reads the run itself and the thread's active runs (none but it here): not the 300
  // finished runs of the thread nor the 500 waiting on other threads.
  const reading = plans.map((plan) => ({ statement: plan.text.trim().slice(0, 80), runRows: plan.runRows }));
  expect(reading.filter((plan) => plan.runRows > 3)).toEqual([]);
  expect(plans[1].scans.some((scan) => scan.endsWith(" on checkpoints"))).toBe(true);
  expect(plans[3].scans.some((scan) => scan.endsWith(" on checkpoints"))).toBe(true);
});
