// Migrations since the previous release are expand-only (or marked contract steps), and the ones a
// release shipped are never edited or removed: release N-1 keeps serving on release N's schema.
import { readFileSync } from "node:fs";
import path from "node:path";
import { readMigrations } from "@lgp/server-kit";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { contractReason, expandOnlyFindings, statementsOf } from "../../releases/expand-only";
import { fileAt, filesAt, previousRelease, releaseCommit } from "../../releases/releases";

const previous = previousRelease(REPO_ROOT);
const { commit } = releaseCommit(REPO_ROOT, previous);

describe.each(["control-plane", "agent-runtime"])("the %s migrations", (service) => {
  const folder = `prisma/${service}/migrations`;
  const shipped = filesAt(REPO_ROOT, commit, folder).filter((file) => file.endsWith("/migration.sql"));
  const here = readMigrations(path.join(REPO_ROOT, folder));

  it(`shipped in v${previous.version} are all here, unchanged`, () => {
    expect(shipped.length).toBeGreaterThan(0);
    for (const file of shipped) {
      const name = path.basename(path.dirname(file));
      expect({ name, same: here.find((m) => m.name === name)?.sql === fileAt(REPO_ROOT, commit, file) }).toEqual({
        name,
        same: true,
      });
    }
  });

  it(`added since v${previous.version} are expand-only or marked contract steps`, () => {
    const names = new Set(shipped.map((file) => path.basename(path.dirname(file))));
    const added = here.filter((migration) => !names.has(migration.name));
    // Applied after every shipped one: a new migration named earlier would run out of order on a
    // database the release migrated, and not at all where it already ran to the last one.
    const lastShipped = [...names].sort().at(-1)!;
    for (const migration of added)
      expect({ [migration.name]: migration.name > lastShipped }).toEqual({ [migration.name]: true });
    expect(expandOnlyFindings(added, previous.version)).toEqual([]);
  });
});

describe("the expand-only check", () => {
  it("splits statements, keeping function bodies and literals whole and leaving comments out", () => {
    const sql = readFileSync(
      path.join(REPO_ROOT, "prisma/control-plane/migrations/20261201000000_api_key_changes/migration.sql"),
      "utf8",
    );
    const statements = statementsOf(sql);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toMatch(/^CREATE FUNCTION "api_key_changed".*pg_notify.*END \$\$$/);
    expect(statements.map(contractReason)).toEqual([undefined, undefined, undefined]);
    expect(statementsOf("SELECT 'a;b'; -- x; y\nSELECT 2 /* ; */")).toEqual(["SELECT 'a;b'", "SELECT 2"]);
  });

  it.each([
    ['ALTER TABLE "runs" DROP COLUMN "kwargs"', /drops/],
    ['DROP TABLE "store_items"', /drops/],
    ['DROP INDEX "runs_thread_id_idx"', /drops/],
    ['ALTER TABLE "runs" ALTER COLUMN "status" DROP DEFAULT', /drops/],
    ['ALTER TABLE "runs" RENAME COLUMN "kwargs" TO "input"', /renames/],
    ['ALTER TABLE "threads" RENAME TO "conversations"', /renames/],
    ['ALTER TABLE "runs" ALTER COLUMN "attempt" TYPE BIGINT', /type/],
    ['ALTER TABLE "runs" ALTER COLUMN "attempt" SET DATA TYPE BIGINT', /type/],
    ['ALTER TABLE "runs" ALTER COLUMN "thread_id" SET NOT NULL', /required/],
    ['ALTER TABLE "runs" ADD COLUMN "priority" INTEGER NOT NULL', /without a default/],
    ['ALTER TABLE "runs" ADD COLUMN "a" TEXT, ADD COLUMN "b" TEXT NOT NULL', /without a default/],
    ['ALTER TABLE "runs" ADD CONSTRAINT "positive" CHECK ("attempt" > 0)', /constraint/],
    ['CREATE UNIQUE INDEX "runs_one" ON "runs"("thread_id")', /uniqueness/],
    ['CREATE OR REPLACE FUNCTION "api_key_changed"() RETURNS trigger AS $$ BEGIN END $$', /replaces/],
    ['DELETE FROM "idempotency_keys"', /removes rows/],
    ['TRUNCATE "runs"', /removes rows/],
  ])("flags %s", (statement, reason) => {
    expect(contractReason(statement)).toMatch(reason);
  });

  it.each([
    'CREATE TABLE "backups" ("id" UUID PRIMARY KEY)',
    'ALTER TABLE "runs" ADD COLUMN "priority" INTEGER',
    'ALTER TABLE "runs" ADD COLUMN "priority" INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE "runs" ALTER COLUMN "thread_id" DROP NOT NULL',
    'ALTER TABLE "runs" ALTER COLUMN "attempt" SET DEFAULT 1',
    'CREATE INDEX "runs_priority_idx" ON "runs"("priority")',
    'UPDATE "runs" SET "priority" = 0 WHERE "priority" IS NULL',
    "ALTER TYPE \"run_status\" ADD VALUE 'paused'",
    'COMMENT ON COLUMN "runs"."kwargs" IS \'to drop; rename later\'',
  ])("lets %s through", (statement) => {
    expect(contractReason(statement)).toBeUndefined();
  });

  it("lets anything through on what was created since the release, and flags it on what was there", () => {
    const findings = expandOnlyFindings(
      [
        {
          name: "1_expand",
          sql: 'CREATE TABLE "jobs" ("id" INT);\nALTER TABLE "jobs" ADD COLUMN "x" INT NOT NULL;\nCREATE UNIQUE INDEX "jobs_x" ON "jobs"("x");',
        },
        {
          name: "2_more",
          sql: 'ALTER TABLE "jobs" RENAME COLUMN "x" TO "y";\nDROP INDEX "jobs_x";\nDROP TABLE "runs";',
        },
      ],
      "0.1.0",
    );
    expect(findings).toEqual([
      { migration: "2_more", statement: 'DROP TABLE "runs"', reason: expect.stringMatching(/drops/) },
    ]);
  });

  it("lets a foreign key or uniqueness through on columns added since the release, not on older ones", () => {
    const sql = (column: string) =>
      `ALTER TABLE "deployments" ADD COLUMN "listener_id" UUID;\nALTER TABLE "deployments" ADD CONSTRAINT "fk" FOREIGN KEY ("${column}") REFERENCES "listeners"("id");\nCREATE UNIQUE INDEX "u" ON "deployments"("${column}");`;
    expect(expandOnlyFindings([{ name: "4_fk", sql: sql("listener_id") }], "0.1.0")).toEqual([]);
    expect(expandOnlyFindings([{ name: "4_fk", sql: sql("tenant_id") }], "0.1.0").map((f) => f.reason)).toEqual([
      expect.stringMatching(/constraint/),
      expect.stringMatching(/uniqueness/),
    ]);
  });

  it("lets a contract step through when it names a release up to the previous one, and only then", () => {
    const step = (version: string) => ({
      name: "3_contract",
      sql: `-- contract: unused since v${version} (it reads "input" since then)\nALTER TABLE "runs" DROP COLUMN "kwargs";`,
    });
    expect(expandOnlyFindings([step("0.1.0")], "0.1.0")).toEqual([]);
    expect(expandOnlyFindings([step("0.0.9")], "0.1.0")).toEqual([]);
    expect(expandOnlyFindings([step("0.2.0")], "0.1.0")).toEqual([
      expect.objectContaining({ migration: "3_contract", reason: expect.stringMatching(/v0\.1\.0 or an earlier/) }),
    ]);
    expect(
      expandOnlyFindings([{ ...step("0.1.0"), sql: step("0.1.0").sql.replace("contract:", "contracts") }], "0.1.0"),
    ).toHaveLength(1);
  });
});
