// The kept counts of threads and assistants, of threads per status and of assistants per graph
// (table row_counts, kept exact by triggers: see the migrations row_counts, thread_status_counts and
// assistant_graph_counts): an unfiltered search's X-Pagination-Total or an unfiltered count, or one
// filtered by a thread status or an assistant graph alone, reads 16 rows where COUNT(*) would read
// every row it counts.
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";

/** Whether none of these narrows the rows (each a filter object, absent or empty). */
export const unfiltered = (...filters: (Record<string, unknown> | undefined)[]): boolean =>
  filters.every((filter) => !filter || Object.keys(filter).length === 0);

/** A table's rows, or threads of one status kept by triggers (`threads:status:error`). */
export type CountedRelation = "threads" | "assistants" | `threads:status:${string}`;

export function keptCount(db: Db, relation: CountedRelation): Promise<number> {
  return keptSum(db, Prisma.sql`${relation}`);
}

/**
 * Threads of one status (a status never seen counts 0). Every run moves its thread from idle to
 * busy and back, so those two have no counters (migration thread_status_counts_off_run_path): busy
 * threads, one per run in flight or queued, are counted by the status index, and idle ones are the
 * kept total less the busy ones and the kept others, in one statement (one snapshot).
 */
export async function threadStatusCount(db: Db, status: string): Promise<number> {
  if (status !== "idle" && status !== "busy") return keptCount(db, `threads:status:${status}`);
  const [row] =
    status === "busy"
      ? await db.$queryRaw<{ count: bigint | null }[]>`SELECT count(*) AS count FROM threads WHERE status = 'busy'`
      : await db.$queryRaw<{ count: bigint | null }[]>`
          SELECT (SELECT coalesce(sum(count), 0) FROM row_counts WHERE relation = 'threads')
               - (SELECT count(*) FROM threads WHERE status = 'busy')
               - (SELECT coalesce(sum(count), 0) FROM row_counts WHERE relation LIKE 'threads:status:%') AS count`;
  return Number(row?.count ?? 0);
}

/** Assistants of one graph (a graph never seen counts 0). Its rows are named by the database's
 * assistants_graph_relation (a long graph id by its hash), so the name is made in one place. */
export function keptGraphCount(db: Db, graphId: string): Promise<number> {
  return keptSum(db, Prisma.sql`assistants_graph_relation(${graphId})`);
}

/** The sum of a relation's shards. */
async function keptSum(db: Db, relation: Prisma.Sql): Promise<number> {
  const [row] = await db.$queryRaw<{ count: bigint | null }[]>`
    SELECT sum(count) AS count FROM row_counts WHERE relation = ${relation}`;
  return Number(row?.count ?? 0);
}
