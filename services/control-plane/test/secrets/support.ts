// What the key rotation tests share: one database the control plane is started on again and again
// with other keys (one loopback listener whose app is swapped, so URLs and OAuth redirect URIs stay
// the same across "restarts"), the rotate command as an operator runs it, and every ciphertext the
// database holds, read straight from its tables.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client } from "pg";
import { createLogger } from "@lgp/server-kit";
import { createTestDatabase, REPO_ROOT, type TestDatabase } from "@lgp/server-kit/src/testing";
import { createControlPlaneApp } from "../../src/app";
import { loadControlPlaneConfig, type ControlPlaneConfig } from "../../src/config";
import { createDb, type Db } from "../../src/db";

export interface Served {
  config: ControlPlaneConfig;
  db: Db;
}

/** A control plane on one database and one loopback URL, restarted with other settings by `serve`. */
export class ControlPlaneOnOneDatabase {
  private current: (Served & { handler: ReturnType<typeof createControlPlaneApp> }) | undefined;

  private constructor(
    readonly database: TestDatabase,
    readonly url: string,
    private readonly server: Server,
    private readonly baseEnv: Record<string, string>,
  ) {
    server.on("request", (req, res) => {
      if (this.current) this.current.handler(req, res);
      else res.writeHead(503).end();
    });
  }

  static async start(baseEnv: Record<string, string> = {}): Promise<ControlPlaneOnOneDatabase> {
    const database = await createTestDatabase("control-plane");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return new ControlPlaneOnOneDatabase(database, url, server, baseEnv);
  }

  /** Stops the running control plane (if any) and starts one with these keys. */
  async serve(env: Record<string, string>): Promise<Served> {
    await this.stopApp();
    const config = loadControlPlaneConfig({
      CONTROL_PLANE_DATABASE_URL: this.database.url,
      PUBLIC_URL: this.url,
      LOG_LEVEL: "warn",
      ...this.baseEnv,
      ...env,
    });
    const db = createDb(this.database.url, 4);
    const handler = createControlPlaneApp({ config, db, logger: createLogger("control-plane-test", "warn") });
    this.current = { config, db, handler };
    return { config, db };
  }

  private async stopApp(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    this.server.closeAllConnections();
    await current?.db.$disconnect();
  }

  async close(): Promise<void> {
    await this.stopApp();
    await new Promise((resolve) => this.server.close(resolve));
    await this.database.drop();
  }
}

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment an operator gives the command: the database and the keys, nothing else. */
export function rotateEnv(databaseUrl: string, current: string, old: string[] = []): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CONTROL_PLANE_DATABASE_URL: databaseUrl,
    SECRETS_ENCRYPTION_KEY: current,
    ...(old.length ? { SECRETS_ENCRYPTION_OLD_KEYS: old.join(",") } : {}),
  };
}

/** `npm run secrets:rotate -w services/control-plane -- <args>`, as the README gives it. */
export function npmRotate(args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return finished(
    spawn("npm", ["run", "--silent", "secrets:rotate", "-w", "services/control-plane", "--", ...args], {
      cwd: REPO_ROOT,
      env,
    }),
  );
}

/** The command's own node process (no npm in between), for a test that kills it. */
export function rotateProcess(args: string[], env: NodeJS.ProcessEnv): ChildProcess & { output: () => string } {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(REPO_ROOT, "services/control-plane/src/secrets/rotate-cli.ts"), ...args],
    { cwd: REPO_ROOT, env },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return Object.assign(child, { output: () => output });
}

export function finished(child: ChildProcess): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => (stdout += chunk));
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Waits until a session of the rotate command waits for a row lock (it reached the locked row). */
export async function rotationBlockedOnLock(client: Client, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rowCount } = await client.query(
      `SELECT 1 FROM pg_stat_activity
       WHERE application_name = 'lgp-secrets-rotate' AND wait_event_type = 'Lock' AND datname = current_database()`,
    );
    if (rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the rotate command never reached the locked row");
}

/**
 * Waits until no session of the rotate command is left. A killed command's session can outlive it:
 * PostgreSQL finishes (and commits) the statement it was running before it sees the client gone.
 */
export async function rotationSessionsGone(client: Client, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rowCount } = await client.query(
      "SELECT 1 FROM pg_stat_activity WHERE application_name = 'lgp-secrets-rotate' AND datname = current_database()",
    );
    if (!rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("a session of the rotate command is still there");
}

export async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

export interface StoredCiphertext {
  where: string;
  value: string;
}

/**
 * Every encrypted value the control plane keeps, listed here independently of the rotation's own
 * list: deployment and revision secrets, OAuth client secrets, PKCE verifiers, access and refresh
 * tokens, and the answers kept for repeated idempotent creates.
 */
export async function storedCiphertexts(client: Client): Promise<StoredCiphertext[]> {
  const found: StoredCiphertext[] = [];
  for (const table of ["deployments", "revisions"]) {
    const { rows } = await client.query<{ id: string; secrets: { name: string; value: string }[] }>(
      `SELECT id, secrets FROM ${table} ORDER BY id`,
    );
    for (const row of rows)
      for (const secret of row.secrets) found.push({ where: `${table} ${row.id} ${secret.name}`, value: secret.value });
  }
  const columns: [string, string, string][] = [
    ["oauth_providers", "id", "client_secret_encrypted"],
    ["oauth_authorizations", "id", "code_verifier_encrypted"],
    ["oauth_tokens", "id", "access_token_encrypted"],
    ["oauth_tokens", "id", "refresh_token_encrypted"],
    // The first answers of idempotent creates, kept for their repeats.
    ["idempotency_keys", "key", "body"],
  ];
  for (const [table, id, column] of columns) {
    const { rows } = await client.query<{ id: string; value: string }>(
      `SELECT ${id} AS id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${id}`,
    );
    for (const row of rows) found.push({ where: `${table} ${row.id} ${column}`, value: row.value });
  }
  return found;
}
