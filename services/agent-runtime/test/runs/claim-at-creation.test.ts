// In the embedded mode a run's creation claims the run when a worker is free and its thread is
// free: one statement fewer per run. The thread's run order must hold as with a separate claim:
// never two runs of one thread running, even when two creations race.
import { randomUUID } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { migrate } from "@lgp/server-kit";
import { createEmptyDatabase, REPO_ROOT, type TestDatabase } from "@lgp/server-kit/src/testing";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { newRunId } from "../../src/common/ids";
import { MemoryRunQueue } from "../../src/queue/memory";
import { RunRepository, type NewRun } from "../../src/runs/repository";
import { CHECKPOINT_SCHEMA } from "../../src/threads/checkpoints";
import { startTestRuntime } from "../support/harness";

let database: TestDatabase;
let pool: pg.Pool;
let runs: RunRepository;
let checkpointer: RuntimeCheckpointer;
const assistantId = randomUUID();

beforeAll(async () => {
  database = await createEmptyDatabase("claim_at_creation");
  await migrate(database.url, path.join(REPO_ROOT, "prisma/agent-runtime/migrations"));
  pool = new pg.Pool({ connectionString: database.url, max: 6 });
  checkpointer = new RuntimeCheckpointer(pool, undefined, { schema: CHECKPOINT_SCHEMA });
  await checkpointer.setup();
  runs = new RunRepository(pool, checkpointer);
  await pool.query(
    `INSERT INTO assistants (assistant_id, graph_id, config, context, metadata, name, version)
     VALUES ($1, 'agent', '{}', '{}', '{}', 'agent', 1)`,
    [assistantId],
  );
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

async function newThread(): Promise<string> {
  const threadId = randomUUID();
  await pool.query('INSERT INTO threads (thread_id, metadata) VALUES ($1, \'{"owner": "ann"}\')', [threadId]);
  return threadId;
}

function newRun(threadId: string): NewRun {
  return {
    // Time-ordered, as the runtime's: a thread's runs are claimed in the order of their ids.
    runId: newRunId(),
    threadId,
    assistantId,
    metadata: {},
    kwargs: { graph_id: "agent", input: null, config: {}, context: {}, stream_mode: ["values"] },
    multitaskStrategy: "enqueue",
    threadMetadata: { graph_id: "agent" },
    rejectIfBusy: false,
    claim: true,
  };
}

const statusOf = async (runId: string) =>
  (await pool.query("SELECT status, attempt FROM runs WHERE run_id = $1", [runId])).rows[0];

test("a creation on a free thread claims the run, with its thread and its latest checkpoint", async () => {
  const threadId = await newThread();
  const first = newRun(threadId);
  const outcome = await runs.insert(first);
  // Answered as created (pending), as the official server answers a new run; stored as claimed.
  expect(outcome).toMatchObject({ run: { run_id: first.runId, status: "pending" } });
  expect(outcome).toMatchObject({
    claimed: {
      run: { run_id: first.runId, status: "running", attempt: 1 },
      thread: { metadata: { owner: "ann", graph_id: "agent" } },
      checkpoint: null,
    },
  });
  expect(await statusOf(first.runId)).toEqual({ status: "running", attempt: 1 });

  // While it runs, the next one waits for it (pending, not claimed), as it does for a claim.
  const second = newRun(threadId);
  const waiting = await runs.insert(second);
  expect(waiting).toMatchObject({ run: { run_id: second.runId } });
  expect("claimed" in waiting && waiting.claimed).toBeFalsy();
  expect(await statusOf(second.runId)).toEqual({ status: "pending", attempt: 0 });
  // The first's end wakes it; its own claim takes it.
  expect(await runs.finish({ runId: first.runId, threadId, status: "success" }, "idle", null)).toBe(second.runId);
  expect(await runs.claim(second.runId, false)).toMatchObject({ run: { status: "running", attempt: 1 } });
});

test("a creation not asked to claim leaves the run pending", async () => {
  const threadId = await newThread();
  const run = { ...newRun(threadId), claim: false };
  expect(await runs.insert(run)).not.toHaveProperty("claimed");
  expect(await statusOf(run.runId)).toEqual({ status: "pending", attempt: 0 });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `count` statements of this database wait for a lock. The races below depend on the
 * order statements queue on the thread's row, so that order is observed, not assumed from a sleep:
 * on a loaded machine a statement could reach the server after the one meant to follow it.
 */
async function lockWaiters(count: number): Promise<void> {
  for (let tries = 0; tries < 1000; tries++) {
    const { rows } = await pool.query(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0].waiting >= count) return;
    await sleep(10);
  }
  throw new Error(`expected ${count} statements waiting for a lock`);
}

test("two creations racing on a free thread claim one run, not both", async () => {
  const threadId = await newThread();
  // The first creation's statement is under way (its transaction holds the thread's row)...
  const holder = await pool.connect();
  try {
    await holder.query("BEGIN");
    const first = newRun(threadId);
    const inTransaction = new RunRepository(holder as unknown as pg.Pool, checkpointer);
    expect(await inTransaction.insert(first)).toHaveProperty("claimed");
    // ...when the second starts: its snapshot cannot see the first's run, only the thread's row can.
    const second = newRun(threadId);
    const racing = runs.insert(second);
    await lockWaiters(1);
    await holder.query("COMMIT");
    expect(await racing).not.toHaveProperty("claimed");
    expect(await statusOf(first.runId)).toEqual({ status: "running", attempt: 1 });
    expect(await statusOf(second.runId)).toEqual({ status: "pending", attempt: 0 });
  } finally {
    holder.release();
  }
});

const running = async (threadId: string) =>
  (await pool.query("SELECT run_id FROM runs WHERE thread_id = $1 AND status = 'running'", [threadId])).rowCount;

test("a thread status written from an earlier read, landing between two creations, does not let the second claim", async () => {
  const threadId = await newThread();
  const holder = await pool.connect();
  try {
    await holder.query("BEGIN");
    const first = newRun(threadId);
    expect(await new RunRepository(holder as unknown as pg.Pool, checkpointer).insert(first)).toHaveProperty("claimed");
    // A state update that read the thread (idle) before the first creation writes that status back...
    const staleWrite = pool.query("UPDATE threads SET status = 'idle', updated_at = now() WHERE thread_id = $1", [
      threadId,
    ]);
    await lockWaiters(1);
    // ...after it, and before the second creation, which started while the first was under way.
    const second = newRun(threadId);
    const racing = runs.insert(second);
    await lockWaiters(2);
    await holder.query("COMMIT");
    await staleWrite;
    expect(await racing).not.toHaveProperty("claimed");
    expect(await running(threadId)).toBe(1);
  } finally {
    holder.release();
  }
});

/** The thread row's version as `client` sees it: the transaction that wrote it. */
async function rowVersion(client: pg.Pool | pg.PoolClient, threadId: string): Promise<string> {
  const { rows } = await client.query("SELECT xmin::text AS version FROM threads WHERE thread_id = $1", [threadId]);
  return rows[0].version;
}

/**
 * One try of the race below. Answers whether the end took the thread's row before the third
 * creation did: PostgreSQL does not promise which of two statements waiting on one row goes
 * first once it is free, and only that order is the race under test. Either order must leave one
 * run running, the second.
 */
async function endRacingThirdCreation(): Promise<boolean> {
  const threadId = await newThread();
  // The thread's only active run is pending (a delayed one, say) and is then cancelled: its end
  // (finish) is the statement that races.
  const cancelled = { ...newRun(threadId), claim: false };
  await runs.insert(cancelled);
  await runs.setStatus(cancelled.runId, "interrupted", ["pending"]);
  const creator = await pool.connect();
  const third = await pool.connect();
  try {
    await creator.query("BEGIN");
    const second = newRun(threadId);
    expect(await new RunRepository(creator as unknown as pg.Pool, checkpointer).insert(second)).not.toHaveProperty(
      "claimed",
    );
    const creatorsRow = await rowVersion(creator, threadId);
    // The end's snapshot misses the second run: it will set the thread idle over its `busy`.
    const ending = runs.finish({ runId: cancelled.runId, threadId, status: "interrupted" }, "idle", null);
    await lockWaiters(1);
    await third.query("BEGIN");
    const last = newRun(threadId);
    const creating = new RunRepository(third as unknown as pg.Pool, checkpointer).insert(last);
    await lockWaiters(2);
    await creator.query("COMMIT");
    expect(await creating).not.toHaveProperty("claimed");
    // Had the end gone first, its write is committed; had the creation, the end waits for it and
    // the committed row is still the creator's.
    const endFirst = (await rowVersion(pool, threadId)) !== creatorsRow;
    await third.query("COMMIT");
    await ending;
    // The second run (the earlier) is the one its claim takes.
    expect(await runs.claim(second.runId, false)).toMatchObject({ run: { status: "running" } });
    expect(await running(threadId)).toBe(1);
    return endFirst;
  } finally {
    creator.release();
    third.release();
  }
}

test("a run's end that missed a creation, racing a third creation, does not let the third claim", async () => {
  let endWentFirst = false;
  for (let attempt = 0; attempt < 10 && !endWentFirst; attempt++) endWentFirst = await endRacingThirdCreation();
  expect(endWentFirst).toBe(true);
});

test("a claimed run's job starts at once: its worker is reserved before its creation claims it", async () => {
  const queue = new MemoryRunQueue();
  const started: string[] = [];
  const finishes = new Map<string, () => void>();
  queue.startWorkers(2, (job) => {
    started.push(job.runId);
    return new Promise((resolve) => finishes.set(job.runId, () => resolve("done")));
  });
  // Two workers: one busy, one reserved for a run being created; no third reservation.
  await queue.enqueue({ runId: "busy", threadId: "t1" });
  expect(queue.reserveWorker()).toBe(true);
  expect(queue.reserveWorker()).toBe(false);
  // A job added meanwhile does not take the reserved worker...
  await queue.enqueue({ runId: "waiting", threadId: "t2" });
  expect(started).toEqual(["busy"]);
  // ...the claimed run's job does, at once.
  const threadId = await newThread();
  const outcome = await runs.insert(newRun(threadId));
  if (!("claimed" in outcome) || !outcome.claimed) throw new Error("expected a claimed run");
  await queue.enqueue({ runId: outcome.run.run_id, threadId, claimed: outcome.claimed });
  expect(started).toEqual(["busy", outcome.run.run_id]);
  // A reservation no job took (the creation did not claim) is given back: the waiting job starts.
  expect(queue.reserveWorker()).toBe(false);
  finishes.get("busy")!();
  await sleep(10);
  expect(started).toEqual(["busy", outcome.run.run_id, "waiting"]);
  expect(queue.reserveWorker()).toBe(false);
  finishes.get(outcome.run.run_id)!();
  await sleep(10);
  expect(queue.reserveWorker()).toBe(true);
  queue.releaseWorker();
  finishes.get("waiting")!();
  await queue.close();
});

test("with one worker, runs created at once are claimed one at a time, and a waiting one can be cancelled", async () => {
  const rt = await startTestRuntime({ workers: 1 });
  try {
    const threads = await Promise.all([0, 1, 2].map(() => rt.client.threads.create()));
    const created = await Promise.all(
      threads.map((thread) =>
        rt.client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: 300 } } as never),
      ),
    );
    // Each creation claimed its run only if it could reserve the one worker.
    const statuses = await Promise.all(created.map((run) => rt.client.runs.get(run.thread_id, run.run_id)));
    expect(statuses.filter((run) => run.status === "running").length).toBeLessThanOrEqual(1);
    const last = created[2];
    await rt.client.runs.cancel(last.thread_id, last.run_id);
    await rt.client.runs.join(last.thread_id, last.run_id);
    expect((await rt.client.runs.get(last.thread_id, last.run_id)).status).toBe("interrupted");
  } finally {
    await rt.close();
  }
});
