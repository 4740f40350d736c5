/**
 * Listing pages. Rows are ordered by `seq` (insertion order) descending: newest first. The
 * `offset` the API answers is a continuation position, `CURSOR_BASE + seq of the last row`, so the
 * next page is a keyset scan (`seq < last`): fast at any depth and stable while rows are inserted
 * concurrently (new rows land above the position, never shifting it). An offset below
 * CURSOR_BASE keeps its plain meaning (skip that many rows), for clients that compute offsets.
 */
export const CURSOR_BASE = 1_000_000_000_000;

export type PagePosition = { skip: number; beforeSeq?: undefined } | { skip: 0; beforeSeq: bigint };

export function decodeOffset(offset: number): PagePosition {
  if (offset >= CURSOR_BASE) return { skip: 0, beforeSeq: BigInt(offset - CURSOR_BASE) };
  return { skip: offset };
}

/** What to pass next: the position after the last row returned (unchanged when the page is empty). */
export function nextOffset(requested: number, rows: { seq: bigint }[]): number {
  const last = rows.at(-1);
  return last ? CURSOR_BASE + Number(last.seq) : requested;
}
