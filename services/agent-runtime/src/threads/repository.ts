// Thread rows. `values`/`interrupts` mirror the latest checkpoint so search can filter on them.
import type { CheckpointerTtlSettings } from "../ttl/settings";
import { Prisma } from "../generated/prisma/client";
import type { Db } from "../db";
import { keptCount, threadStatusCount, unfiltered } from "../common/row-counts";
import { filtersSql, type AuthFilters } from "../auth";
import type { PruneStrategy, ThreadExpiry } from "./ttl";

export type ThreadStatus = "idle" | "busy" | "interrupted" | "error";

export interface ThreadRow {
  thread_id: string;
  status: ThreadStatus;
  metadata: Record<string, unknown>;
  config: Record<string, unknown>;
  values: Record<string, unknown> | null;
  interrupts: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  /** Set by a `ttl`: once past, the sweeper applies `ttl_strategy`. */
  expires_at: Date | null;
  ttl_strategy: PruneStrategy | null;
}

export interface ThreadFilter {
  status?: ThreadStatus;
  metadata?: Record<string, unknown>;
  values?: Record<string, unknown>;
  ids?: string[];
  /** What the caller may see (its auth handler's filters on metadata). */
  access?: AuthFilters;
}

const SORT_COLUMNS = {
  thread_id: Prisma.sql`thread_id`,
  status: Prisma.sql`status`,
  created_at: Prisma.sql`created_at`,
  updated_at: Prisma.sql`updated_at`,
} as const;

export type ThreadSortBy = keyof typeof SORT_COLUMNS;

function where(filter: ThreadFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (filter.status) conditions.push(Prisma.sql`status = ${filter.status}`);
  if (filter.metadata && Object.keys(filter.metadata).length) {
    conditions.push(Prisma.sql`metadata @> ${JSON.stringify(filter.metadata)}::jsonb`);
  }
  if (filter.values && Object.keys(filter.values).length) {
    conditions.push(Prisma.sql`"values" @> ${JSON.stringify(filter.values)}::jsonb`);
  }
  if (filter.ids) {
    if (!filter.ids.length) conditions.push(Prisma.sql`FALSE`);
    else conditions.push(Prisma.sql`thread_id IN (${Prisma.join(filter.ids.map((id) => Prisma.sql`${id}::uuid`))})`);
  }
  if (filter.access) conditions.push(filtersSql(Prisma.sql`metadata`, filter.access));
  return Prisma.join(conditions, " AND ");
}

export class ThreadRepository {
  constructor(
    private readonly db: Db,
    /** langgraph.json's checkpointer.ttl: the expiry of threads created without a `ttl`. */
    private readonly defaultTtl: Pick<CheckpointerTtlSettings, "defaultTtlMinutes" | "strategy"> = {
      strategy: "delete",
    },
  ) {}

  private defaultExpiry(): ThreadExpiry | undefined {
    const minutes = this.defaultTtl.defaultTtlMinutes;
    return minutes === undefined
      ? undefined
      : { expiresAt: new Date(Date.now() + minutes * 60_000), strategy: this.defaultTtl.strategy };
  }

  /** The thread, if it exists and `access` lets the caller see it. */
  async find(threadId: string, access?: AuthFilters): Promise<ThreadRow | undefined> {
    const rows = await this.db.$queryRaw<ThreadRow[]>`
      SELECT * FROM threads WHERE thread_id = ${threadId}::uuid AND ${filtersSql(Prisma.sql`metadata`, access)}`;
    return rows[0];
  }

  /** Inserts a thread (without an expiry: checkpointer.ttl's default, if any); undefined when the id is taken. */
  async insert(thread: {
    threadId: string;
    metadata: object;
    config?: object;
    status?: ThreadStatus;
    values?: object | null;
    expiry?: ThreadExpiry;
  }): Promise<ThreadRow | undefined> {
    const expiry = thread.expiry ?? this.defaultExpiry();
    const rows = await this.db.$queryRaw<ThreadRow[]>`
      INSERT INTO threads (thread_id, metadata, config, status, "values", expires_at, ttl_strategy)
      VALUES (${thread.threadId}::uuid, ${JSON.stringify(thread.metadata)}::jsonb, ${JSON.stringify(thread.config ?? {})}::jsonb,
              ${thread.status ?? "idle"}, ${thread.values == null ? null : JSON.stringify(thread.values)}::jsonb,
              ${expiry?.expiresAt ?? null}::timestamptz, ${expiry?.strategy ?? null})
      ON CONFLICT (thread_id) DO NOTHING RETURNING *`;
    return rows[0];
  }

  /** Merges metadata and, when an expiry is given, replaces the thread's expiry. */
  async update(
    threadId: string,
    metadata: object,
    expiry?: ThreadExpiry,
    access?: AuthFilters,
  ): Promise<ThreadRow | undefined> {
    const rows = await this.db.$queryRaw<ThreadRow[]>`
      UPDATE threads SET metadata = metadata || ${JSON.stringify(metadata)}::jsonb, updated_at = now(),
        expires_at = CASE WHEN ${!!expiry} THEN ${expiry?.expiresAt ?? null}::timestamptz ELSE expires_at END,
        ttl_strategy = CASE WHEN ${!!expiry} THEN ${expiry?.strategy ?? null} ELSE ttl_strategy END
      WHERE thread_id = ${threadId}::uuid AND ${filtersSql(Prisma.sql`metadata`, access)} RETURNING *`;
    return rows[0];
  }

  /** Expired threads, oldest expiry first, leaving out `skip` (those this sweep could not sweep). */
  async expired(
    limit: number,
    skip: string[] = [],
  ): Promise<{ thread_id: string; ttl_strategy: PruneStrategy | null }[]> {
    return this.db.$queryRaw`
      SELECT thread_id, ttl_strategy FROM threads
      WHERE expires_at <= now() AND NOT (thread_id::text = ANY(${skip}::text[]))
      ORDER BY expires_at LIMIT ${limit}`;
  }

  async clearExpiry(threadId: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE threads SET expires_at = NULL, ttl_strategy = NULL WHERE thread_id = ${threadId}::uuid`;
  }

  /** Records the latest state (after a state update or a run). */
  async setState(
    threadId: string,
    state: { values: object | null; interrupts: object; status?: ThreadStatus },
  ): Promise<void> {
    await this.db.$executeRaw`
      UPDATE threads SET "values" = ${state.values == null ? null : JSON.stringify(state.values)}::jsonb,
        interrupts = ${JSON.stringify(state.interrupts)}::jsonb,
        status = COALESCE(${state.status ?? null}, status), updated_at = now()
      WHERE thread_id = ${threadId}::uuid`;
  }

  async delete(threadId: string): Promise<boolean> {
    return (await this.db.$executeRaw`DELETE FROM threads WHERE thread_id = ${threadId}::uuid`) > 0;
  }

  async idsWithMetadata(metadata: object, access?: AuthFilters): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ thread_id: string }[]>`
      SELECT thread_id FROM threads
      WHERE metadata @> ${JSON.stringify(metadata)}::jsonb AND ${filtersSql(Prisma.sql`metadata`, access)}`;
    return rows.map((row) => row.thread_id);
  }

  async search(
    filter: ThreadFilter,
    options: { limit: number; offset: number; sortBy: ThreadSortBy; sortOrder: "asc" | "desc" },
  ): Promise<{ rows: ThreadRow[]; total: number }> {
    const order = options.sortOrder === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
    const [rows, total] = await Promise.all([
      this.db.$queryRaw<ThreadRow[]>`
        SELECT * FROM threads WHERE ${where(filter)}
        ORDER BY ${SORT_COLUMNS[options.sortBy]} ${order}, thread_id ${order}
        LIMIT ${options.limit} OFFSET ${options.offset}`,
      this.count(filter),
    ]);
    return { rows, total };
  }

  async count(filter: ThreadFilter): Promise<number> {
    // Narrowed by nothing but (maybe) a status, the count is kept; an auth handler's filter narrows.
    if (!filter.ids && unfiltered(filter.metadata, filter.values, filter.access))
      return filter.status ? threadStatusCount(this.db, filter.status) : keptCount(this.db, "threads");
    const rows = await this.db.$queryRaw<
      { count: bigint }[]
    >`SELECT COUNT(*) AS count FROM threads WHERE ${where(filter)}`;
    return Number(rows[0].count);
  }
}
