import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { WRITES_IDX_MAP, type SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import pg from "pg";
import { prepared } from "../common/prepared";
import { Prisma } from "../generated/prisma/client";
import {
  checkpointCtes,
  statementOf,
  writesInsert,
  type CheckpointRows,
  type CheckpointTables,
} from "./checkpoint-statement";
import { rowsOfBytes, runtimeSelectSql, type CheckpointRow, type ReadBlob } from "./checkpoint-read";
import { HeldCheckpoints, type HeldCheckpoint, type Landing, type RunHold } from "./held-checkpoints";
import { RuntimeSerializer, needsRevived, readRevived } from "./plain-reads";
import { WriteStash, type WriteBatch, type WriteRow } from "./write-stash";

type PutArgs = Parameters<PostgresSaver["put"]>;
type PostgresSaverOptions = NonNullable<ConstructorParameters<typeof PostgresSaver>[2]>;
type PutWritesArgs = Parameters<PostgresSaver["putWrites"]>;

/** Configurable keys that address the checkpoint rather than describe it. */
const NOT_METADATA = new Set(["checkpoint_ns", "checkpoint_id", "checkpoint_map", "thread_id", "run_id"]);

/** JSON scalars only (configurable may also carry callbacks, stores, functions, objects). */
const isPlain = (value: unknown): boolean => value === null || ["string", "number", "boolean"].includes(typeof value);

/** A run's held checkpoints, taken for the statement that ends the run. */
export interface TakenCheckpoints {
  /** Their statement's `WITH` parts. */
  ctes: Prisma.Sql;
  entries: HeldCheckpoint[];
}

/**
 * The official PostgreSQL saver (same tables, same reads), with these changes:
 * - every checkpoint's metadata records the run's config keys and metadata (run id, graph,
 *   assistant, the run's own `metadata`), as the official server does: history can be filtered by
 *   them, and a rolled-back run's checkpoints found;
 * - a checkpoint (its blobs and row) and a task's writes are each stored with ONE statement
 *   (multi-row inserts from arrays) instead of a transaction of one statement per row: atomic
 *   all the same, and a round trip instead of several on the hottest path of every run;
 * - a task's writes wait (at most for the checkpoint save under way on their thread, or a turn of
 *   the event loop) to be stored by the statement that saves the checkpoint that follows them,
 *   the next step's: one statement per step instead of two (see WriteStash);
 * - channel versions are unique to a branch (see getNextVersion);
 * - a run's first read of its thread's latest checkpoint can come from the statement that
 *   claimed the run (see prefetch);
 * - a run's root checkpoints are held back: several go in one statement, and its last ones can be
 *   stored by the statement that ends the run (see holdCheckpoints);
 * - by default its serializer reads a thread's state and history (inside `readPlain`) with their
 *   messages as the API's dicts, not revived into class instances (see plain-reads.ts).
 */
export class RuntimeCheckpointer extends PostgresSaver {
  private readonly tables: CheckpointTables;

  /** Task writes waiting to be stored with their thread's next checkpoint. */
  private readonly stash = new WriteStash((batch) => this.store(batch.runId, this.writesStatement(batch, false)));

  constructor(
    private readonly connections: pg.Pool,
    serde?: SerializerProtocol,
    options?: PostgresSaverOptions,
  ) {
    super(connections, serde ?? new RuntimeSerializer(), options);
    const statements = (this as unknown as { SQL_STATEMENTS: { SELECT_SQL: string } }).SQL_STATEMENTS;
    statements.SELECT_SQL = runtimeSelectSql(statements.SELECT_SQL);
    const schema = `"${options?.schema ?? "public"}"`;
    this.tables = {
      checkpoints: `${schema}.checkpoints`,
      blobs: `${schema}.checkpoint_blobs`,
      writes: `${schema}.checkpoint_writes`,
    };
  }

  /**
   * The next version of a channel: one more than the current one, plus a random fraction. Blobs
   * are keyed by (thread, namespace, channel, version) and never overwritten; with the official
   * saver's plain counter, a run from an earlier checkpoint (an edited message, a regenerated
   * answer) numbers its versions as the branch it forks from did, its blobs are dropped as
   * duplicates and its checkpoints read the other branch's values (langgraphjs#1812). Python's
   * saver adds a random part too; a number, not its string form, keeps versions comparable with
   * the integers of checkpoints already stored (LangGraph compares versions with `>`).
   */
  override getNextVersion(current: number | undefined): number {
    return Math.floor(typeof current === "number" ? current : 0) + 1 + Math.random();
  }

  /**
   * The official saver's read of a thread's latest root checkpoint, as a subquery on `threadId`
   * (an SQL expression of type text): a run's claim reads it in the same statement.
   */
  latestCheckpointSql(threadId: string): string {
    const { SELECT_SQL } = (this as unknown as { SQL_STATEMENTS: { SELECT_SQL: string } }).SQL_STATEMENTS;
    return `${SELECT_SQL} WHERE cp.thread_id = ${threadId} AND cp.checkpoint_ns = '' ORDER BY cp.checkpoint_id DESC LIMIT 1`;
  }

  protected override _loadBlobs(blobs: ReadBlob[][] | null): Promise<Record<string, unknown>> {
    return super._loadBlobs(rowsOfBytes(blobs) as [Uint8Array, Uint8Array, Uint8Array][]);
  }

  protected override _loadWrites(writes: ReadBlob[][] | null): Promise<[string, string, unknown][]> {
    return super._loadWrites(rowsOfBytes(writes) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array][]);
  }

  /** Latest checkpoints read by runs' claims, by run, until the run's graph asks for them. */
  private readonly prefetched = new Map<string, { threadId: string; row: CheckpointRow | null }>();

  /**
   * Keeps what a run's claim read of its thread's latest checkpoint (none: the thread has none)
   * for the run's first root read (`getTuple` with the run's id and no checkpoint id), which the
   * graph makes as it starts: a round trip fewer per run. Nothing else writes the thread's
   * checkpoints between the claim and that read, since the claim makes the run the thread's only
   * running one. Any other read goes to the database.
   */
  prefetch(runId: string, threadId: string, row: CheckpointRow | null): void {
    this.prefetched.set(runId, { threadId, row });
  }

  /** Drops a run's prefetched read its graph did not take (it failed before starting, say). */
  forgetPrefetch(runId: string): void {
    this.prefetched.delete(runId);
  }

  override async getTuple(config: RunnableConfig): ReturnType<PostgresSaver["getTuple"]> {
    const tuple = await this.readTuple(config);
    // A state read's checkpoint whose pending writes go through the graph's reducers: revived.
    return needsRevived(tuple, !config.configurable?.checkpoint_id) ? readRevived(() => this.readTuple(config)) : tuple;
  }

  override async *list(...args: Parameters<PostgresSaver["list"]>): ReturnType<PostgresSaver["list"]> {
    for await (const tuple of super.list(...args))
      yield needsRevived(tuple, false) ? ((await readRevived(() => super.getTuple(tuple.config))) ?? tuple) : tuple;
  }

  // A delta channel's history replays its ancestors' writes through the graph's reducer: revived.
  override getDeltaChannelHistory(...args: Parameters<PostgresSaver["getDeltaChannelHistory"]>) {
    return readRevived(() => super.getDeltaChannelHistory(...args));
  }

  private async readTuple(config: RunnableConfig): ReturnType<PostgresSaver["getTuple"]> {
    const { run_id: runId, thread_id: threadId, checkpoint_ns: ns = "", checkpoint_id: id } = config.configurable ?? {};
    const entry = typeof runId === "string" ? this.prefetched.get(runId) : undefined;
    // Checkpoints from before format 4 keep their sends apart: the official read migrates them.
    if (!entry || id || ns !== "" || threadId !== entry.threadId) return super.getTuple(config);
    this.prefetched.delete(runId);
    const row = entry.row;
    if (!row) return undefined;
    if (row.checkpoint.v < 4 && row.parent_checkpoint_id != null) return super.getTuple(config);
    const address = (checkpointId: string) => ({
      configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpointId },
    });
    return {
      config: address(row.checkpoint_id),
      checkpoint: await this._loadCheckpoint(row.checkpoint as never, row.channel_values as never),
      metadata: await this._loadMetadata(row.metadata),
      parentConfig: row.parent_checkpoint_id ? address(row.parent_checkpoint_id) : undefined,
      pendingWrites: await this._loadWrites(row.pending_writes),
    };
  }

  /** Runs holding their latest root checkpoints back for the statement that ends them. */
  private readonly holds = new HeldCheckpoints(
    (runId, checkpoints) => this.store(runId, statementOf(checkpointCtes(this.tables, checkpoints))),
    (batch) => this.stash.storeAlone(batch),
  );

  /**
   * From now on, the run's latest root checkpoints are held back (see HeldCheckpoints): their
   * saves resolve at once, several go in one statement, and the run's end can store its last
   * ones (takeHeld): round trips fewer per run. Not for `durability: "sync"`, which waits for each
   * checkpoint to be stored. `attempt` is the run's metadata `run_attempt`, which its saves carry.
   * The answer is this attempt's hold, for the calls below.
   */
  holdCheckpoints(runId: string, attempt: unknown): RunHold {
    return this.holds.start(runId, attempt);
  }

  /** Whether the run's checkpoints saved so far are stored (see HeldCheckpoints.landing). */
  landingOf(hold: RunHold | undefined): Landing | undefined {
    return hold && this.holds.landing(hold);
  }

  /** The graph is done: waits for the run's held checkpoints under way; fails if one failed. */
  async settleHeld(hold: RunHold | undefined): Promise<void> {
    if (hold) await this.holds.settle(hold);
  }

  /** Stores the run's held checkpoints now (before reading the thread's state); fails if one fails. */
  async flushHeld(hold: RunHold | undefined): Promise<void> {
    if (hold) await this.holds.flush(hold);
  }

  /** The run's held checkpoints, for the statement that ends the run to store (as its `WITH` parts). */
  async takeHeld(hold: RunHold | undefined): Promise<TakenCheckpoints | undefined> {
    const entries = hold ? await this.holds.take(hold) : undefined;
    return (
      entries && {
        ctes: checkpointCtes(
          this.tables,
          entries.map((entry) => entry.rows),
        ),
        entries,
      }
    );
  }

  /**
   * Drops the run's held checkpoints: its attempt stops without ending the run (superseded), and
   * the next resumes from the last checkpoint stored, as after a failed save.
   */
  dropHeld(hold: RunHold | undefined): void {
    if (hold) this.holds.drop(hold);
  }

  /**
   * Stores checkpoints taken with takeHeld without the run's end (its statement failed with them):
   * in order, as many as can be; fails with the first that cannot be stored.
   */
  async storeTaken(runId: string, taken: TakenCheckpoints): Promise<void> {
    await this.holds.storeInOrder(runId, taken.entries);
  }

  /** Runs whose writes are dropped (rolled back), and each run's statements under way. */
  private readonly discarded = new Set<string>();
  private readonly inflight = new Map<string, Set<Promise<unknown>>>();

  /**
   * Stops storing a run's checkpoints and writes (it is being rolled back); settles once those
   * already under way are stored, so deleting the run's checkpoints afterwards leaves none.
   */
  async discardRun(runId: string): Promise<void> {
    this.discarded.add(runId);
    await Promise.allSettled([...(this.inflight.get(runId) ?? [])]);
  }

  /**
   * Resolves once the run's statements under way, and its writes waiting for a checkpoint save,
   * are stored (or failed): a cancelled run's graph stops without waiting for them, and the run
   * must not end, freeing its thread for the next, before its last progress is in.
   */
  async settleRun(runId: string): Promise<void> {
    for (;;) {
      // Waiting writes go within a turn of the event loop, or with the save under way.
      await new Promise((resolve) => setImmediate(resolve));
      const pending = [...(this.inflight.get(runId) ?? [])];
      if (!pending.length && !this.stash.holds(runId)) return;
      await Promise.allSettled(pending);
    }
  }

  /** The run's rollback is over (its writes had all been discarded or deleted). */
  forgetRun(runId: string): void {
    this.discarded.delete(runId);
  }

  private async store(runId: unknown, statement: ReturnType<typeof prepared>): Promise<void> {
    if (typeof runId !== "string") {
      await this.connections.query(statement);
      return;
    }
    if (this.discarded.has(runId)) return;
    const pending = this.connections.query(statement);
    let set = this.inflight.get(runId);
    if (!set) this.inflight.set(runId, (set = new Set()));
    set.add(pending);
    try {
      await pending;
    } finally {
      set.delete(pending);
      if (!set.size) this.inflight.delete(runId);
    }
  }

  override async put(config: RunnableConfig, checkpoint: PutArgs[1], metadata: PutArgs[2], newVersions: PutArgs[3]) {
    const configurable = config.configurable ?? {};
    if (config.configurable === undefined) throw new Error(`Missing "configurable" field in "config" param`);
    // As the official server: the config's own keys (not internal ones, not the checkpoint's
    // address), then the run's metadata (run id, thread, assistant, the run's `metadata`), then
    // what the loop wrote (source, step, parents).
    const extra: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(configurable)) {
      if (!key.startsWith("__") && !NOT_METADATA.has(key) && isPlain(value)) extra[key] = value;
    }
    Object.assign(extra, config.metadata);
    const {
      thread_id: threadId,
      checkpoint_ns: checkpointNs = "",
      checkpoint_id: parentId,
      run_id: runId,
    } = configurable;
    // From here until this save ends, writes waiting on the thread wait for it: it takes those of
    // its parent checkpoint (the step it applies) into its statement.
    this.stash.saveStarted(threadId, checkpointNs);
    let writes: WriteBatch | undefined;
    try {
      const [blobs, serializedMetadata] = await Promise.all([
        this._dumpBlobs(threadId, checkpointNs, checkpoint.channel_values, newVersions),
        this._dumpMetadata({ ...extra, ...metadata } as PutArgs[2]),
      ]);
      writes = this.stash.take(threadId, checkpointNs, parentId);
      const rows: CheckpointRows = {
        threadId,
        ns: checkpointNs,
        id: checkpoint.id,
        parentId: parentId ?? null,
        blobs,
        checkpoint: this._dumpCheckpoint(checkpoint),
        metadata: serializedMetadata,
        writes: writes?.rows,
      };
      const hold =
        checkpointNs === "" && typeof runId === "string"
          ? this.holds.of(runId, config.metadata?.run_attempt)
          : undefined;
      if (hold && !this.discarded.has(runId)) {
        // Held back: its writes count as stored with it (HeldCheckpoints stores them alone if it fails).
        const taken = writes;
        writes = undefined;
        taken?.settle();
        await this.holds.save(hold, { rows, writes: taken });
      } else {
        await this.store(runId, statementOf(checkpointCtes(this.tables, [rows])));
        writes?.settle();
      }
    } catch (error) {
      // The writes it carried go alone, as they would have without it: a failed checkpoint must
      // not lose its step's finished tasks (the run resumes from the last checkpoint saved).
      if (writes) await this.stash.storeAlone(writes);
      throw error;
    } finally {
      this.stash.saveEnded(threadId, checkpointNs);
    }
    return { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpoint.id } };
  }

  /** One statement storing a batch of task writes (`upsert`: they replace earlier ones). */
  private writesStatement(batch: Omit<WriteBatch, "settle" | "runId">, upsert: boolean): pg.QueryConfig {
    const writes = batch.rows.map((row) => ({ ...row, checkpointId: batch.checkpointId }));
    const sql = writesInsert(this.tables.writes, batch.threadId, batch.ns, writes, upsert);
    return prepared(sql.text, sql.values as unknown[]);
  }

  override async putWrites(
    config: PutWritesArgs[0],
    writes: PutWritesArgs[1],
    taskId: PutWritesArgs[2],
  ): Promise<void> {
    if (writes.length === 0) return;
    const {
      thread_id: threadId,
      checkpoint_ns: ns = "",
      checkpoint_id: checkpointId,
      run_id: runId,
    } = config.configurable ?? {};
    const dumped = await this._dumpWrites(threadId, ns, checkpointId, taskId, writes);
    const rows: WriteRow[] = dumped.map((write) => ({
      taskId: write[3],
      idx: write[4],
      channel: write[5],
      type: write[6],
      blob: write[7],
    }));
    // Special channels (errors, interrupts, resumes) replace their previous write; others never do,
    // and may wait to go with the next checkpoint.
    if (writes.every((write) => write[0] in WRITES_IDX_MAP)) {
      await this.store(runId, this.writesStatement({ threadId, ns, checkpointId, rows }, true));
      return;
    }
    await this.stash.add({ threadId, ns, checkpointId }, runId, rows);
  }
}
