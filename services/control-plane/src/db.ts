// The control plane's Prisma client, and what it does when a PostgreSQL connection is cut (a
// failover, a pooler restart): what is certain to change nothing, or certain not to have been
// committed, is sent again on a connection opened after the fault (db-pool.ts); anything else
// answers 503 with Retry-After.
//   - a read (find*, count, aggregate, groupBy, a $queryRaw SELECT): sent again;
//   - a single write: sent again only when its connection never opened (nothing was sent);
//   - a $transaction(callback) that failed before its COMMIT was sent: run again from the start
//     (its statements were rolled back with the connection). So a callback may run more than
//     once: it does database work only (no calls out, no queueing), which all of ours do.
//   - a transaction whose COMMIT was sent, and a batch $transaction([...]): not sent again (it may
//     have been committed).
import { setTimeout as sleep } from "node:timers/promises";
import { PrismaPg } from "@prisma/adapter-pg";
import { isTransientError } from "@lgp/server-kit";
import { FreshPool, neverSent } from "./db-pool";
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
]);

/**
 * The pause before each retry, each on a connection opened after the fault: one opened during a
 * failover can be cut too. Four retries, 375 ms of pauses at most.
 */
export const RETRY_DELAYS_MS = [0, 25, 100, 250];

/** `$queryRaw` is a read only when its statement is a plain SELECT (not INSERT ... RETURNING, not a locking read). */
function isReadingStatement(args: unknown): boolean {
  // The extension sees the Prisma.Sql object: its text in `strings`, the values between them.
  const text = (args as { strings?: unknown[] } | undefined)?.strings?.join(" ");
  if (typeof text !== "string") return false;
  return /^\s*SELECT\b/i.test(text) && !/\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE)\b/i.test(text);
}

/** Runs `attempt` again after a connection fault while `mayRetry(error)` says that is safe. */
async function withRetries<T>(
  pool: FreshPool,
  attempt: () => Promise<T>,
  mayRetry: (error: unknown) => boolean,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    const seen = pool.faultGeneration;
    try {
      return await attempt();
    } catch (error) {
      if (!isTransientError(error)) throw error;
      // Whatever is sent next, by this caller or another, goes on a connection opened from now.
      pool.connectionLost(seen);
      if (retry >= RETRY_DELAYS_MS.length || !mayRetry(error)) throw error;
      await sleep(RETRY_DELAYS_MS[retry]);
    }
  }
}

function connect(databaseUrl: string, maxConnections: number) {
  const pool = new FreshPool({ connectionString: databaseUrl, max: maxConnections });
  // The pool is this client's: $disconnect ends it (a CLI then exits at once).
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }).$extends({
    query: {
      $allOperations({ operation, args, query, ...rest }) {
        // Inside a transaction the connection is the transaction's: the transaction is what runs
        // again (below), not one of its statements.
        const internal = (rest as { __internalParams?: { transaction?: unknown } }).__internalParams;
        const inTransaction = Boolean(internal?.transaction);
        const read = READS.has(operation) || (operation === "$queryRaw" && isReadingStatement(args));
        return withRetries(
          pool,
          () => query(args),
          (error) => !inTransaction && (read || neverSent(error)),
        );
      },
    },
  });
  const transaction = client.$transaction.bind(client);
  const retryingTransaction = ((input: unknown, options?: unknown) => {
    if (typeof input !== "function") return (transaction as (...args: unknown[]) => unknown)(input, options);
    const callback = input as (tx: unknown) => Promise<unknown>;
    let committing = false;
    return withRetries(
      pool,
      () => {
        committing = false;
        return (transaction as (run: (tx: unknown) => Promise<unknown>, options?: unknown) => Promise<unknown>)(
          async (tx) => {
            const result = await callback(tx);
            committing = true;
            return result;
          },
          options,
        );
      },
      // Failed before its COMMIT was sent (or its COMMIT was refused unsent): nothing was committed.
      (error) => !committing || neverSent(error),
    );
  }) as typeof client.$transaction;
  return new Proxy(client, {
    get: (target, property, receiver) =>
      property === "$transaction" ? retryingTransaction : Reflect.get(target, property, receiver),
  });
}

export type Db = ReturnType<typeof connect>;

export function createDb(databaseUrl: string, maxConnections = 10): Db {
  return connect(databaseUrl, maxConnections);
}
