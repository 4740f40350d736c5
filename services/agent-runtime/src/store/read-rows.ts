// Rows of the semantic index's reads of thousands of vectors (bytea), as arrays.
import { poolOf, type Db } from "../db";
import type { Prisma } from "../generated/prisma/client";

/**
 * A query's rows as arrays: straight from pg where the client's pool is at hand (a third faster
 * than Prisma's conversion of thousands of bytea values, and less of the API's thread), else by
 * Prisma, the columns in the query's order.
 */
export async function readRows<T extends unknown[]>(db: Db, sql: Prisma.Sql): Promise<T[]> {
  const pool = poolOf(db);
  if (pool) return (await pool.query<T>({ text: sql.text, values: sql.values, rowMode: "array" })).rows;
  return (await db.$queryRaw<Record<string, unknown>[]>(sql)).map((row) => Object.values(row) as T);
}
