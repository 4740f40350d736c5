import { randomBytes } from "node:crypto";
import path from "node:path";
import { dropDatabase, ensureDatabase } from "../migrations/database";
import { migrate } from "../migrations/applier";

export const REPO_ROOT = path.resolve(__dirname, "../../../..");

/** The PostgreSQL server tests use: TEST_POSTGRES_URL, default the local one CI provides. */
export function testServerUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
}

/** The Redis server tests use: TEST_REDIS_URL, default the local one CI provides. */
export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh database with a random name on the test server (not migrated). */
export async function createEmptyDatabase(prefix = "test"): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`.toLowerCase();
  const url = new URL(testServerUrl());
  url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  // A pool's `end()` resolves before its sockets have closed: a drop that cut them at once made a
  // closing client report the server's "terminating connection" to a pool the test had no error
  // listener on, which failed the whole test file. So the test's connections get a second to go.
  return { url: url.toString(), name, drop: () => dropDatabase(url.toString(), { closingMs: 1_000 }) };
}

/**
 * A fresh database for one test file, migrated with one service's migrations, so test files run
 * in parallel and leave nothing behind (call `drop` in afterAll).
 */
export async function createTestDatabase(service: "control-plane" | "agent-runtime"): Promise<TestDatabase> {
  const database = await createEmptyDatabase(`t_${service.replace("-", "_")}`);
  await migrate(database.url, path.join(REPO_ROOT, "prisma", service, "migrations"));
  return database;
}
