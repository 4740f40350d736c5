// Expand-then-contract: a migration shipped after a release must leave that release able to serve
// on the migrated database (a rolling upgrade runs both side by side). So it may add (tables,
// nullable or defaulted columns, indexes, functions, triggers), backfill (UPDATE) and relax (DROP
// NOT NULL); what removes, renames, retypes or tightens something an existing table has is a
// contract step: allowed only in a migration marked `-- contract: unused since v<x.y.z>`, naming a
// release (at most the previous one) that already stopped using what it removes. Statements on
// objects created after the release are free: no earlier release knows them.
//
// A lexical check, not a SQL parser: it reads the statement kinds the project's migrations use and
// errs on the side of flagging. The rolling-upgrade test is what proves a release really serves.
import { compareVersions } from "./releases";

export interface MigrationSource {
  name: string;
  sql: string;
}

export interface Finding {
  migration: string;
  statement: string;
  reason: string;
}

const CONTRACT_MARKER = /--\s*contract:\s*unused since v(\d+\.\d+\.\d+)/i;

/** Statements of a script, comments removed; dollar-quoted bodies and string literals kept whole. */
export function statementsOf(sql: string): string[] {
  const statements: string[] = [];
  let current = "";
  let i = 0;
  while (i < sql.length) {
    const rest = sql.slice(i);
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest);
    if (rest.startsWith("--")) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end;
    } else if (rest.startsWith("/*")) {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
      current += " ";
    } else if (dollar) {
      const end = sql.indexOf(dollar[0], i + dollar[0].length);
      const stop = end < 0 ? sql.length : end + dollar[0].length;
      current += sql.slice(i, stop);
      i = stop;
    } else if (rest[0] === "'") {
      let end = i + 1;
      while (end < sql.length && !(sql[end] === "'" && sql[end + 1] !== "'")) end += sql[end] === "'" ? 2 : 1;
      current += sql.slice(i, end + 1);
      i = end + 1;
    } else if (rest[0] === ";") {
      statements.push(current);
      current = "";
      i += 1;
    } else {
      current += rest[0];
      i += 1;
    }
  }
  statements.push(current);
  return statements.map((statement) => statement.replace(/\s+/g, " ").trim()).filter(Boolean);
}

/** An identifier as PostgreSQL folds it: quotes removed, schema dropped, lower case. */
function objectName(raw: string): string {
  return raw.replace(/"/g, "").split(".").at(-1)!.toLowerCase();
}

const IDENT = String.raw`((?:"[^"]+"|[\w$]+)(?:\.(?:"[^"]+"|[\w$]+))?)`;

function match(statement: string, pattern: string): string | undefined {
  const found = new RegExp(pattern, "i").exec(statement);
  return found ? objectName(found[1]!) : undefined;
}

/** What a statement creates (a table, index, function, trigger, type, view), for later statements. */
function createdBy(statement: string): string | undefined {
  return match(
    statement,
    String.raw`^CREATE (?:UNIQUE )?(?:TABLE|INDEX|(?:OR REPLACE )?FUNCTION|TRIGGER|TYPE|(?:MATERIALIZED )?VIEW|SEQUENCE)(?: CONCURRENTLY)?(?: IF NOT EXISTS)? ${IDENT}`,
  );
}

/** The columns an ALTER TABLE adds. */
function addedColumns(statement: string): string[] {
  return [...statement.matchAll(new RegExp(String.raw`\bADD (?:COLUMN )?(?:IF NOT EXISTS )?${IDENT}`, "gi"))]
    .map((found) => objectName(found[1]!))
    .filter((name) => !/^(constraint|unique|primary|check|foreign|exclude)$/.test(name));
}

/** The columns a foreign key, unique constraint or unique index covers (none for other constraints). */
function constrainedColumns(statement: string): string[] {
  const found = /(?:\bFOREIGN KEY|\bUNIQUE|^CREATE UNIQUE INDEX .*? ON(?: ONLY)? \S+)\s*\(([^)]*)\)/i.exec(statement);
  return found ? found[1]!.split(",").map((column) => objectName(column.trim())) : [];
}

/** The table a statement changes, when it names one. */
function tableOf(statement: string): string | undefined {
  return (
    match(statement, String.raw`^ALTER TABLE(?: IF EXISTS)?(?: ONLY)? ${IDENT}`) ??
    match(statement, String.raw`^CREATE (?:UNIQUE )?INDEX .*? ON(?: ONLY)? ${IDENT}`) ??
    match(statement, String.raw`^(?:TRUNCATE(?: TABLE)?|DELETE FROM)(?: ONLY)? ${IDENT}`) ??
    match(
      statement,
      String.raw`^DROP (?:TABLE|INDEX|VIEW|MATERIALIZED VIEW|FUNCTION|TRIGGER|TYPE|SEQUENCE)(?: CONCURRENTLY)?(?: IF EXISTS)? ${IDENT}`,
    ) ??
    match(statement, String.raw`^ALTER (?:TYPE|INDEX|VIEW|FUNCTION|SEQUENCE) ${IDENT}`) ??
    match(statement, String.raw`^CREATE OR REPLACE (?:FUNCTION|VIEW|TRIGGER) ${IDENT}`)
  );
}

/** Why a statement is not expand-only, or undefined when it is. */
export function contractReason(statement: string): string | undefined {
  // Function bodies and string literals say nothing about the schema.
  const s = statement
    .replace(/\$([A-Za-z_]*)\$[\s\S]*?\$\1\$/g, () => "$$")
    .replace(/'(?:[^']|'')*'/g, "''")
    .toUpperCase();
  if (/^(TRUNCATE|DELETE FROM)\b/.test(s)) return "removes rows the previous release may still read";
  if (/^DROP\b/.test(s) || /\bDROP (?!NOT NULL\b)/.test(s)) return "drops something the previous release may use";
  if (/\bRENAME\b/.test(s)) return "renames something the previous release uses by its old name";
  if (/\bALTER (COLUMN )?\S+ (SET DATA )?TYPE\b/.test(s)) return "changes a column's type under the previous release";
  if (/\bSET NOT NULL\b/.test(s)) return "makes a column required that the previous release may leave empty";
  if (/\bADD (COLUMN )?(?!CONSTRAINT\b)/.test(s)) {
    for (const added of s.split(/\bADD (?:COLUMN )?/).slice(1)) {
      const column = added.split(/,\s*(?:ADD|ALTER|DROP)\b/)[0]!;
      if (/^(CONSTRAINT|UNIQUE|PRIMARY KEY|CHECK|FOREIGN KEY|EXCLUDE)\b/.test(column)) continue;
      if (/\bNOT NULL\b/.test(column) && !/\bDEFAULT\b|\bGENERATED\b/.test(column))
        return "adds a required column without a default: the previous release's inserts would fail";
    }
  }
  if (/\bADD (CONSTRAINT|UNIQUE|PRIMARY KEY|CHECK|FOREIGN KEY|EXCLUDE)\b/.test(s))
    return "adds a constraint the previous release's writes may break";
  if (/^CREATE UNIQUE INDEX\b/.test(s)) return "adds a uniqueness the previous release's writes may break";
  if (/^CREATE OR REPLACE\b/.test(s)) return "replaces something the previous release relies on";
  return undefined;
}

/**
 * The statements of `migrations` (in order: the ones shipped since the previous release) that are
 * not expand-only, leaving out migrations marked as a contract step that names a release at most
 * `previousVersion`. A marker naming a later release is a finding itself.
 */
export function expandOnlyFindings(migrations: MigrationSource[], previousVersion: string): Finding[] {
  const findings: Finding[] = [];
  const created = new Set<string>();
  for (const migration of migrations) {
    const marker = CONTRACT_MARKER.exec(migration.sql);
    if (marker && compareVersions(marker[1]!, previousVersion) > 0) {
      findings.push({
        migration: migration.name,
        statement: marker[0],
        reason: `a contract step may only drop what v${previousVersion} or an earlier release already stopped using, not v${marker[1]}`,
      });
    }
    for (const statement of statementsOf(migration.sql)) {
      const table = tableOf(statement);
      // A key or uniqueness on columns added since the release: the release never writes them.
      const columns = constrainedColumns(statement);
      const onNewColumns = columns.length > 0 && columns.every((column) => created.has(`${table}.${column}`));
      const reason = contractReason(statement);
      if (reason && !marker && !(table && created.has(table)) && !onNewColumns)
        findings.push({ migration: migration.name, statement, reason });
      const name = createdBy(statement);
      if (name) created.add(name);
      if (table && /^ALTER TABLE/i.test(statement))
        for (const column of addedColumns(statement)) created.add(`${table}.${column}`);
    }
  }
  return findings;
}
