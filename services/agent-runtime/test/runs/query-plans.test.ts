// The statements every run executes (create; claim, with the graph's first checkpoint read, or
// both in one when the creation claims the run; finish) find their rows through indexes, and read
// only the rows they need: each is EXPLAINed (ANALYZE, in a transaction rolled back) as the
// repository sends it, with sequential scans priced out (enable_seqscan = off), so a plan that
// still holds one has no index to use. A thread with a long history, a backlog of runs waiting
// on other threads, or statistics taken while most runs were waiting must not make a run's
// statements read more.
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
  // The plans are judged on the statistics of the tests' own ANALYZEs, not on an autovacuum's
  // taken at some point between their inserts.
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

const plansOf = async (
  threadId: string,
  assistantId: string,
): Promise<{ text: string; scans: string[]; runRows: number }[]> => {
  plans.length = 0;
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
  return [...plans];
};

/** The statements (by their first words) that read more than the run itself and the thread's active runs. */
const readingMore = (found: { text: string; runRows: number }[]) =>
  found
    .map((plan) => ({ statement: plan.text.trim().slice(0, 80), runRows: plan.runRows }))
    .filter((plan) => plan.runRows > 3);

/** Inserts `count` runs of a thread with the given status. */
const addRuns = (threadId: string, assistantId: string, count: number, status: string) =>
  pool.query(
    `INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, kwargs, multitask_strategy)
     SELECT gen_random_uuid(), $1, $2, $3, '{}', '{}', 'reject' FROM generate_series(1, $4::int)`,
    [threadId, assistantId, status, count],
  );

const assistantId = randomUUID();

beforeAll(async () => {
  await pool.query(
    `INSERT INTO assistants (assistant_id, graph_id, config, context, metadata, name, version)
     VALUES ($1, 'agent', '{}', '{}', '{}', 'agent', 1)`,
    [assistantId],
  );
  // Many threads, one run waiting on each (a backlog).
  await pool.query(`INSERT INTO threads (thread_id) SELECT gen_random_uuid() FROM generate_series(1, 500)`);
  await pool.query(
    `INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, kwargs, multitask_strategy)
     SELECT gen_random_uuid(), thread_id, $1, 'pending', '{}', '{}', 'reject' FROM threads`,
    [assistantId],
  );
});

test("creating, claiming and finishing a run read a few rows, whatever the thread's history and other threads' backlog", async () => {
  // A thread with 300 finished runs before the measured one.
  const threadId = randomUUID();
  await pool.query(`INSERT INTO threads (thread_id) VALUES ($1)`, [threadId]);
  await addRuns(threadId, assistantId, 300, "success");
  await pool.query("ANALYZE");

  const found = await plansOf(threadId, assistantId);
  // One statement each: create, claim, finish; then create-and-claim, finish.
  expect(found).toHaveLength(5);
  for (const plan of found) {
    const sequential = plan.scans.filter((scan) => scan.startsWith("Seq Scan"));
    expect({ statement: plan.text.trim().slice(0, 80), sequential }).toEqual({
      statement: plan.text.trim().slice(0, 80),
      sequential: [],
    });
    expect(plan.scans.length).toBeGreaterThan(0);
  }
  // Each reads the run itself and the thread's active runs (none but it here): not the 300
  // finished runs of the thread nor the 500 waiting on other threads.
  expect(readingMore(found)).toEqual([]);
  expect(found[1].scans.some((scan) => scan.endsWith(" on checkpoints"))).toBe(true);
  expect(found[3].scans.some((scan) => scan.endsWith(" on checkpoints"))).toBe(true);
});

test("a thread's finished runs stay unread when the statistics were taken while they were still waiting", async () => {
  // Statistics from when this thread had 300 runs queued, before they ran (autovacuum's next
  // ANALYZE has not come yet): to the planner, most of the table, this thread's runs included,
  // looks active, so the index of active runs looks no smaller than the one of all the thread's runs.
  const threadId = randomUUID();
  await pool.query(`INSERT INTO threads (thread_id) VALUES ($1)`, [threadId]);
  await addRuns(threadId, assistantId, 300, "pending");
  await pool.query("ANALYZE");
  await pool.query(`UPDATE runs SET status = 'success' WHERE thread_id = $1`, [threadId]);

  expect(readingMore(await plansOf(threadId, assistantId))).toEqual([]);

  // Listing the thread's active runs (to cancel them: the interrupt and rollback strategies, the
  // cancel endpoint) reads those only, too.
  await addRuns(threadId, assistantId, 2, "pending");
  plans.length = 0;
  const runs = new RunRepository(
    explainingPool(),
    new RuntimeCheckpointer(pool, undefined, { schema: CHECKPOINT_SCHEMA }),
  );
  expect((await runs.activeRuns(threadId)).map((run) => run.status)).toEqual(["pending", "pending"]);
  expect(readingMore(plans)).toEqual([]);
});

test("a thread's runs list, its stream's latest run and the wait for its next run read only what they answer", async () => {
  const threadId = randomUUID();
  await pool.query(`INSERT INTO threads (thread_id) VALUES ($1)`, [threadId]);
  await addRuns(threadId, assistantId, 300, "success");
  await pool.query("ANALYZE");
  plans.length = 0;
  const runs = new RunRepository(
    explainingPool(),
    new RuntimeCheckpointer(pool, undefined, { schema: CHECKPOINT_SCHEMA }),
  );
  const page = await runs.list(threadId, { limit: 10, offset: 0 });
  expect(page).toHaveLength(10);
  const latest = page[0].run_id;
  // A thread stream that has seen the latest run waits for the next (asked every 250 ms).
  expect(await runs.nextRun(threadId, latest, [])).toBeUndefined();
  expect((await runs.streamStart(threadId, latest)).latest).toBe(latest);
  // The page's 10 rows, then a row or two: not the thread's 300 runs, read and sorted.
  expect(plans.map((plan) => ({ statement: plan.text.trim().slice(0, 40), fewRows: plan.runRows <= 10 }))).toEqual(
    plans.map((plan) => ({ statement: plan.text.trim().slice(0, 40), fewRows: true })),
  );
  expect(plans.slice(1).map((plan) => plan.runRows <= 3)).toEqual([true, true]);
});
