import { PrismaPg } from "@prisma/adapter-pg";
import { isTransientError } from "@lgp/server-kit";
import { PrismaClient } from "./generated/prisma/client";

/** Operations that change nothing: safe to send again on a fresh connection. */
const READS = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "count",
  "aggregate",
  "groupBy",
  "$queryRaw",
]);

function connect(databaseUrl: string, maxConnections: number) {
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: maxConnections }) });
  // A read whose connection was cut (a failover, a pooler restart) is sent once more, on a new
  // connection; a write is not (it may have been applied): its request answers 503.
  return client.$extends({
    query: {
      async $allOperations({ operation, args, query }) {
        try {
          return await query(args);
        } catch (error) {
          if (!READS.has(operation) || !isTransientError(error)) throw error;
          return query(args);
        }
      },
    },
  });
}

export type Db = ReturnType<typeof connect>;

export function createDb(databaseUrl: string, maxConnections = 10): Db {
  return connect(databaseUrl, maxConnections);
}
