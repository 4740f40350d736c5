// Where `npm start` (scripts/start.ts) keeps what its embedded mode makes: its data folder
// (DATA_DIR, `.data` in the repository), the secrets it generated there, and its PostgreSQL's
// port (EMBEDDED_POSTGRES_PORT). The start uses it, and so do the tools run beside it (the tenants
// and secrets:rotate commands), which then need no database URL or key.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const REPO_ROOT = path.resolve(__dirname, "../../..");

export function embeddedDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.DATA_DIR ?? path.join(REPO_ROOT, ".data"));
}

export function embeddedPostgresPort(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.EMBEDDED_POSTGRES_PORT ?? 54329);
}

/** A database of the embedded PostgreSQL, with its password. */
export function embeddedPostgresUrl(password: string, database: string, env: NodeJS.ProcessEnv = process.env): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${embeddedPostgresPort(env)}/${database}`;
}

/** One of the secrets `npm start` keeps in its data folder (`SECRETS_ENCRYPTION_KEY`...), if it has it. */
export function embeddedSecret(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = path.join(embeddedDataDir(env), "secrets.json");
  if (!existsSync(file)) return undefined;
  const value = (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

/** The URL of a database of the embedded PostgreSQL, when `npm start` has made one here (its secrets say). */
export function embeddedDatabaseUrl(database: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const password = embeddedSecret("POSTGRES_PASSWORD", env);
  return password === undefined ? undefined : embeddedPostgresUrl(password, database, env);
}
