// What became of the soak's runs, read from the runtime's database: every run the API answered
// must be stored and end `success` (lost, failed: 0), none may be left `pending` or `running`
// (stuck: 0), and each thread, made for one run, must hold one run whose three steps' output is
// in its state once (duplicated: 0; a step run again after a fault is fine as long as its output
// was not kept twice).
import { Client as PgClient } from "pg";

const ACTIVE = ["pending", "running"];

export interface Outcome {
  /** Runs in the database (answered or not: a create whose answer was lost may have stored one). */
  stored: number;
  /** Runs answered with an id but not in the database. */
  lost: number;
  /** Runs still pending or running. */
  stuck: number;
  /** Runs ended other than `success`, or `success` without all three steps' output. */
  failed: number;
  /** Threads with more than one run, or with a step's output more than once. */
  duplicated: number;
  byStatus: Record<string, number>;
}

/** Runs not yet ended (for the progress line and the drain). */
export async function activeRuns(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (db) => {
    const { rows } = await db.query("SELECT count(*)::int AS n FROM runs WHERE status = ANY($1)", [ACTIVE]);
    return rows[0].n as number;
  });
}

/** Runs by status (for the progress line). */
export async function runsByStatus(databaseUrl: string): Promise<Record<string, number>> {
  return withClient(databaseUrl, statusCounts);
}

async function statusCounts(db: PgClient): Promise<Record<string, number>> {
  const { rows } = await db.query("SELECT status, count(*)::int AS n FROM runs GROUP BY status");
  return Object.fromEntries(rows.map((row) => [row.status as string, row.n as number]));
}

export async function outcome(databaseUrl: string, acknowledged: Set<string>): Promise<Outcome> {
  return withClient(databaseUrl, async (db) => {
    const byStatus = await statusCounts(db);
    const stored = Object.values(byStatus).reduce((sum, n) => sum + n, 0);
    // The answered ids, against the table, in one statement.
    const { rows: found } = await db.query("SELECT count(*)::int AS n FROM runs WHERE run_id = ANY($1::uuid[])", [
      [...acknowledged],
    ]);
    const { rows: failed } = await db.query(
      `SELECT count(*)::int AS n FROM runs r JOIN threads t USING (thread_id)
        WHERE r.status NOT IN ('pending', 'running')
          AND (r.status <> 'success' OR t.values->'visited' IS DISTINCT FROM '["one","two","three"]'::jsonb)
          AND coalesce(jsonb_array_length(t.values->'visited'), 0) <= 3`,
    );
    const { rows: duplicated } = await db.query(
      `SELECT count(*)::int AS n FROM threads t
        WHERE (SELECT count(*) FROM runs r WHERE r.thread_id = t.thread_id) > 1
           OR coalesce(jsonb_array_length(t.values->'visited'), 0) > 3`,
    );
    return {
      stored,
      lost: acknowledged.size - (found[0].n as number),
      stuck: ACTIVE.reduce((sum, status) => sum + (byStatus[status] ?? 0), 0),
      failed: failed[0].n as number,
      duplicated: duplicated[0].n as number,
      byStatus,
    };
  });
}

async function withClient<T>(databaseUrl: string, work: (db: PgClient) => Promise<T>): Promise<T> {
  const db = new PgClient({ connectionString: databaseUrl });
  // The soak's own connection may be among those a fault terminates: its query then fails (the
  // progress line says "runs ?"), where an unheard 'error' event would end the soak's process.
  db.on("error", () => undefined);
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}
