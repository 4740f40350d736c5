import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client";

export type Db = PrismaClient;

// The pool under each client, for the few reads Prisma makes slow: many bytea rows (a semantic
// search's candidates) cost a third more through its result conversion than from pg directly.
const pools = new WeakMap<Db, pg.Pool>();

export function createDb(databaseUrl: string, maxConnections = 10): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: maxConnections });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/** The pg pool a client of createDb queries through; undefined once it has ended (or for another client). */
export function poolOf(db: Db): pg.Pool | undefined {
  const pool = pools.get(db);
  return pool && !pool.ending && !pool.ended ? pool : undefined;
}
