// Threads: rows in PostgreSQL, state in the checkpointer (read through the thread's graph).
import type { AgentRuntime } from "@lgp/contracts";
import { ConflictError, NotFoundError, invalid } from "@lgp/server-kit";
import { allowAll, type AuthContext, type Authorize } from "../auth";
import { toPlain } from "../common/serde";
import { readPlain } from "../graphs/plain-reads";
import type { GraphAccess, GraphRegistry } from "../graphs/registry";
import type { CheckpointTables } from "./checkpoints";
import type { ThreadFilter, ThreadRepository, ThreadRow, ThreadSortBy, ThreadStatus } from "./repository";
import { emptyState, interruptsOf, toThreadState, type ThreadState } from "./state";
import { expiryOf, type PruneStrategy, type ThreadTtl } from "./ttl";

type Schemas = AgentRuntime.components["schemas"];
export type Thread = Schemas["Thread"];
type ThreadCreate = Schemas["ThreadCreate"];
type ThreadSearch = Schemas["ThreadSearch"];
type ThreadStateUpdate = Schemas["ThreadStateUpdate"];
type ThreadHistoryQuery = Schemas["ThreadHistoryQuery"];
type CheckpointInput = Schemas["CheckpointInput"];
type CheckpointRef = Schemas["CheckpointRef"];

export function toThread(row: ThreadRow): Thread {
  return {
    thread_id: row.thread_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    metadata: row.metadata,
    status: row.status,
    config: row.config,
    values: row.values ?? {},
    interrupts: row.interrupts ?? {},
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export class ThreadService {
  private readonly deletedListeners: ((threadId: string) => void)[] = [];
  private readonly deletingListeners: ((threadId: string) => Promise<void>)[] = [];

  constructor(
    private readonly repository: ThreadRepository,
    private readonly graphs: GraphRegistry,
    private readonly checkpoints: CheckpointTables,
    private readonly authorize: Authorize = allowAll,
  ) {}

  /**
   * The thread, if the caller may `action` it: another user's thread is absent (404), as the
   * official server answers. Without `auth` (an internal call) every thread is visible.
   */
  async require(
    threadId: string,
    auth?: AuthContext,
    action: "read" | "update" | "delete" | "create_run" = "read",
    value: Record<string, unknown> = {},
  ): Promise<ThreadRow> {
    const { filters } = await this.authorize(auth, `threads:${action}`, { thread_id: threadId, ...value });
    const row = await this.repository.find(threadId, filters);
    if (!row) throw new NotFoundError(`Thread "${threadId}" not found`);
    return row;
  }

  private graphIdOf(row: ThreadRow): string | undefined {
    const graphId = row.metadata?.graph_id;
    return typeof graphId === "string" && this.graphs.has(graphId) ? graphId : undefined;
  }

  /** The thread's graph; a factory graph is built with the config its runs used (kept on the thread). */
  private async graphFor(row: ThreadRow, access: GraphAccess = "threads.read"): Promise<any | undefined> {
    const graphId = this.graphIdOf(row);
    return graphId
      ? this.graphs.get(
          graphId,
          { configurable: { thread_id: row.thread_id, ...(row.config?.configurable as object) } },
          { access },
        )
      : undefined;
  }

  private configFor(threadId: string, checkpoint?: CheckpointInput | null, checkpointId?: string): Record<string, any> {
    return {
      configurable: {
        thread_id: threadId,
        checkpoint_ns: checkpoint?.checkpoint_ns ?? "",
        ...(checkpoint?.checkpoint_id || checkpointId
          ? { checkpoint_id: checkpoint?.checkpoint_id ?? checkpointId }
          : {}),
        ...(checkpoint?.checkpoint_map ? { checkpoint_map: checkpoint.checkpoint_map } : {}),
      },
    };
  }

  async create(body: ThreadCreate, auth?: AuthContext): Promise<Thread> {
    const threadId = body.thread_id?.toLowerCase() ?? crypto.randomUUID();
    const { filters, value } = await this.authorize(auth, "threads:create", {
      thread_id: threadId,
      metadata: { ...(body.metadata ?? {}) },
      if_exists: body.if_exists,
    });
    const metadata: Record<string, unknown> = { ...(value.metadata ?? {}) };
    const graphId = typeof metadata.graph_id === "string" ? metadata.graph_id : undefined;
    if (graphId && !this.graphs.has(graphId)) throw new NotFoundError(`Graph "${graphId}" not found`);
    if (body.supersteps?.length && !graphId) {
      throw invalid(["body", "metadata", "graph_id"], "supersteps need metadata.graph_id to name the thread's graph");
    }
    const row = await this.repository.insert({ threadId, metadata, expiry: expiryOf(body.ttl) });
    if (!row) {
      const existing = body.if_exists === "do_nothing" && (await this.repository.find(threadId, filters));
      if (existing) return toThread(existing);
      throw new ConflictError(`Thread "${threadId}" already exists`);
    }
    if (body.supersteps?.length && graphId) {
      try {
        const graph = await this.graphFor(row, "threads.update");
        await graph.bulkUpdateState(
          this.configFor(threadId),
          body.supersteps.map((step) => ({
            updates: step.updates.map((update) => ({ values: update.values, asNode: update.as_node })),
          })),
        );
      } catch (error) {
        await this.repository.delete(threadId);
        await this.checkpoints.deleteThread(threadId);
        throw invalid(["body", "supersteps"], (error as Error).message);
      }
      await this.refreshState(threadId);
      return toThread(await this.require(threadId));
    }
    return toThread(row);
  }

  async get(threadId: string, auth?: AuthContext): Promise<Thread> {
    return toThread(await this.require(threadId, auth));
  }

  /** Merges metadata; a `ttl` sets the thread's expiry anew, from now. */
  async update(threadId: string, metadata: object | undefined, ttl?: ThreadTtl, auth?: AuthContext): Promise<Thread> {
    const { filters, value } = await this.authorize(auth, "threads:update", {
      thread_id: threadId,
      metadata: { ...(metadata ?? {}) } as Record<string, unknown>,
    });
    const row = await this.repository.update(threadId, value.metadata ?? {}, expiryOf(ttl), filters);
    if (!row) throw new NotFoundError(`Thread "${threadId}" not found`);
    return toThread(row);
  }

  async delete(threadId: string, auth?: AuthContext): Promise<void> {
    if (auth) await this.require(threadId, auth, "delete");
    for (const listener of this.deletingListeners) await listener(threadId);
    if (!(await this.repository.delete(threadId))) throw new NotFoundError(`Thread "${threadId}" not found`);
    await this.checkpoints.deleteThread(threadId);
    for (const listener of this.deletedListeners) listener(threadId);
  }

  /**
   * `delete`: deletes each thread as `delete` does (its active runs stop); `keep_latest`: keeps
   * each thread with its latest checkpoint only. Threads that do not exist are skipped.
   */
  async prune(
    threadIds: string[],
    strategy: PruneStrategy = "delete",
    auth?: AuthContext,
  ): Promise<{ pruned_count: number }> {
    let pruned = 0;
    for (const threadId of new Set(threadIds.map((id) => id.toLowerCase()))) {
      // Another user's thread is skipped, as one that does not exist is.
      if (auth && !(await this.visible(threadId, auth, "delete"))) continue;
      if (await this.pruneOne(threadId, strategy)) pruned++;
    }
    return { pruned_count: pruned };
  }

  private async visible(threadId: string, auth: AuthContext, action: "read" | "delete"): Promise<boolean> {
    try {
      await this.require(threadId, auth, action);
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  private async pruneOne(threadId: string, strategy: PruneStrategy): Promise<boolean> {
    if (strategy === "keep_latest") {
      if (!(await this.repository.find(threadId))) return false;
      await this.checkpoints.keepLatest(threadId);
      return true;
    }
    try {
      await this.delete(threadId);
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) return false; // deleted meanwhile (another sweeper, a user)
      throw error;
    }
  }

  /**
   * Applies the TTL strategy of up to `limit` expired threads (the sweeper calls it); a thread kept
   * with `keep_latest` has no expiry afterwards. How many were swept.
   */
  async sweepExpired(
    limit = 100,
    onFailure: (threadId: string, error: unknown) => void = () => undefined,
  ): Promise<number> {
    let swept = 0;
    const failed: string[] = [];
    for (;;) {
      const expired = await this.repository.expired(limit, failed);
      for (const { thread_id: threadId, ttl_strategy: strategy } of expired) {
        // One thread that cannot be swept (say its graph no longer loads) must not stop the others.
        try {
          await this.pruneOne(threadId, strategy ?? "delete");
          if (strategy === "keep_latest") await this.repository.clearExpiry(threadId);
          swept += 1;
        } catch (error) {
          failed.push(threadId);
          onFailure(threadId, error);
        }
      }
      // A full batch may have more behind it.
      if (expired.length < limit) return swept;
    }
  }

  /** Called before a thread is deleted through this service (its active runs are stopped). */
  onDeleting(listener: (threadId: string) => Promise<void>): void {
    this.deletingListeners.push(listener);
  }

  /** Called with the id of every thread deleted through this service. */
  onDeleted(listener: (threadId: string) => void): void {
    this.deletedListeners.push(listener);
  }

  async search(
    query: ThreadSearch,
    auth?: AuthContext,
  ): Promise<{ threads: Partial<Thread>[]; total: number; next: number | null }> {
    const limit = query.limit ?? 10;
    const offset = query.offset ?? 0;
    const { filters, value } = await this.authorize(auth, "threads:search", {
      metadata: query.metadata,
      values: query.values,
      status: query.status,
      ids: query.ids,
      limit,
      offset,
    });
    const { rows, total } = await this.repository.search(
      { status: value.status, metadata: value.metadata, values: value.values, ids: value.ids, access: filters },
      { limit, offset, sortBy: (query.sort_by ?? "created_at") as ThreadSortBy, sortOrder: query.sort_order ?? "desc" },
    );
    const threads = rows
      .map(toThread)
      .map((thread) =>
        query.select?.length
          ? (Object.fromEntries(query.select.map((key) => [key, thread[key as keyof Thread]])) as Partial<Thread>)
          : thread,
      );
    return { threads, total, next: offset + rows.length < total ? offset + rows.length : null };
  }

  async count(filter: ThreadFilter, auth?: AuthContext): Promise<number> {
    const { filters, value } = await this.authorize(auth, "threads:search", { ...filter, limit: 0, offset: 0 });
    return this.repository.count({
      status: value.status,
      metadata: value.metadata,
      values: value.values,
      ids: value.ids,
      access: filters,
    });
  }

  /** A new thread with the same metadata and the whole checkpoint history. */
  async copy(threadId: string, auth?: AuthContext): Promise<Thread> {
    const source = await this.require(threadId, auth);
    const copyId = crypto.randomUUID();
    // Copying is creating: the caller needs that right too, and its handler may stamp the copy.
    const { value } = await this.authorize(auth, "threads:create", {
      thread_id: copyId,
      metadata: { ...source.metadata },
    });
    const row = await this.repository.insert({
      threadId: copyId,
      metadata: value.metadata,
      config: source.config,
      status: source.status === "busy" ? "idle" : source.status,
      values: source.values,
    });
    if (!row) throw new ConflictError("Thread id collision; retry");
    await this.checkpoints.copyThread(threadId, copyId);
    await this.refreshState(copyId);
    return toThread(await this.require(copyId));
  }

  async state(
    threadId: string,
    checkpoint?: CheckpointInput | string,
    subgraphs = false,
    auth?: AuthContext,
  ): Promise<ThreadState> {
    const row = await this.require(threadId, auth);
    const graph = await this.graphFor(row);
    if (!graph) return emptyState();
    const config =
      typeof checkpoint === "string"
        ? this.configFor(threadId, null, checkpoint)
        : this.configFor(threadId, checkpoint);
    // Messages come back as the API's dicts where they can (read for the API, never for a node).
    const snapshot = await readPlain(() => graph.getState(config, { subgraphs }));
    // A missing checkpoint comes back as an empty snapshot (no creation time).
    if (config.configurable.checkpoint_id && !snapshot.createdAt) {
      throw new NotFoundError(`Checkpoint "${config.configurable.checkpoint_id}" not found`);
    }
    if (!snapshot.config?.configurable?.checkpoint_id || !snapshot.createdAt) return emptyState();
    return toThreadState(snapshot);
  }

  async history(threadId: string, query: ThreadHistoryQuery, auth?: AuthContext): Promise<ThreadState[]> {
    const row = await this.require(threadId, auth);
    const graph = await this.graphFor(row);
    if (!graph) return [];
    const raw = query.before as
      string | { checkpoint_id?: string; configurable?: { checkpoint_id?: string } } | undefined;
    const beforeId = typeof raw === "string" ? raw : (raw?.configurable?.checkpoint_id ?? raw?.checkpoint_id);
    const before = beforeId ? { configurable: { checkpoint_id: beforeId } } : undefined;
    const states: ThreadState[] = [];
    const snapshots = graph.getStateHistory(this.configFor(threadId, query.checkpoint), {
      limit: query.limit ?? 10,
      before,
      filter: query.metadata && Object.keys(query.metadata).length ? query.metadata : undefined,
    });
    // The page's checkpoints are all read within the context (see `state`).
    await readPlain(async () => {
      for await (const snapshot of snapshots) states.push(toThreadState(snapshot));
    });
    return states;
  }

  /** Writes values as `as_node` (409 while a run is active on the thread). */
  async updateState(
    threadId: string,
    body: ThreadStateUpdate,
    auth?: AuthContext,
  ): Promise<{ checkpoint: CheckpointRef; configurable: CheckpointRef }> {
    const row = await this.require(threadId, auth, "update");
    if (row.status === "busy") throw new ConflictError(`Thread "${threadId}" is busy with a run`);
    const graph = await this.graphFor(row, "threads.update");
    if (!graph) throw invalid(["path", "thread_id"], "the thread has no graph yet (no run, no metadata.graph_id)");
    let next;
    try {
      next = await graph.updateState(
        this.configFor(threadId, body.checkpoint, body.checkpoint_id),
        body.values ?? null,
        body.as_node,
      );
    } catch (error) {
      throw invalid(["body"], (error as Error).message);
    }
    await this.refreshState(threadId);
    const checkpoint = toPlain<CheckpointRef>({ checkpoint_ns: "", ...next.configurable });
    return { checkpoint, configurable: checkpoint };
  }

  /** Mirrors the latest checkpoint's values and interrupts onto the thread row. */
  async refreshState(threadId: string, status?: ThreadStatus): Promise<void> {
    const row = await this.require(threadId);
    const graph = await this.graphFor(row);
    if (!graph) return;
    const snapshot = await readPlain(() => graph.getState(this.configFor(threadId)));
    const interrupts = interruptsOf(snapshot);
    // An interrupted thread stays so while it has steps to resume (an update while stopped before
    // a node leaves `next` as it was).
    const stopped =
      Object.keys(interrupts).length > 0 || (row.status === "interrupted" && (snapshot.next?.length ?? 0) > 0);
    await this.repository.setState(threadId, {
      values: toPlain(snapshot.values ?? {}),
      interrupts,
      status: status ?? (row.status === "busy" ? undefined : stopped ? "interrupted" : "idle"),
    });
  }

  /** Deletes the threads with this metadata (those of them the caller may delete). */
  async deleteByMetadata(metadata: object, auth?: AuthContext): Promise<void> {
    const { filters } = await this.authorize(auth, "threads:delete", { metadata });
    for (const threadId of await this.repository.idsWithMetadata(metadata, filters)) {
      await this.repository.delete(threadId);
      await this.checkpoints.deleteThread(threadId);
      for (const listener of this.deletedListeners) listener(threadId);
    }
  }
}
