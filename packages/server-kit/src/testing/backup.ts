// The backup drills' pg_dump and pg_restore, with the flags the README's "Backup and restore" gives,
// in the version the server needs: a pg_dump older than the server refuses to dump it, and a
// pg_restore older than the pg_dump that wrote an archive cannot read it.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { Client } from "pg";

const run = promisify(execFile);

/** The server's major version (15 for 15.20). */
async function serverMajor(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version_num: string }>("SHOW server_version_num");
    return Math.floor(Number(rows[0].server_version_num) / 10_000);
  } finally {
    await client.end();
  }
}

/**
 * The tool of the server's major version (Debian and Ubuntu keep each installed version under
 * /usr/lib/postgresql/<major>/bin), else the one on PATH if it is as new as the server.
 */
async function pgTool(name: "pg_dump" | "pg_restore", url: string): Promise<string> {
  const major = await serverMajor(url);
  const versioned = `/usr/lib/postgresql/${major}/bin/${name}`;
  if (existsSync(versioned)) return versioned;
  const version = await run(name, ["--version"]).then(
    ({ stdout }) => Number(/(\d+)(?:\.\d+)?/.exec(stdout)?.[1] ?? 0),
    () => 0,
  );
  if (version >= major) return name;
  throw new Error(
    `${name} ${major} or newer is needed for this PostgreSQL ${major} server (found ${version || "none"}): ` +
      `install postgresql-client-${major}`,
  );
}

/** `pg_dump --format=custom`: one consistent snapshot, taken while the services write. */
export async function dumpDatabase(url: string, file: string): Promise<void> {
  await run(await pgTool("pg_dump", url), ["--format=custom", `--file=${file}`, `--dbname=${url}`]);
}

/** `pg_restore` into an empty database: all of it or nothing, owned by whoever restores it. */
export async function restoreDatabase(file: string, url: string): Promise<void> {
  await run(await pgTool("pg_restore", url), [
    "--exit-on-error",
    "--single-transaction",
    "--no-owner",
    "--no-privileges",
    `--dbname=${url}`,
    file,
  ]);
}
