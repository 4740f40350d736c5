// Whole-thread operations on the checkpointer's tables that the saver has no method for.
import { Prisma } from "../generated/prisma/client";
import type { Db } from "../db";

/** The PostgreSQL schema holding the checkpointer's tables (apart from the Prisma models). */
export const CHECKPOINT_SCHEMA = "langgraph";

const table = (name: string) => Prisma.raw(`"${CHECKPOINT_SCHEMA}"."${name}"`);

export class CheckpointTables {
  constructor(private readonly db: Db) {}

  /** Copies every checkpoint, blob and pending write of a thread to another thread id. */
  async copyThread(from: string, to: string): Promise<void> {
    await this.db.$transaction([
      this.db.$executeRaw`
        INSERT INTO ${table("checkpoints")} (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)
        SELECT ${to}, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,
               CASE WHEN metadata ? 'thread_id' THEN jsonb_set(metadata, '{thread_id}', to_jsonb(${to}::text)) ELSE metadata END
        FROM ${table("checkpoints")} WHERE thread_id = ${from}`,
      this.db.$executeRaw`
        INSERT INTO ${table("checkpoint_blobs")} (thread_id, checkpoint_ns, channel, version, type, blob)
        SELECT ${to}, checkpoint_ns, channel, version, type, blob FROM ${table("checkpoint_blobs")} WHERE thread_id = ${from}`,
      this.db.$executeRaw`
        INSERT INTO ${table("checkpoint_writes")} (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob, task_path)
        SELECT ${to}, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob, task_path
        FROM ${table("checkpoint_writes")} WHERE thread_id = ${from}`,
    ]);
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.db.$transaction([
      this.db.$executeRaw`DELETE FROM ${table("checkpoints")} WHERE thread_id = ${threadId}`,
      this.db.$executeRaw`DELETE FROM ${table("checkpoint_blobs")} WHERE thread_id = ${threadId}`,
      this.db.$executeRaw`DELETE FROM ${table("checkpoint_writes")} WHERE thread_id = ${threadId}`,
    ]);
  }

  /**
   * Keeps only the latest checkpoint of each namespace of a thread (its current state): older
   * checkpoints go, with their pending writes and the blobs no kept checkpoint refers to. The kept
   * checkpoints lose their parent, which no longer exists.
   */
  async keepLatest(threadId: string): Promise<void> {
    await this.db.$transaction([
      this.db.$executeRaw`
        DELETE FROM ${table("checkpoints")} c
        WHERE c.thread_id = ${threadId} AND c.checkpoint_id < (
          SELECT max(l.checkpoint_id) FROM ${table("checkpoints")} l
          WHERE l.thread_id = c.thread_id AND l.checkpoint_ns = c.checkpoint_ns)`,
      this.db.$executeRaw`
        DELETE FROM ${table("checkpoint_writes")} w
        WHERE w.thread_id = ${threadId} AND NOT EXISTS (
          SELECT 1 FROM ${table("checkpoints")} c
          WHERE c.thread_id = w.thread_id AND c.checkpoint_ns = w.checkpoint_ns AND c.checkpoint_id = w.checkpoint_id)`,
      this.db.$executeRaw`
        DELETE FROM ${table("checkpoint_blobs")} b
        WHERE b.thread_id = ${threadId} AND NOT EXISTS (
          SELECT 1 FROM ${table("checkpoints")} c
          WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
            AND c.checkpoint->'channel_versions'->>b.channel = b.version)`,
      this.db.$executeRaw`
        UPDATE ${table("checkpoints")} SET parent_checkpoint_id = NULL
        WHERE thread_id = ${threadId} AND parent_checkpoint_id IS NOT NULL`,
    ]);
  }

  /** Whether a run has written a checkpoint (so a new attempt resumes instead of restarting). */
  async hasRunCheckpoint(threadId: string, runId: string): Promise<boolean> {
    const rows = await this.db.$queryRaw<{ n: number }[]>`
      SELECT 1 AS n FROM ${table("checkpoints")} WHERE thread_id = ${threadId} AND metadata->>'run_id' = ${runId} LIMIT 1`;
    return rows.length > 0;
  }

  /** Deletes the checkpoints a run wrote (rollback). */
  async deleteRunCheckpoints(threadId: string, runId: string): Promise<void> {
    await this.db.$transaction([
      this.db.$executeRaw`
        DELETE FROM ${table("checkpoint_writes")} w USING ${table("checkpoints")} c
        WHERE c.thread_id = ${threadId} AND c.metadata->>'run_id' = ${runId}
          AND w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id`,
      this.db.$executeRaw`
        DELETE FROM ${table("checkpoints")} WHERE thread_id = ${threadId} AND metadata->>'run_id' = ${runId}`,
    ]);
  }
}
