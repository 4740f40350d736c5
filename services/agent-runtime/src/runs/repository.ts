// Run rows. Run ids are time-ordered (uuid v7), so "runs of a thread in creation order" is
// "by run_id"; claiming a run is one guarded UPDATE, so at most one run per thread is running.
import type pg from "pg";
import { prepared } from "../common/prepared";
import { Prisma } from "../generated/prisma/client";
import { filtersSql, type AuthFilters } from "../auth";
import type { ThreadRow, ThreadStatus } from "../threads/repository";
import type { CheckpointRow } from "../graphs/checkpoint-read";
import type { RuntimeCheckpointer } from "../graphs/checkpointer";

export type RunStatus = "pending" | "running" | "error" | "success" | "timeout" | "interrupted";

export interface RunRow {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  status: RunStatus;
  metadata: Record<string, unknown>;
  kwargs: RunKwargs;
  multitask_strategy: string;
  attempt: number;
  created_at: Date;
  updated_at: Date;
  /** When its first attempt started; null (or absent) while it waits. */
  started_at?: Date | null;
}

/** Everything a worker needs to execute a run, fixed when the run is created. */
export interface RunKwargs {
  graph_id: string;
  input?: unknown;
  command?: { goto?: unknown; update?: unknown; resume?: unknown } | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  stream_mode: string[];
  stream_subgraphs?: boolean;
  interrupt_before?: string[] | "*";
  interrupt_after?: string[] | "*";
  checkpoint_id?: string;
  checkpoint?: Record<string, unknown>;
  durability?: string;
  webhook?: string;
  on_completion?: string;
  temporary?: boolean;
  /** Seconds after its creation before which the run may not start. */
  after_seconds?: number;
  /**
   * The input resumes the thread's interrupt if the checkpoint the run starts from has one (the
   * protocol's `run.start`): decided by the worker from the checkpoint its claim read.
   */
  resume_interrupt?: boolean;
  [key: string]: unknown;
}

export interface NewRun {
  runId: string;
  threadId: string;
  assistantId: string;
  metadata: object;
  kwargs: RunKwargs;
  multitaskStrategy: string;
  /** Merged into the thread's metadata (graph_id, assistant_id), as the reference server does. */
  threadMetadata: object;
  /**
   * The assistant's and the run's config, merged into an idle thread's config as the official
   * server does (`configurable` key by key), so the thread's graph can be rebuilt as the run
   * built it (a factory graph) when its state is read or updated later.
   */
  threadConfig?: { assistant: object; run: object };
  /** With `reject`, the insert fails when the thread has an active run. */
  rejectIfBusy: boolean;
  /** The caller's auth filters on the thread's metadata: a thread it may not see is missing. */
  access?: AuthFilters;
  /** Claim the run in the same statement when its thread is free (see RunRepository.insert). */
  claim?: boolean;
}

/** What a worker needs of a run's thread. */
export type ClaimedThread = Pick<ThreadRow, "metadata">;

/**
 * A claimed run, its thread, and its thread's latest root checkpoint as the claim read it: `null`
 * when the thread has none.
 */
export interface Claimed {
  run: RunRow;
  thread: ClaimedThread;
  checkpoint: CheckpointRow | null;
}

/** The checkpoint read's columns as the claim answers them (prefixed, beside the run's). */
type PrefixedCheckpoint = {
  [K in keyof CheckpointRow as `ck_${K}`]: CheckpointRow[K] | null;
};

/** The row a new run has once inserted (pending, not yet attempted). */
export function pendingRunRow(run: NewRun, createdAt: Date): RunRow {
  return {
    run_id: run.runId,
    thread_id: run.threadId,
    assistant_id: run.assistantId,
    status: "pending",
    metadata: run.metadata as Record<string, unknown>,
    kwargs: run.kwargs,
    multitask_strategy: run.multitaskStrategy,
    attempt: 0,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

export type InsertOutcome = { run: RunRow; claimed?: Claimed } | { missingThread: true } | { busy: true };

/** What a claim answers beside the run: its thread's metadata and latest checkpoint (`ck_` columns). */
type ClaimedColumns = { thread_metadata: ThreadRow["metadata"] } & PrefixedCheckpoint;

/** The checkpoint read's columns: the claim answers each as `ck_<column>`, beside a run's. */
const CHECKPOINT_FIELDS = [
  "checkpoint",
  "checkpoint_id",
  "parent_checkpoint_id",
  "metadata",
  "channel_values",
  "pending_writes",
] as const satisfies readonly (keyof CheckpointRow)[];

/** The names of the columns a claim reads beside the run. */
const CLAIMED_COLUMNS: (keyof ClaimedColumns)[] = [
  "thread_metadata",
  ...CHECKPOINT_FIELDS.map((field) => `ck_${field}` as const),
];

/** The checkpoint read's columns (of `ck`), prefixed to sit beside a run's. */
const CHECKPOINT_COLUMNS = Prisma.raw(CHECKPOINT_FIELDS.map((field) => `ck.${field} AS ck_${field}`).join(", "));

function claimedFrom(run: RunRow, columns: ClaimedColumns): Claimed {
  const checkpoint =
    columns.ck_checkpoint_id === null
      ? null
      : (Object.fromEntries(
          CHECKPOINT_FIELDS.map((field) => [field, columns[`ck_${field}`]]),
        ) as unknown as CheckpointRow);
  return { run, thread: { metadata: columns.thread_metadata }, checkpoint };
}

/**
 * The order of a thread's active runs: their ids' text, bytewise (the same order as the ids), the
 * key of the partial index of active runs. The index of all a thread's runs is by id: it cannot
 * give this order, so it can answer the lookups below only by reading the thread's runs and
 * sorting them, and the planner takes the partial index.
 */
const ACTIVE_ORDER = Prisma.sql`o.run_id::text COLLATE "C"`;

/**
 * The thread's first pending or running run by id (`and`: of those that also match it; `columns`
 * of `runs o`). Every lookup of a thread's active runs takes this ordered `LIMIT 1` form: the
 * partial index of active runs answers it in order, any other only by reading all the thread's
 * runs and sorting, so the planner takes the partial one even on statistics that make it look as
 * big (taken while most runs were waiting). As `NOT EXISTS`, or one `ORDER BY` of them all, it
 * took either, and then read the thread's whole history.
 */
function firstActiveRun(
  threadId: Prisma.Sql,
  and: Prisma.Sql = Prisma.empty,
  columns = Prisma.sql`o.run_id`,
): Prisma.Sql {
  return Prisma.sql`SELECT ${columns} FROM runs o WHERE o.thread_id = ${threadId} AND o.status IN ('pending', 'running') ${and}
    ORDER BY ${ACTIVE_ORDER} LIMIT 1`;
}

/** No pending or running run of the thread (that also matches `and`). */
function noActiveRun(threadId: Prisma.Sql, and: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`(${firstActiveRun(threadId, and)}) IS NULL`;
}

/**
 * Runs are on every request's hot path, so their statements go straight to a `pg` pool (the
 * checkpointer's), built with Prisma's SQL template (parameters numbered $1...).
 */
export class RunRepository {
  constructor(
    private readonly pool: pg.Pool,
    /** The checkpointer whose latest-checkpoint read a claim makes in the same statement. */
    private readonly checkpoints: Pick<RuntimeCheckpointer, "latestCheckpointSql">,
  ) {}

  private async query<T>(sql: Prisma.Sql): Promise<T[]> {
    return (await this.pool.query(prepared(sql.text, sql.values as unknown[]))).rows as T[];
  }

  private async execute(sql: Prisma.Sql): Promise<number> {
    return (await this.pool.query(prepared(sql.text, sql.values as unknown[]))).rowCount ?? 0;
  }

  /**
   * Inserts a pending run and marks its thread busy, in one statement. With `claim` (its caller
   * starts the run at once when it gets it), a run whose thread is free is inserted `running`
   * instead, claimed as `claim()` would claim it and with what a claim reads: one statement fewer.
   */
  async insert(run: NewRun): Promise<InsertOutcome> {
    const guard = run.rejectIfBusy ? Prisma.sql`AND ${noActiveRun(Prisma.sql`${run.threadId}::uuid`)}` : Prisma.empty;
    const config = run.threadConfig;
    // On the right of SET, `status` and `config` are the thread's values before this update.
    const threadConfig = config
      ? Prisma.sql`config = CASE WHEN status = 'busy' THEN config ELSE
          ${JSON.stringify(config.assistant)}::jsonb || config || ${JSON.stringify(config.run)}::jsonb ||
          jsonb_build_object('configurable', COALESCE(${JSON.stringify(config.assistant)}::jsonb -> 'configurable', '{}')
            || COALESCE(config -> 'configurable', '{}') || COALESCE(${JSON.stringify(config.run)}::jsonb -> 'configurable', '{}'))
        END,`
      : Prisma.empty;
    // Free: the thread is not busy and has no pending or running run. The runs are read in the
    // statement's snapshot, which misses a run whose creation commits after it was taken; but every
    // creation (and every end of a run) updates the thread's row, so the snapshot is trusted only if
    // that row has not changed since: its latest version, read under the lock (FOR UPDATE waits for
    // a racing writer and answers what it committed), must be the one the snapshot sees (same xmin).
    // Otherwise the run is left pending, for its worker's claim to order.
    const claim = run.claim
      ? {
          lock: Prisma.sql`FROM (SELECT status AS was_status, xmin AS was_xmin FROM threads WHERE thread_id = ${run.threadId}::uuid FOR UPDATE) was`,
          free: Prisma.sql`was.was_status <> 'busy'
            AND was.was_xmin = (SELECT xmin FROM threads WHERE thread_id = ${run.threadId}::uuid)
            AND ${noActiveRun(Prisma.sql`${run.threadId}::uuid`)}`,
          read: Prisma.sql`, t.metadata AS thread_metadata, ${CHECKPOINT_COLUMNS}
            FROM r CROSS JOIN t LEFT JOIN LATERAL (${Prisma.raw(this.checkpoints.latestCheckpointSql("t.thread_id::text"))}) ck ON t.free`,
        }
      : { lock: Prisma.empty, free: Prisma.sql`false`, read: Prisma.sql`FROM r` };
    const rows = await this.query<{ created_at: Date; status: RunStatus } & ClaimedColumns>(Prisma.sql`
      WITH t AS (
        UPDATE threads SET status = 'busy', metadata = metadata || ${JSON.stringify(run.threadMetadata)}::jsonb, ${threadConfig} updated_at = now()
        ${claim.lock}
        WHERE thread_id = ${run.threadId}::uuid AND ${filtersSql(Prisma.sql`metadata`, run.access)} ${guard}
        RETURNING thread_id, metadata, ${claim.free} AS free
      ), r AS (
        INSERT INTO runs (run_id, thread_id, assistant_id, status, attempt, started_at, due_at, metadata, kwargs, multitask_strategy)
        SELECT ${run.runId}::uuid, t.thread_id, ${run.assistantId}::uuid, CASE WHEN t.free THEN 'running' ELSE 'pending' END,
               CASE WHEN t.free THEN 1 ELSE 0 END, CASE WHEN t.free THEN now() END,
               now() + make_interval(secs => ${run.kwargs.after_seconds ?? 0}::float8), ${JSON.stringify(run.metadata)}::jsonb,
               ${JSON.stringify(run.kwargs)}::jsonb, ${run.multitaskStrategy}
        FROM t
        RETURNING created_at, status
      )
      SELECT r.created_at, r.status ${claim.read}`);
    // Everything else of the row is what was given (its JSON is not read back). The run is
    // answered as created (pending), as the official server answers it, even when it was claimed.
    if (rows[0]) {
      const created = pendingRunRow(run, rows[0].created_at);
      if (rows[0].status !== "running") return { run: created };
      const started = { ...created, status: "running" as const, attempt: 1, started_at: rows[0].created_at };
      return { run: created, claimed: claimedFrom(started, rows[0]) };
    }
    const exists = await this.query<{ n: number }[]>(
      Prisma.sql`SELECT 1 AS n FROM threads WHERE thread_id = ${run.threadId}::uuid AND ${filtersSql(Prisma.sql`metadata`, run.access)}`,
    );
    return exists.length ? { busy: true } : { missingThread: true };
  }

  async find(threadId: string, runId: string): Promise<RunRow | undefined> {
    const rows = await this.query<RunRow>(Prisma.sql`
      SELECT * FROM runs WHERE run_id = ${runId}::uuid AND thread_id = ${threadId}::uuid`);
    return rows[0];
  }

  async findById(runId: string): Promise<RunRow | undefined> {
    const rows = await this.query<RunRow>(Prisma.sql`SELECT * FROM runs WHERE run_id = ${runId}::uuid`);
    return rows[0];
  }

  async list(threadId: string, options: { limit: number; offset: number; status?: RunStatus }): Promise<RunRow[]> {
    const status = options.status ? Prisma.sql`AND status = ${options.status}` : Prisma.empty;
    return this.query<RunRow>(Prisma.sql`
      SELECT * FROM runs WHERE thread_id = ${threadId}::uuid ${status}
      ORDER BY run_id DESC LIMIT ${options.limit} OFFSET ${options.offset}`);
  }

  /**
   * The thread's first run, by id, above `after` that is not in `except` (the runs a thread stream
   * has already followed or found there when it started).
   */
  async nextRun(threadId: string, after: string, except: string[]): Promise<RunRow | undefined> {
    const rows = await this.query<RunRow>(Prisma.sql`
      SELECT * FROM runs WHERE thread_id = ${threadId}::uuid AND run_id > ${after}::uuid
        AND run_id <> ALL(${except}::uuid[])
      ORDER BY run_id LIMIT 1`);
    return rows[0];
  }

  /**
   * Where a thread's stream starts, in one snapshot: its first active run, if any, the ids of its
   * runs from `since` on that come before it (all of them, without an active run), and the id of
   * its latest run. A stream follows the active run, then every run not in that list above the
   * lowest of `since`, the active run and the latest run (those created after it connected).
   */
  async streamStart(threadId: string, since: string): Promise<{ active?: RunRow; before: string[]; latest?: string }> {
    const [row] = await this.query<RunRow & { before: string[]; latest: string | null }>(Prisma.sql`
      SELECT a.*, ARRAY(
        SELECT r.run_id::text FROM runs r WHERE r.thread_id = ${threadId}::uuid AND r.run_id >= ${since}::uuid
          AND (a.run_id IS NULL OR r.run_id < a.run_id)
      ) AS before, (
        SELECT l.run_id::text FROM runs l WHERE l.thread_id = ${threadId}::uuid ORDER BY l.run_id DESC LIMIT 1
      ) AS latest
      FROM (SELECT 1) one LEFT JOIN LATERAL (
        ${firstActiveRun(Prisma.sql`${threadId}::uuid`, Prisma.empty, Prisma.sql`o.*`)}
      ) a ON true`);
    const { before, latest, ...run } = row;
    return { ...(run.run_id ? { active: run as RunRow } : {}), before, ...(latest ? { latest } : {}) };
  }

  /**
   * The thread's active runs, in id order, walked one at a time (the first active one after the
   * last found), so each step is `firstActiveRun`'s ordered lookup.
   */
  async activeRuns(threadId: string): Promise<RunRow[]> {
    const thread = Prisma.sql`${threadId}::uuid`;
    const row = Prisma.sql`o.*`;
    return this.query<RunRow>(Prisma.sql`
      WITH RECURSIVE active AS (
        (${firstActiveRun(thread, Prisma.empty, row)})
        UNION ALL
        SELECT n.* FROM active a CROSS JOIN LATERAL (${firstActiveRun(thread, Prisma.sql`AND ${ACTIVE_ORDER} > a.run_id::text COLLATE "C"`, row)}) n
      )
      SELECT * FROM active ORDER BY run_id`);
  }

  /**
   * Takes a pending run for execution: only when no other run of its thread is running and no
   * earlier one is pending. `resume` also takes a run left `running` by a worker that died.
   * Answers the run and what the worker needs of its thread (not its values: they can be large).
   */
  async claim(runId: string, resume: boolean): Promise<Claimed | undefined> {
    const statuses = resume ? Prisma.sql`('pending', 'running')` : Prisma.sql`('pending')`;
    // With the graph's first read, its thread's latest checkpoint, in the same round trip (same snapshot).
    const latest = Prisma.raw(this.checkpoints.latestCheckpointSql("c.thread_id::text"));
    const row = (
      await this.query<RunRow & ClaimedColumns>(Prisma.sql`
      WITH c AS (
        UPDATE runs r SET status = 'running', attempt = r.attempt + 1, updated_at = now(),
          started_at = COALESCE(r.started_at, now())
        FROM threads t
        WHERE r.run_id = ${runId}::uuid AND r.status IN ${statuses} AND t.thread_id = r.thread_id
          AND r.created_at + make_interval(secs => COALESCE((r.kwargs->>'after_seconds')::float8, 0)) <= now()
          AND ${noActiveRun(
            Prisma.sql`r.thread_id`,
            Prisma.sql`AND o.run_id <> r.run_id AND (o.status = 'running' OR o.run_id < r.run_id)`,
          )}
        RETURNING r.*, t.metadata AS thread_metadata
      )
      SELECT c.*, ${CHECKPOINT_COLUMNS} FROM c LEFT JOIN LATERAL (${latest}) ck ON true`)
    )[0];
    if (!row) return undefined;
    // The run's own columns: the row without what the claim read beside it.
    const run: Partial<RunRow & ClaimedColumns> = { ...row };
    for (const key of CLAIMED_COLUMNS) delete run[key];
    return claimedFrom(run as RunRow, row);
  }

  /**
   * Ends a run and sets its thread's status and state mirror; answers the thread's next pending
   * run (to wake), if any. One statement, so the thread never shows a stale status.
   */
  async finish(
    run: { runId: string; threadId: string; status: RunStatus },
    threadStatus: ThreadStatus,
    /** `values` is the state's JSON text. */
    state: { values: string; interrupts: object } | null,
    /** Deletes the run instead (rollback): never seen ended but not yet deleted. */
    remove = false,
    /** More `WITH` parts the same statement runs (the run's last checkpoint: takeHeld). */
    also?: Prisma.Sql,
  ): Promise<string | undefined> {
    const threadUpdate = state
      ? Prisma.sql`"values" = ${state.values}::jsonb,
          interrupts = ${JSON.stringify(state.interrupts)}::jsonb,`
      : Prisma.empty;
    const ending = remove
      ? Prisma.sql`DELETE FROM runs WHERE run_id = ${run.runId}::uuid RETURNING run_id`
      : Prisma.sql`UPDATE runs SET status = ${run.status}, updated_at = now() WHERE run_id = ${run.runId}::uuid RETURNING run_id`;
    const rows = await this.query<{ run_id: string | null }>(Prisma.sql`
      WITH ${also ? Prisma.sql`${also},` : Prisma.empty} r AS (${ending}), nxt AS (
        ${firstActiveRun(Prisma.sql`${run.threadId}::uuid`, Prisma.sql`AND o.run_id <> ${run.runId}::uuid`)}
      ), t AS (
        UPDATE threads SET ${threadUpdate}
          status = CASE WHEN EXISTS (SELECT 1 FROM nxt) THEN 'busy' ELSE ${threadStatus} END, updated_at = now()
        WHERE thread_id = ${run.threadId}::uuid
      )
      SELECT (SELECT run_id FROM nxt) AS run_id`);
    return rows[0]?.run_id ?? undefined;
  }

  /** For a pending run that is not due yet (`after_seconds`), how many ms until it is. */
  async notDueForMs(runId: string): Promise<number | undefined> {
    const rows = await this.query<{ ms: number }>(Prisma.sql`
      SELECT EXTRACT(EPOCH FROM (created_at + make_interval(secs => (kwargs->>'after_seconds')::float8) - now())) * 1000 AS ms
      FROM runs WHERE run_id = ${runId}::uuid AND status = 'pending' AND kwargs ? 'after_seconds'`);
    const ms = rows[0] ? Number(rows[0].ms) : undefined;
    return ms !== undefined && ms > 0 ? ms : undefined;
  }

  /** Marks a run that never started (cancelled while pending, or its thread is gone). */
  async setStatus(runId: string, status: RunStatus, onlyIf?: RunStatus[]): Promise<boolean> {
    const guard = onlyIf ? Prisma.sql`AND status IN (${Prisma.join(onlyIf)})` : Prisma.empty;
    return (
      (await this.execute(Prisma.sql`
        UPDATE runs SET status = ${status}, updated_at = now() WHERE run_id = ${runId}::uuid ${guard}`)) > 0
    );
  }

  async delete(threadId: string, runId: string): Promise<boolean> {
    return (
      (await this.execute(
        Prisma.sql`DELETE FROM runs WHERE run_id = ${runId}::uuid AND thread_id = ${threadId}::uuid`,
      )) > 0
    );
  }

  /**
   * Hands a running run back to the queue's care (`pending`), to be claimed again and resumed from
   * its last checkpoint; `attempt` guards against a run another worker has claimed since.
   */
  async release(runId: string, attempt: number): Promise<boolean> {
    return (
      (await this.execute(Prisma.sql`
        UPDATE runs SET status = 'pending', updated_at = now()
        WHERE run_id = ${runId}::uuid AND status = 'running' AND attempt = ${attempt}`)) > 0
    );
  }

  /** Runs `running` since a claim more than `olderThanMs` ago (the sweep checks who holds them). */
  async runningSince(olderThanMs: number): Promise<RunRow[]> {
    return this.query<RunRow>(Prisma.sql`
      SELECT * FROM runs WHERE status = 'running' AND updated_at < now() - make_interval(secs => ${olderThanMs / 1000})
      ORDER BY run_id LIMIT 100`);
  }

  /**
   * Pending runs that nothing will wake: the first pending run of each thread with no running
   * run, created more than `olderThanMs` ago (a safety net after a crash between two statements).
   */
  async orphans(olderThanMs: number): Promise<{ run_id: string; thread_id: string }[]> {
    return this.query<{ run_id: string; thread_id: string }>(Prisma.sql`
      SELECT DISTINCT ON (r.thread_id) r.run_id, r.thread_id FROM runs r
      WHERE r.status = 'pending'
        AND r.created_at + make_interval(secs => COALESCE((r.kwargs->>'after_seconds')::float8, 0))
          < now() - make_interval(secs => ${olderThanMs / 1000})
        AND NOT EXISTS (SELECT 1 FROM runs o WHERE o.thread_id = r.thread_id AND o.status = 'running')
      ORDER BY r.thread_id, r.run_id`);
  }
}
