// The semantic search's binary reads (store/copy-rows.ts): a statement's rows by a binary COPY, its
// values written in as literals, are the rows the query answers (bytea as its bytes, not hex), for
// values a namespace or key may hold (quotes, backslashes, `$1`, any script); the pool's client
// serves the next query after a failed COPY.
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { createDb, poolOf, type Db } from "../../src/db";
import { Prisma } from "../../src/generated/prisma/client";
import { BinaryRows, copyRows, inlined } from "../../src/store/copy-rows";
import { readRows } from "../../src/store/read-rows";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  // One connection: the client a failed COPY used is the one the next query gets (or its replacement).
  db = createDb(database.url, 1);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const awkward = [
  "it's",
  "back\\slash",
  "\\x41",
  "$1 and $2",
  "emoji 🧪 and ü",
  "E'quoted'",
  "",
  "semi; DROP TABLE x",
  'a "quoted" {curly, comma}',
  "NULL",
];
const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

it("answers a statement's rows with bytea as its bytes, and its values as the query has them", async () => {
  const sql = Prisma.sql`
    SELECT t.text, t.position, ${everyByte}::bytea AS bytes, NULL::bytea AS missing, ${7}::int + 1 AS eight
    FROM unnest(${awkward}::text[]) WITH ORDINALITY AS t(text, position)
    WHERE t.position = ANY(${awkward.map((_, i) => i + 1)}::int[]) AND t.text <> ${"not there"}
      AND NOT (t.position = ANY(${[] as number[]}::int[]))
    ORDER BY t.position`;
  const asText = await readRows<[string, string, Uint8Array, null, number]>(db, sql);
  const binary = (await copyRows(db, sql))!;
  expect({ count: binary.count, columns: binary.columns }).toEqual({ count: awkward.length, columns: 5 });
  expect(Array.from({ length: binary.count }, (_, row) => binary.text(row, 0))).toEqual(awkward);
  expect(asText.map((row) => row[0])).toEqual(awkward);
  for (let row = 0; row < binary.count; row++) {
    expect(binary.bytes(row, 2)).toEqual(everyByte);
    expect(binary.data.subarray(binary.start(row, 2), binary.start(row, 2) + binary.length(row, 2))).toEqual(everyByte);
    expect([binary.bytes(row, 3), binary.length(row, 3), binary.text(row, 3)]).toEqual([null, -1, null]);
    expect(binary.bytes(row, 4)!.readInt32BE(0)).toBe(8);
  }
  // The bytes are the ones the text protocol decodes from hex; rows read that way take this form too.
  expect(Buffer.from(asText[0]![2])).toEqual(everyByte);
  const converted = BinaryRows.of(asText as unknown as (string | Uint8Array | null)[][], 4);
  expect([converted.text(1, 0), converted.bytes(1, 2), converted.bytes(1, 3)]).toEqual([awkward[1], everyByte, null]);
  expect((await copyRows(db, Prisma.sql`SELECT 1 WHERE false`))!.count).toBe(0);
});

it("writes values in as literals, and refuses a value it cannot write", () => {
  expect(inlined(Prisma.sql`SELECT ${"it's"}, ${[1, -2]}::int[], ${null}::text, ${3.5}, ${true}, 1-${-1}`)).toBe(
    "SELECT 'it''s', '{1,-2}'::int[], NULL::text, 3.5, true, 1-(-1)",
  );
  expect(inlined(Prisma.sql`SELECT ${["a", "c,d", null]}::text[]`)).toBe(`SELECT '{"a","c,d",NULL}'::text[]`);
  // A backslash makes it an escape string (E'...'), whatever standard_conforming_strings says.
  expect(inlined(Prisma.sql`SELECT ${"a\\b"}`)).toBe("SELECT  E'a\\\\b'");
  expect(() => inlined(Prisma.sql`SELECT ${Number.NaN}`)).toThrow(/NaN/);
  expect(() => inlined(Prisma.sql`SELECT ${{ an: "object" }}::jsonb`)).toThrow(/object/);
});

it("fails as the statement fails, and the pool's client serves the next query", async () => {
  await expect(copyRows(db, Prisma.sql`SELECT 1 / ${0}::int`)).rejects.toThrow(/division by zero/);
  await expect(copyRows(db, Prisma.sql`SELECT * FROM no_such_table`)).rejects.toThrow(/no_such_table/);
  const rows = (await copyRows(db, Prisma.sql`SELECT ${"still here"}::text`))!;
  expect(rows.text(0, 0)).toBe("still here");
  expect(poolOf(db)!.totalCount).toBeLessThanOrEqual(1);
});

it("is undefined where the client's pool is not at hand (a transaction's client)", async () => {
  expect(await db.$transaction((tx) => copyRows(tx as Db, Prisma.sql`SELECT 1`))).toBeUndefined();
});

it("reuses a released read's buffer for a later read, never for one still being read", async () => {
  const rowsOf = (from: number) =>
    copyRows(
      db,
      Prisma.sql`SELECT i, repeat(chr(65 + i % 26), 2000)::bytea FROM generate_series(${from}::int, ${from + 999}::int) i`,
    );
  const check = (rows: BinaryRows, from: number) => {
    expect(rows.count).toBe(1000);
    for (const row of [0, 500, 999]) {
      expect(rows.bytes(row, 0)!.readInt32BE(0)).toBe(from + row);
      expect(rows.bytes(row, 1)).toEqual(Buffer.alloc(2000, 65 + ((from + row) % 26)));
    }
  };
  const [a, b] = (await Promise.all([rowsOf(0), rowsOf(5000)])) as BinaryRows[];
  check(a!, 0);
  check(b!, 5000);
  a!.release();
  const c = (await rowsOf(9000))!;
  expect(c.data.buffer).toBe(a!.data.buffer);
  check(c, 9000);
  check(b!, 5000);
});
