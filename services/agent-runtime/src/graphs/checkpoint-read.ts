// The runtime's form of the official saver's checkpoint read (SELECT_SQL): the same columns, read
// the same way by the saver's loaders, with two changes that each bound a cost the official text
// lets grow. Each is a rewrite of the official text, which falls back to that text unchanged when
// a newer saver's read no longer has the part it rewrites. And the read's rows as the saver's
// loaders take them.
import { INTERRUPT } from "@langchain/langgraph-checkpoint";
import pg from "pg";

/** The blob arrays of the official read (a `bytea[][]` each), to aggregate as JSON instead. */
const BLOB_ARRAYS = /array_agg\((array\[[^\]]*\](?: order by [^)]*)?)\)/g;

/**
 * The official read with its two blob arrays answered as JSON (arrays of each bytea's text, hex
 * by default) instead of `bytea[][]`: `pg` parses an array's text character by character in
 * JavaScript (about 0.3 ms for a thread of 20 messages, growing with its history, on every run and
 * every state or history read), while JSON and hex are parsed natively. The text unchanged if it
 * no longer has exactly those two arrays (a newer saver): the loaders read both forms.
 */
export function jsonBlobArrays(selectSql: string): string {
  const rewritten = selectSql.replace(BLOB_ARRAYS, "array_to_json(array_agg($1))");
  return (selectSql.match(BLOB_ARRAYS) ?? []).length === 2 ? rewritten : selectSql;
}

/** The official read's join of a checkpoint's channel versions with the thread's blobs. */
const BLOB_JOIN =
  /inner join (\S+) bl\s+on (bl\.thread_id = cp\.thread_id\s+and bl\.checkpoint_ns = cp\.checkpoint_ns\s+and bl\.channel = jsonb_each_text\.key\s+and bl\.version = jsonb_each_text\.value)/;

/**
 * The official read with each of a checkpoint's channel values looked up by its blob's whole key
 * (thread, namespace, channel, version), one index probe per channel. The official join leaves the
 * planner free to hash it, and on a thread with a long history it did: every checkpoint read
 * scanned all the thread's blobs (40,000 at 10,000 checkpoints, 13 ms for the latest state, 57 ms
 * for a page of ten), so a state read, a history page and every run's claim grew with the
 * thread's age. A lateral subquery whose rows depend on each channel can only be joined by a
 * nested loop over the checkpoint's few channels. The text unchanged if the join is not found.
 */
export function keyedBlobReads(selectSql: string): string {
  return selectSql.replace(
    BLOB_JOIN,
    "cross join lateral (select bl.channel, bl.type, bl.blob from $1 bl\n        where $2 offset 0) bl",
  );
}

/** The read the runtime's saver makes (see the two rewrites above). */
export const runtimeSelectSql = (officialSelectSql: string): string =>
  keyedBlobReads(jsonBlobArrays(officialSelectSql));

/**
 * A bytea of the checkpoint read's blob arrays: its text form as the read answers it (see
 * jsonBlobArrays), bytes where the official saver adds one itself; `null` for no blob.
 */
export type ReadBlob = string | Uint8Array | null;

/** A row of the official saver's checkpoint read (`getTuple`'s), as `pg` answers it. */
export interface CheckpointRow {
  checkpoint: { v: number } & Record<string, unknown>;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  metadata: Record<string, unknown>;
  channel_values: ReadBlob[][] | null;
  pending_writes: ReadBlob[][] | null;
}

/**
 * Whether a checkpoint read (a claim's) stopped at an interrupt: a task's pending write on
 * LangGraph's interrupt channel, which the thread's state lists as that task's interrupt.
 */
export function hasPendingInterrupt(row: CheckpointRow | null): boolean {
  // Only each write's channel is decoded, not its value.
  return (row?.pending_writes ?? []).some(
    ([, channel]) => channel !== null && Buffer.from(bytesOf(channel)!).toString() === INTERRUPT,
  );
}

/** PostgreSQL's text form of a bytea to bytes, as `pg` parses a bytea column (hex, or `escape` output). */
const parseBytea = pg.types.getTypeParser(pg.types.builtins.BYTEA, "text") as (text: string) => Buffer;

const bytesOf = (blob: ReadBlob): Uint8Array | null => (typeof blob === "string" ? parseBytea(blob) : blob);

export const rowsOfBytes = <T extends ReadBlob[]>(rows: T[] | null): T[] | null =>
  rows && rows.map((row) => row.map(bytesOf) as T);
