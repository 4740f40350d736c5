// What a measured phase asked of PostgreSQL (and Redis), in a database the growth bench owns: its
// statistics are per database, so they hold only the bench's target's work. Transactions and rows
// from pg_stat_database and the tables' statistics, scans by index, the bytes its tables grew by,
// the CPU of its backends (from /proc, by the pids pg_stat_activity lists), WAL bytes (the whole
// server's: other databases' writes count too) and Redis's commands and CPU (INFO).
import { readFileSync } from "node:fs";
import Redis from "ioredis";
import pg from "pg";

/**
 * How long a phase waits for the backends' statistics: an idle backend that flushed less than a
 * second before its last transaction flushes the rest after 10 s (PostgreSQL 15's
 * PGSTAT_IDLE_INTERVAL), so a shorter wait misses part of the phase's work.
 */
const statsWaitMs = () => Number(process.env.GROWTH_STATS_WAIT_MS ?? 10_500);

export interface PhaseCounts {
  transactions: number;
  /** Statements, when the server loads pg_stat_statements (else undefined). */
  statements?: number;
  /** Rows read from the bench's tables: sequential scans' rows plus rows fetched by index. */
  rowsRead: number;
  rowsWritten: number;
  /** Rows pg_stat_database says the database returned and fetched (catalogs included). */
  tuplesReturned: number;
  seqScans: number;
  /** Index scans by index name. */
  indexScans: Record<string, number>;
  /** How much the database's tables (TOAST and indexes included) grew. */
  bytesGrown: number;
  /** WAL the whole server wrote (other databases' too). */
  walBytes: number;
  /** CPU ms of the database's backends that lived through the phase or started in it. */
  postgresCpuMs: number;
  /** The most backends the database had at a phase's end or start. */
  connections: number;
  redisCommands?: number;
  redisCpuMs?: number;
  /** The phase's length, its statistics' wait included. */
  elapsedMs: number;
}

interface Snapshot {
  values: Record<string, number>;
  statements?: number;
  indexScans: Map<string, number>;
  backends: Map<number, number>;
  redis?: { commands: number; cpuMs: number };
}

const TICKS_PER_SECOND = 100;

function processCpuMs(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text
      .slice(text.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    return ((fields[11] + fields[12]) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

async function snapshot(client: pg.Client, redis: Redis | undefined): Promise<Snapshot> {
  await client.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await client.query<Record<string, string>>(
    `SELECT d.xact_commit + d.xact_rollback AS transactions, d.tup_returned + d.tup_fetched AS tuples_returned,
            t.rows_read, t.rows_written, t.seq_scans, t.bytes, pg_current_wal_lsn() - '0/0'::pg_lsn AS wal
     FROM pg_stat_database d,
          (SELECT coalesce(sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)), 0) AS rows_read,
                  coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) AS rows_written,
                  coalesce(sum(seq_scan), 0) AS seq_scans,
                  coalesce(sum(pg_total_relation_size(relid)), 0) AS bytes
           FROM pg_stat_user_tables) t
     WHERE d.datname = current_database()`,
  );
  const values = Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)]));
  const indexes = await client.query<{ name: string; scans: string }>(
    "SELECT relname || '.' || indexrelname AS name, idx_scan AS scans FROM pg_stat_user_indexes",
  );
  const backends = await client.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  let statements: number | undefined;
  try {
    const result = await client.query<{ calls: string }>(
      `SELECT coalesce(sum(calls), 0) AS calls FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND query !~ 'pg_stat_|pg_database|pg_current_wal_lsn|pg_stat_activity'`,
    );
    statements = Number(result.rows[0]?.calls ?? 0);
  } catch {
    statements = undefined;
  }
  let redisSnapshot: Snapshot["redis"];
  if (redis) {
    const stats = await redis.info("commandstats");
    const commands = [...stats.matchAll(/calls=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    const cpu = await redis.info("cpu");
    const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? 0);
    redisSnapshot = { commands, cpuMs: (seconds("used_cpu_sys") + seconds("used_cpu_user")) * 1000 };
  }
  return {
    values,
    statements,
    indexScans: new Map(indexes.rows.map((row) => [row.name, Number(row.scans)])),
    backends: new Map(backends.rows.map((row) => [row.pid, processCpuMs(row.pid) ?? 0])),
    redis: redisSnapshot,
  };
}

export type Meter = (per: number) => Promise<PhaseCounts>;

/** What the target does by itself (sweeps, schedulers, pools' checks), per ms: taken out of a phase. */
export type Background = Partial<
  Record<
    | "transactions"
    | "rowsRead"
    | "rowsWritten"
    | "tuplesReturned"
    | "seqScans"
    | "redisCommands"
    | "redisCpuMs"
    | "postgresCpuMs",
    number
  >
>;

/**
 * Measures the target's background for `ms` while nothing is asked of it, once what came before
 * has reached the statistics (else its late flush would count as background).
 */
export async function measureBackground(databaseUrl: string, redisUrl?: string, ms = 5_000): Promise<Background> {
  await new Promise((resolve) => setTimeout(resolve, statsWaitMs()));
  const meter = await startMeter(databaseUrl, redisUrl);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const counts = await meter(1);
  const elapsed = counts.elapsedMs;
  return Object.fromEntries(
    (
      [
        "transactions",
        "rowsRead",
        "rowsWritten",
        "tuplesReturned",
        "seqScans",
        "redisCommands",
        "redisCpuMs",
        "postgresCpuMs",
      ] as const
    ).map((key) => [key, Math.max(0, (counts[key] ?? 0) / elapsed)]),
  );
}

/**
 * Starts a phase; the answer ends it and divides its counts by `per` (runs, or requests), less
 * the target's background over the phase's time when given.
 */
export async function startMeter(databaseUrl: string, redisUrl?: string, background: Background = {}): Promise<Meter> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  const before = await snapshot(client, redis);
  const startedAt = performance.now();
  return async (per) => {
    try {
      // The backends' CPU is read while they live (a pool may close idle ones during the wait).
      const pids = await client.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      );
      let postgresCpuMs = 0;
      for (const { pid } of pids.rows) postgresCpuMs += (processCpuMs(pid) ?? 0) - (before.backends.get(pid) ?? 0);
      await new Promise((resolve) => setTimeout(resolve, statsWaitMs()));
      const after = await snapshot(client, redis);
      const elapsedMs = performance.now() - startedAt;
      const own = (key: keyof Background, total: number) => (total - (background[key] ?? 0) * elapsedMs) / per;
      const delta = (key: string, backgroundKey?: keyof Background) =>
        own(backgroundKey ?? (key as keyof Background), after.values[key]! - before.values[key]!);
      const indexScans: Record<string, number> = {};
      for (const [name, scans] of after.indexScans) {
        const added = (scans - (before.indexScans.get(name) ?? 0)) / per;
        if (added > 0) indexScans[name] = added;
      }
      return {
        // The meter's own snapshot is one transaction.
        transactions: delta("transactions") - 1 / per,
        statements:
          after.statements !== undefined && before.statements !== undefined
            ? (after.statements - before.statements) / per
            : undefined,
        rowsRead: delta("rows_read", "rowsRead"),
        rowsWritten: delta("rows_written", "rowsWritten"),
        tuplesReturned: delta("tuples_returned", "tuplesReturned"),
        seqScans: delta("seq_scans", "seqScans"),
        indexScans,
        bytesGrown: (after.values.bytes! - before.values.bytes!) / per,
        walBytes: (after.values.wal! - before.values.wal!) / per,
        postgresCpuMs: own("postgresCpuMs", postgresCpuMs),
        connections: Math.max(before.backends.size, pids.rows.length),
        redisCommands:
          after.redis && before.redis ? own("redisCommands", after.redis.commands - before.redis.commands) : undefined,
        redisCpuMs: after.redis && before.redis ? own("redisCpuMs", after.redis.cpuMs - before.redis.cpuMs) : undefined,
        elapsedMs,
      };
    } finally {
      await client.end();
      redis?.disconnect();
    }
  };
}
