import { Client } from "pg";

/** Creates the database named in `databaseUrl` on its server when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) throw new Error("database URL names no database");
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    } catch (error) {
      // Another replica created it between our check and our CREATE.
      if ((error as { code?: string }).code !== "42P04") throw error;
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}

/**
 * Drops a database, ending its other sessions first. With `closingMs`, sessions already closing are
 * given up to that long to go on their own before the rest are ended.
 */
export async function dropDatabase(databaseUrl: string, options: { closingMs?: number } = {}): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const until = Date.now() + (options.closingMs ?? 0);
    while (Date.now() < until) {
      const { rows } = await client.query<{ open: number }>(
        "SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1",
        [name],
      );
      if (rows[0].open === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
