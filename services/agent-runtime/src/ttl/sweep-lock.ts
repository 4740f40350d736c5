// One sweeper per deployment, however many processes run it: a sweep runs only in the process
// that takes a PostgreSQL advisory lock for it, held on a connection of its own for the sweep.
import type pg from "pg";

/** Runs `sweep` if no other process is sweeping `name` now; answers whether it ran. */
export async function withSweepLock(pool: pg.Pool, name: string, sweep: () => Promise<unknown>): Promise<boolean> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS locked", [
      `lgp-sweep:${name}`,
    ]);
    if (!rows[0]?.locked) return false;
    try {
      await sweep();
      return true;
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [`lgp-sweep:${name}`]);
    }
  } finally {
    client.release();
  }
}
