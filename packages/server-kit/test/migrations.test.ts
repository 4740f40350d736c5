import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { migrate, MigrationError } from "../src";
import { createEmptyDatabase, type TestDatabase } from "../src/testing";

function migrationsFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe("migration applier", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createEmptyDatabase("t_migrations");
  });
  afterEach(async () => {
    await database.drop();
  });

  it("applies pending migrations in name order and records them in _prisma_migrations", async () => {
    const dir = migrationsFolder({
      "20260101000000_first": 'CREATE TABLE "a" ("id" INT PRIMARY KEY);',
      "20260102000000_second": 'ALTER TABLE "a" ADD COLUMN "b" TEXT;',
    });
    const result = await migrate(database.url, dir);
    expect(result.applied).toEqual(["20260101000000_first", "20260102000000_second"]);
    const rows = await query<{ migration_name: string; checksum: string }>(
      database.url,
      'SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((row) => row.migration_name)).toEqual(result.applied);
    expect(rows[0].checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is idempotent: a second run applies nothing", async () => {
    const dir = migrationsFolder({ "20260101000000_first": 'CREATE TABLE "a" ("id" INT PRIMARY KEY);' });
    await migrate(database.url, dir);
    const again = await migrate(database.url, dir);
    expect(again).toEqual({ applied: [], alreadyApplied: ["20260101000000_first"] });
  });

  it("applies each migration once when several replicas start together", async () => {
    const dir = migrationsFolder({
      "20260101000000_first": 'CREATE TABLE "a" ("id" INT PRIMARY KEY); SELECT pg_sleep(0.2);',
    });
    const results = await Promise.all([1, 2, 3].map(() => migrate(database.url, dir)));
    expect(results.flatMap((result) => result.applied)).toEqual(["20260101000000_first"]);
    const rows = await query(database.url, 'SELECT 1 FROM "_prisma_migrations"');
    expect(rows).toHaveLength(1);
  });

  it("refuses to go on when an applied migration's file was edited", async () => {
    const dir = migrationsFolder({ "20260101000000_first": 'CREATE TABLE "a" ("id" INT PRIMARY KEY);' });
    await migrate(database.url, dir);
    writeFileSync(
      path.join(dir, "20260101000000_first", "migration.sql"),
      'CREATE TABLE "a" ("id" BIGINT PRIMARY KEY);',
    );
    await expect(migrate(database.url, dir)).rejects.toThrow(MigrationError);
    await expect(migrate(database.url, dir)).rejects.toThrow(/20260101000000_first was edited after it was applied/);
  });

  it("rolls back a failing migration and names it", async () => {
    const dir = migrationsFolder({
      "20260101000000_ok": 'CREATE TABLE "a" ("id" INT PRIMARY KEY);',
      "20260102000000_broken": 'CREATE TABLE "b" ("id" INT PRIMARY KEY); SELECT no_such_function();',
    });
    await expect(migrate(database.url, dir)).rejects.toThrow(/20260102000000_broken failed/);
    const tables = await query<{ table_name: string }>(
      database.url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('a','b')",
    );
    expect(tables.map((row) => row.table_name)).toEqual(["a"]);
  });
});
