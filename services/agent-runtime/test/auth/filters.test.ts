// An auth handler's filter means the same in SQL (threads, runs, assistants, crons, store searches)
// and in memory (one store item at hand): the cases the official server's own matcher is held to,
// run through PostgreSQL.
import pg from "pg";
import { Prisma } from "../../src/generated/prisma/client";
import { filtersSql, matchesFilters, type AuthFilters } from "../../src/auth";
import { testServerUrl } from "@lgp/server-kit/src/testing";

let pool: pg.Pool;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: testServerUrl(), max: 1 });
});
afterAll(() => pool.end());

async function matchesInSql(metadata: Record<string, unknown>, filters: AuthFilters | undefined): Promise<boolean> {
  const sql = Prisma.sql`SELECT ${filtersSql(Prisma.sql`${JSON.stringify(metadata)}::jsonb`, filters)} AS matches`;
  const { rows } = await pool.query(sql.text, sql.values as unknown[]);
  return rows[0].matches as boolean;
}

const cases: [string, Record<string, unknown>, AuthFilters | undefined, boolean][] = [
  ["no filter matches anything", { a: "value" }, undefined, true],
  ["empty metadata misses a key", {}, { a: "foo" }, false],
  ["an empty filter matches anything", { a: "foo", b: "bar" }, {}, true],
  ["a string equals", { a: "foo", b: "bar" }, { a: "foo" }, true],
  ["a different string does not", { a: "foo", b: "bar" }, { a: "baz" }, false],
  ["$eq equals", { a: "foo", b: "bar" }, { a: { $eq: "foo" } }, true],
  ["$eq with a different string does not", { a: "foo", b: "bar" }, { a: { $eq: "baz" } }, false],
  ["$contains finds a value in an array", { a: ["foo", "bar", "baz"] }, { a: { $contains: "bar" } }, true],
  ["$contains misses a value not in the array", { a: ["foo", "bar", "baz"] }, { a: { $contains: "qux" } }, false],
  ["$contains needs an array", { a: "bar" }, { a: { $contains: "bar" } }, false],
  [
    "$contains with a list needs all of it",
    { a: ["foo", "bar", "baz", "qux"] },
    { a: { $contains: ["bar", "baz"] } },
    true,
  ],
  [
    "$contains with a list misses when one is absent",
    { a: ["foo", "bar"] },
    { a: { $contains: ["bar", "baz"] } },
    false,
  ],
  [
    "several conditions all hold",
    { a: "foo", b: "bar", c: ["baz", "qux"] },
    { a: "foo", c: { $contains: "baz" } },
    true,
  ],
  [
    "one failing condition fails all",
    { a: "foo", b: "bar", c: ["baz", "qux"] },
    { a: "different", c: { $contains: "baz" } },
    false,
  ],
  ["a missing key does not match", { a: "foo" }, { b: "bar" }, false],
  // Beyond the official cases: equality never matches inside an array, nor a nested object.
  ["a string does not equal an array holding it", { owner: ["u1"] }, { owner: "u1" }, false],
  ["a string does not equal an object", { owner: { id: "u1" } }, { owner: "u1" }, false],
];

test.each(cases)("%s", async (_name, metadata, filters, expected) => {
  expect(matchesFilters(metadata, filters)).toBe(expected);
  expect(await matchesInSql(metadata, filters)).toBe(expected);
});
