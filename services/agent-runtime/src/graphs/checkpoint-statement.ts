// The statement that stores checkpoints: each one's blobs, its parent's task writes (the step it
// applies) and its row, as multi-row inserts from arrays. One checkpoint or several (a run's
// checkpoints held back together, see HeldCheckpoints) go in one statement, atomic as a whole, of
// the same text and the same number of parameters whatever their number (one prepared statement
// per connection, and no limit of PostgreSQL's 65,535 parameters). Task writes that go alone take
// the same insert as those a checkpoint carries.
import pg from "pg";
import { prepared } from "../common/prepared";
import { Prisma } from "../generated/prisma/client";
import type { WriteRow } from "./write-stash";

/** A blob as the saver dumps it: thread, namespace, channel, version, type, bytes (none: empty). */
export type BlobRow = [string, string, string, string, string, Uint8Array | undefined];

/** What storing one checkpoint writes. */
export interface CheckpointRows {
  threadId: string;
  ns: string;
  id: string;
  parentId: string | null;
  blobs: BlobRow[];
  checkpoint: unknown;
  metadata: unknown;
  /** The task writes of its parent checkpoint (the step it applies) that go with it. */
  writes?: WriteRow[];
}

/** The saver's three tables, schema-qualified and quoted. */
export interface CheckpointTables {
  checkpoints: string;
  blobs: string;
  writes: string;
}

const bytes = (value: Uint8Array | undefined): Buffer | null =>
  value ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : null;

/** A task write with the checkpoint it belongs to (its step's). */
export type AddressedWrite = WriteRow & { checkpointId: string | null };

/**
 * The insert of task writes of one thread and namespace, from arrays; `upsert`: they replace
 * earlier ones (interrupts, errors, resumes), otherwise a write already stored stays.
 */
export function writesInsert(
  table: string,
  threadId: string,
  ns: string,
  writes: AddressedWrite[],
  upsert: boolean,
): Prisma.Sql {
  return Prisma.sql`INSERT INTO ${Prisma.raw(table)} (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
         SELECT ${threadId}, ${ns}, checkpoint_id, task_id, idx, channel, type, blob
         FROM unnest(${writes.map((write) => write.checkpointId)}::text[], ${writes.map((write) => write.taskId)}::text[],
           ${writes.map((write) => write.idx)}::int[], ${writes.map((write) => write.channel)}::text[],
           ${writes.map((write) => write.type)}::text[], ${writes.map((write) => bytes(write.blob))}::bytea[])
           AS w(checkpoint_id, task_id, idx, channel, type, blob)
         ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) ${Prisma.raw(
           upsert
             ? "DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob"
             : "DO NOTHING",
         )}`;
}

/** A statement of `WITH` parts alone. */
export const statementOf = (ctes: Prisma.Sql): pg.QueryConfig => {
  const sql = Prisma.sql`WITH ${ctes} SELECT 1`;
  return prepared(sql.text, sql.values as unknown[]);
};

/**
 * Checkpoints of one thread and namespace (those of one run, in the order they were saved) as the
 * parts of a `WITH`: all their blobs, all their task writes and all their rows, one multi-row
 * insert each, which a run's end can carry. A checkpoint saved twice keeps its last save, as two
 * statements would leave it.
 */
export function checkpointCtes(tables: CheckpointTables, list: CheckpointRows[]): Prisma.Sql {
  const { threadId, ns } = list[0];
  const byId = new Map(list.map((rows) => [rows.id, rows]));
  const checkpoints = [...byId.values()];
  const blobs = list.flatMap((rows) => rows.blobs);
  const writes: AddressedWrite[] = list.flatMap((rows) =>
    (rows.writes ?? []).map((write) => ({ ...write, checkpointId: rows.parentId })),
  );
  const storeWrites = writes.length
    ? Prisma.sql`, cp_writes AS (${writesInsert(tables.writes, threadId, ns, writes, false)})`
    : Prisma.empty;
  return Prisma.sql`cp_blobs AS (
         INSERT INTO ${Prisma.raw(tables.blobs)} (thread_id, checkpoint_ns, channel, version, type, blob)
         SELECT ${threadId}, ${ns}, channel, version, type, blob
         FROM unnest(${blobs.map((blob) => blob[2])}::text[], ${blobs.map((blob) => blob[3])}::text[],
           ${blobs.map((blob) => blob[4])}::text[], ${blobs.map((blob) => bytes(blob[5]))}::bytea[]) AS b(channel, version, type, blob)
         ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
       )${storeWrites}, cp AS (
         INSERT INTO ${Prisma.raw(tables.checkpoints)} (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
         SELECT ${threadId}, ${ns}, id, parent_id, checkpoint::jsonb, metadata::jsonb
         FROM unnest(${checkpoints.map((rows) => rows.id)}::text[], ${checkpoints.map((rows) => rows.parentId)}::text[],
           ${checkpoints.map((rows) => JSON.stringify(rows.checkpoint))}::text[],
           ${checkpoints.map((rows) => JSON.stringify(rows.metadata))}::text[]) AS c(id, parent_id, checkpoint, metadata)
         ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
         DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata
       )`;
}
