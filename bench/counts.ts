// Counts per run that do not depend on the machine (issue 19): what the database and Redis were
// asked to do during the measured phase, from their own statistics. PostgreSQL's: transactions
// from pg_stat_database, rows read (sequential and by index) and written from the tables' own
// statistics (pg_stat_user_tables), which leave out what autovacuum reads after an earlier
// target's writes; statements from pg_stat_statements when the server loads it
// (shared_preload_libraries, see the README's Benchmarks; without it the bench says so); Redis's
// from INFO (commands by name, bytes it received).
import Redis from "ioredis";
import pg from "pg";

export interface Counts {
  /** Transactions committed (each statement outside a transaction is one). */
  transactions: number;
  /** Statements executed (BEGIN and COMMIT included), when pg_stat_statements is loaded. */
  statements?: number;
  /** The statements by count per run, most first (their text as pg_stat_statements normalises it). */
  topStatements?: [string, number][];
  /** Rows read from the tables by sequential scans plus rows fetched by index. */
  rowsRead: number;
  rowsWritten: number;
  redisCommands?: number;
  redisBytesIn?: number;
  /** The Redis commands a run takes at least once in four, by count, most first. */
  topRedisCommands?: [string, number][];
}

interface PgStats {
  transactions: number;
  rowsRead: number;
  rowsWritten: number;
}

async function pgStats(client: pg.Client): Promise<PgStats> {
  // Statistics are flushed by each backend within about a second of its last transaction.
  await client.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await client.query<Record<string, string>>(
    `SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()) AS transactions,
            sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)) AS rows_read,
            sum(n_tup_ins + n_tup_upd + n_tup_del) AS rows_written
     FROM pg_stat_user_tables`,
  );
  return {
    transactions: Number(rows[0]?.transactions ?? 0),
    rowsRead: Number(rows[0]?.rows_read ?? 0),
    rowsWritten: Number(rows[0]?.rows_written ?? 0),
  };
}

/** Calls per statement in this database, or undefined without pg_stat_statements. */
async function statementCalls(client: pg.Client): Promise<Map<string, { query: string; calls: number }> | undefined> {
  try {
    const { rows } = await client.query<{ queryid: string; query: string; calls: string }>(
      `SELECT queryid::text, query, calls FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    return new Map(rows.map((row) => [row.queryid, { query: row.query, calls: Number(row.calls) }]));
  } catch {
    return undefined;
  }
}

/**
 * Makes the statement statistics readable in this database when the server collects them (it
 * loads pg_stat_statements); without, the counts leave statements out and the bench says how to
 * turn them on.
 */
export async function enableStatementStats(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ loaded: boolean }>(
      "SELECT current_setting('shared_preload_libraries') ~ 'pg_stat_statements' AS loaded",
    );
    if (rows[0]?.loaded) await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  } finally {
    await client.end();
  }
}

/**
 * Lets the database settle before a measured phase: what earlier phases left for autovacuum is
 * vacuumed now, and dirty pages are written out (CHECKPOINT, when the bench's role may), so that
 * work is not charged to the next phase's "rest". Each phase's own writes are still its own.
 */
export async function settleDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("VACUUM (ANALYZE)");
    await client.query("CHECKPOINT").catch(() => undefined);
  } finally {
    await client.end();
  }
}

async function redisStats(redis: Redis): Promise<{ commands: Map<string, number>; bytesIn: number }> {
  const commands = new Map<string, number>();
  for (const line of (await redis.info("commandstats")).split("\n")) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) commands.set(match[1]!, Number(match[2]));
  }
  const bytesIn = Number(/total_net_input_bytes:(\d+)/.exec(await redis.info("stats"))?.[1] ?? 0);
  return { commands, bytesIn };
}

/** Starts counting; the answer stops it and gives the counts per run. */
export async function startCountMeter(
  databaseUrl: string,
  redisUrl?: string,
): Promise<(runs: number) => Promise<Counts>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const redis = redisUrl ? new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 }) : undefined;
  await redis?.connect();
  const pgBefore = await pgStats(client);
  const statementsBefore = await statementCalls(client);
  const redisBefore = redis ? await redisStats(redis) : undefined;
  return async (runs) => {
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    try {
      const pgAfter = await pgStats(client);
      const counts: Counts = {
        transactions: (pgAfter.transactions - pgBefore.transactions) / runs,
        rowsRead: (pgAfter.rowsRead - pgBefore.rowsRead) / runs,
        rowsWritten: (pgAfter.rowsWritten - pgBefore.rowsWritten) / runs,
      };
      const statementsAfter = statementsBefore ? await statementCalls(client) : undefined;
      if (statementsBefore && statementsAfter) {
        const deltas = [...statementsAfter]
          .map(
            ([id, { query, calls }]) =>
              [query, (calls - (statementsBefore.get(id)?.calls ?? 0)) / runs] as [string, number],
          )
          // The meter's own statistics queries are not the runtime's.
          .filter(([query, calls]) => calls > 0 && !/pg_stat_|pg_database|pg_stat_clear_snapshot/.test(query));
        counts.statements = deltas.reduce((sum, [, calls]) => sum + calls, 0);
        counts.topStatements = deltas.sort((a, b) => b[1] - a[1]).slice(0, 12);
      }
      if (redis && redisBefore) {
        const after = await redisStats(redis);
        const deltas = [...after.commands].map(
          ([name, calls]) => [name, (calls - (redisBefore.commands.get(name) ?? 0)) / runs] as [string, number],
        );
        counts.redisCommands = deltas.reduce((sum, [, calls]) => sum + calls, 0);
        counts.redisBytesIn = (after.bytesIn - redisBefore.bytesIn) / runs;
        // Every command a run takes at least once in four (BullMQ's scripts' own commands among
        // them), so the runtime's own (XREAD, CLIENT UNBLOCK...) show beside the queue's.
        counts.topRedisCommands = deltas.filter(([, calls]) => calls >= 0.25).sort((a, b) => b[1] - a[1]);
      }
      return counts;
    } finally {
      await client.end();
      redis?.disconnect();
    }
  };
}
