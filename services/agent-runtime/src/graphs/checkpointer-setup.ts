// The checkpointer's tables, made once per database, even when several processes start together.
import type pg from "pg";
import { CHECKPOINT_SCHEMA } from "../threads/checkpoints";
import type { RuntimeCheckpointer } from "./checkpointer";

/** Creates the checkpointer's tables once, even when several processes start together. */
export async function setupCheckpointer(pool: pg.Pool, saver: RuntimeCheckpointer): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('lgp-checkpointer-setup'))");
    try {
      await saver.setup();
      // Python graphs' saver (the official Python one, on the same tables) writes each pending
      // write's task path too: its column, which the JS saver leaves at its default.
      await client.query(
        `ALTER TABLE "${CHECKPOINT_SCHEMA}".checkpoint_writes ADD COLUMN IF NOT EXISTS task_path TEXT NOT NULL DEFAULT ''`,
      );
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('lgp-checkpointer-setup'))");
    }
  } finally {
    client.release();
  }
}
