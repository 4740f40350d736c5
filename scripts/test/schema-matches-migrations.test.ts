import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { diffSchemaAgainstDatabase, migrate } from "@lgp/server-kit";
import { createEmptyDatabase, createTestDatabase, REPO_ROOT, type TestDatabase } from "@lgp/server-kit/src/testing";

describe.each(["control-plane", "agent-runtime"] as const)("the %s migrations", (service) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(service);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("produce exactly the database schema.prisma describes", async () => {
    const differences = await diffSchemaAgainstDatabase(
      path.join(REPO_ROOT, "prisma", service, "schema"),
      database.url,
    );
    expect(differences).toEqual([]);
  });
});

describe("the schema check", () => {
  let database: TestDatabase;
  afterEach(async () => {
    await database?.drop();
  });

  it("fails on a migration set that does not match the schema", async () => {
    // The real control-plane migrations, with one column made nullable, one index left out and one
    // column's type changed: each must be reported.
    const dir = mkdtempSync(path.join(tmpdir(), "mismatched-"));
    cpSync(path.join(REPO_ROOT, "prisma/control-plane/migrations"), dir, { recursive: true });
    const tenancy = path.join(dir, "20261121000000_tenancy/migration.sql");
    const sql = readFileSync(tenancy, "utf8")
      .replace('"prefix" TEXT NOT NULL', '"prefix" TEXT')
      .replace('"name" TEXT NOT NULL,\n    "created_at"', '"name" VARCHAR(40) NOT NULL,\n    "created_at"')
      .replace('CREATE INDEX "api_keys_tenant_id_idx" ON "api_keys"("tenant_id");', "");
    writeFileSync(tenancy, sql);
    database = await createEmptyDatabase("t_mismatch");
    await migrate(database.url, dir);

    const differences = await diffSchemaAgainstDatabase(
      path.join(REPO_ROOT, "prisma/control-plane/schema"),
      database.url,
    );
    expect(differences).toEqual(
      expect.arrayContaining([
        "column api_keys.prefix is nullable, schema says NOT NULL",
        "column tenants.name is varchar(40), schema says text",
        "api_keys: index (tenant_id) is missing",
      ]),
    );
  });
});
