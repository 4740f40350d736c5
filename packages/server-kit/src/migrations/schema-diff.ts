import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import { Client } from "pg";

/**
 * Compares a migrated database with a Prisma schema folder: tables, columns (type, nullability),
 * enums, primary keys, unique constraints, indexes and foreign keys. Prisma's own `migrate diff`
 * needs the native schema engine, which cannot be installed here; this reads the schema through
 * Prisma's WebAssembly schema parser and the database through the catalog. An empty answer means
 * the migrations produce exactly what schema.prisma describes. Partial indexes (`WHERE ...`) are
 * left out: a Prisma schema cannot state them, so they live in migrations only (the schema says so
 * in a comment) and the tests of the statements they serve check them.
 */
export async function diffSchemaAgainstDatabase(
  schemaDir: string,
  databaseUrl: string,
  options: { ignoreTables?: string[] } = {},
): Promise<string[]> {
  const expected = expectedSchema(schemaDir);
  const actual = await actualSchema(databaseUrl, ["_prisma_migrations", ...(options.ignoreTables ?? [])]);
  const differences: string[] = [];

  for (const [name, values] of expected.enums) {
    const found = actual.enums.get(name);
    if (!found) differences.push(`enum ${name} is missing`);
    else if (found.join(",") !== values.join(","))
      differences.push(`enum ${name} has values [${found}] instead of [${values}]`);
  }
  for (const name of actual.enums.keys())
    if (!expected.enums.has(name)) differences.push(`enum ${name} is not in the schema`);

  for (const [table, model] of expected.tables) {
    const found = actual.tables.get(table);
    if (!found) {
      differences.push(`table ${table} is missing`);
      continue;
    }
    for (const [column, spec] of model.columns) {
      const got = found.columns.get(column);
      if (!got) differences.push(`column ${table}.${column} is missing`);
      else {
        if (got.type !== spec.type)
          differences.push(`column ${table}.${column} is ${got.type}, schema says ${spec.type}`);
        if (got.nullable !== spec.nullable)
          differences.push(
            `column ${table}.${column} is ${got.nullable ? "nullable" : "NOT NULL"}, schema says ${spec.nullable ? "nullable" : "NOT NULL"}`,
          );
      }
    }
    for (const column of found.columns.keys())
      if (!model.columns.has(column)) differences.push(`column ${table}.${column} is not in the schema`);
    for (const index of model.indexes) if (!found.indexes.has(index)) differences.push(`${table}: ${index} is missing`);
    for (const index of found.indexes)
      if (!model.indexes.has(index)) differences.push(`${table}: ${index} is not in the schema`);
    for (const key of model.foreignKeys)
      if (!found.foreignKeys.has(key)) differences.push(`${table}: ${key} is missing`);
    for (const key of found.foreignKeys)
      if (!model.foreignKeys.has(key)) differences.push(`${table}: ${key} is not in the schema`);
  }
  for (const table of actual.tables.keys())
    if (!expected.tables.has(table)) differences.push(`table ${table} is not in the schema`);
  return differences;
}

interface TableShape {
  columns: Map<string, { type: string; nullable: boolean }>;
  /** "primary key (a, b)", "unique (a)", "index (a, b)" */
  indexes: Set<string>;
  /** "foreign key (a) -> other (id) on delete cascade" */
  foreignKeys: Set<string>;
}

interface SchemaShape {
  tables: Map<string, TableShape>;
  enums: Map<string, string[]>;
}

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum" | "unsupported";
  isList: boolean;
  isRequired: boolean;
  type: string;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
}

interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}

interface Dmmf {
  datamodel: {
    models: DmmfModel[];
    enums: { name: string; dbName?: string | null; values: { name: string; dbName?: string | null }[] }[];
    indexes: { model: string; type: "id" | "unique" | "normal" | "fulltext"; fields: { name: string }[] }[];
  };
}

const SCALAR_TYPES: Record<string, string> = {
  String: "text",
  Int: "int4",
  BigInt: "int8",
  Float: "float8",
  Decimal: "numeric",
  Boolean: "bool",
  DateTime: "timestamp(3)",
  Json: "jsonb",
  Bytes: "bytea",
};

function columnType(field: DmmfField, enumNames: Map<string, string>): string {
  let type: string;
  if (field.kind === "enum") type = enumNames.get(field.type) ?? field.type;
  else if (field.nativeType) {
    const [native, args] = field.nativeType;
    const base: Record<string, string> = {
      Uuid: "uuid",
      Text: "text",
      VarChar: "varchar",
      Char: "bpchar",
      Timestamptz: "timestamptz",
      Timestamp: "timestamp",
      Date: "date",
      Integer: "int4",
      SmallInt: "int2",
      BigInt: "int8",
      DoublePrecision: "float8",
      Real: "float4",
      JsonB: "jsonb",
      Json: "json",
      Boolean: "bool",
      ByteA: "bytea",
      Decimal: "numeric",
      Inet: "inet",
    };
    type = base[native] ?? native.toLowerCase();
    if (["timestamptz", "timestamp"].includes(type)) type += `(${args[0] ?? 6})`;
    else if (type === "varchar" && args[0]) type += `(${args[0]})`;
  } else type = SCALAR_TYPES[field.type] ?? field.type;
  return field.isList ? `${type}[]` : type;
}

export function readSchemaFolder(schemaDir: string): [string, string][] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith(".prisma"))
    .sort()
    .map((file) => [path.join(schemaDir, file), readFileSync(path.join(schemaDir, file), "utf8")]);
}

function expectedSchema(schemaDir: string): SchemaShape {
  const dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: readSchemaFolder(schemaDir) }))) as Dmmf;
  const enumNames = new Map(dmmf.datamodel.enums.map((item) => [item.name, item.dbName ?? item.name]));
  const enums = new Map(
    dmmf.datamodel.enums.map((item) => [
      item.dbName ?? item.name,
      item.values.map((value) => value.dbName ?? value.name),
    ]),
  );
  const models = new Map(dmmf.datamodel.models.map((model) => [model.name, model]));
  const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
  const columnOf = (model: DmmfModel, fieldName: string) => {
    const field = model.fields.find((item) => item.name === fieldName);
    return field?.dbName ?? fieldName;
  };
  const tables = new Map<string, TableShape>();
  for (const model of dmmf.datamodel.models) {
    const shape: TableShape = { columns: new Map(), indexes: new Set(), foreignKeys: new Set() };
    for (const field of model.fields) {
      if (field.kind === "object") {
        if (field.relationFromFields?.length) {
          const target = models.get(field.type)!;
          const from = field.relationFromFields.map((name) => columnOf(model, name)).join(", ");
          const to = (field.relationToFields ?? []).map((name) => columnOf(target, name)).join(", ");
          const onDelete = (field.relationOnDelete ?? (field.isRequired ? "Restrict" : "SetNull")).toLowerCase();
          shape.foreignKeys.add(`foreign key (${from}) -> ${tableOf(target)} (${to}) on delete ${onDelete}`);
        }
        continue;
      }
      shape.columns.set(field.dbName ?? field.name, {
        type: columnType(field, enumNames),
        // Prisma creates scalar lists as nullable array columns (it never adds NOT NULL to them).
        nullable: !field.isRequired || field.isList,
      });
    }
    tables.set(tableOf(model), shape);
  }
  for (const index of dmmf.datamodel.indexes) {
    const model = models.get(index.model)!;
    const columns = index.fields.map((field) => columnOf(model, field.name)).join(", ");
    const kind = { id: "primary key", unique: "unique", normal: "index", fulltext: "fulltext index" }[index.type];
    tables.get(tableOf(model))!.indexes.add(`${kind} (${columns})`);
  }
  return { tables, enums };
}

const ON_DELETE: Record<string, string> = { a: "noaction", r: "restrict", c: "cascade", n: "setnull", d: "setdefault" };

async function actualSchema(databaseUrl: string, ignoreTables: string[]): Promise<SchemaShape> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = new Map<string, TableShape>();
    const columns = await client.query<{
      table_name: string;
      column_name: string;
      udt_name: string;
      data_type: string;
      is_nullable: string;
      datetime_precision: number | null;
      character_maximum_length: number | null;
    }>(`SELECT c.table_name, c.column_name, c.udt_name, c.data_type, c.is_nullable, c.datetime_precision, c.character_maximum_length
          FROM information_schema.columns c
          JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
         ORDER BY c.table_name, c.ordinal_position`);
    for (const row of columns.rows) {
      if (ignoreTables.includes(row.table_name)) continue;
      const shape = tables.get(row.table_name) ?? { columns: new Map(), indexes: new Set(), foreignKeys: new Set() };
      tables.set(row.table_name, shape);
      const isArray = row.data_type === "ARRAY";
      let type = isArray ? row.udt_name.slice(1) : row.udt_name;
      if (["timestamptz", "timestamp"].includes(type)) type += `(${row.datetime_precision})`;
      else if (type === "varchar" && row.character_maximum_length) type += `(${row.character_maximum_length})`;
      shape.columns.set(row.column_name, { type: isArray ? `${type}[]` : type, nullable: row.is_nullable === "YES" });
    }
    const indexes = await client.query<{ table_name: string; primary: boolean; unique: boolean; columns: string[] }>(
      `SELECT t.relname AS table_name, i.indisprimary AS primary, i.indisunique AS unique,
              array_agg(a.attname::text ORDER BY k.ordinality) AS columns
         FROM pg_index i
         JOIN pg_class t ON t.oid = i.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
         CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ordinality)
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
        WHERE i.indpred IS NULL
        GROUP BY t.relname, i.indexrelid, i.indisprimary, i.indisunique`,
    );
    for (const row of indexes.rows) {
      const shape = tables.get(row.table_name);
      if (!shape) continue;
      const kind = row.primary ? "primary key" : row.unique ? "unique" : "index";
      shape.indexes.add(`${kind} (${row.columns.join(", ")})`);
    }
    const foreignKeys = await client.query<{
      table_name: string;
      target: string;
      from: string[];
      to: string[];
      on_delete: string;
    }>(
      `SELECT t.relname AS table_name, r.relname AS target, c.confdeltype AS on_delete,
              ARRAY(SELECT attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute ON attrelid = c.conrelid AND attnum = k.n ORDER BY k.o) AS from,
              ARRAY(SELECT attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute ON attrelid = c.confrelid AND attnum = k.n ORDER BY k.o) AS to
         FROM pg_constraint c
         JOIN pg_class t ON t.oid = c.conrelid
         JOIN pg_class r ON r.oid = c.confrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
        WHERE c.contype = 'f'`,
    );
    for (const row of foreignKeys.rows) {
      const shape = tables.get(row.table_name);
      if (!shape) continue;
      shape.foreignKeys.add(
        `foreign key (${row.from.join(", ")}) -> ${row.target} (${row.to.join(", ")}) on delete ${ON_DELETE[row.on_delete]}`,
      );
    }
    const enumRows = await client.query<{ name: string; values: string[] }>(
      `SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS values
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
         JOIN pg_namespace n ON n.oid = t.typnamespace AND n.nspname = 'public'
        GROUP BY t.typname`,
    );
    return { tables, enums: new Map(enumRows.rows.map((row) => [row.name, row.values])) };
  } finally {
    await client.end();
  }
}
