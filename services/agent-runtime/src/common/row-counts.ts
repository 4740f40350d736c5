// The kept counts of threads and assistants (table row_counts, kept exact by triggers: see the
// migration row_counts): an unfiltered search's X-Pagination-Total or an unfiltered count reads 16
// rows where COUNT(*) would read every row of the table.
import type { Db } from "../db";

/** Whether none of these narrows the rows (each a filter object, absent or empty). */
export const unfiltered = (...filters: (Record<string, unknown> | undefined)[]): boolean =>
  filters.every((filter) => !filter || Object.keys(filter).length === 0);

export async function keptCount(db: Db, relation: "threads" | "assistants"): Promise<number> {
  const [row] = await db.$queryRaw<{ count: bigint | null }[]>`
    SELECT sum(count) AS count FROM row_counts WHERE relation = ${relation}`;
  return Number(row?.count ?? 0);
}
