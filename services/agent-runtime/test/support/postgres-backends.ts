// A PostgreSQL failover or pooler restart, as the drills do it: every connection to a database cut.
import { Client as PgClient } from "pg";

/** Ends every connection to the database but the caller's; answers how many. */
export async function terminateBackends(databaseUrl: string): Promise<number> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new PgClient({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const result = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [name],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}
