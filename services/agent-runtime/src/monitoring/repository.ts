// The monitoring figures, read with SQL from the runs table itself (its created_at index finds a
// window's runs; the partial index on active runs, the ones waiting and running now): no second
// store of metrics to keep in step.
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";

/** A window cut into buckets of `bucketSeconds`, the first starting at `from`, the last ending at `to`. */
export interface Frame {
  from: Date;
  to: Date;
  /** The database's time when the figures are read; no later than `to`. */
  now: Date;
  bucketSeconds: number;
}

/** Counts and percentiles of the runs created in a span (a bucket, or the whole window). */
export interface StatsRow {
  runs: number;
  pending: number;
  running: number;
  success: number;
  error: number;
  interrupted: number;
  timeout: number;
  duration_p50: number | null;
  duration_p95: number | null;
  wait_p50: number | null;
  wait_p95: number | null;
}

export interface BucketRow extends StatsRow {
  start: Date;
  queue_depth: number;
}

/** When a run may start: its creation, or `after_seconds` later (kept beside the run, not read from its kwargs). */
const DUE = Prisma.sql`COALESCE(r.due_at, r.created_at)`;
const ENDED = Prisma.sql`('success', 'error', 'interrupted', 'timeout')`;

/** The start of the bucket holding `at`: buckets are aligned to the epoch, so to the clock. */
const bucketOf = (at: Prisma.Sql, seconds: number) =>
  Prisma.sql`to_timestamp(floor(extract(epoch FROM ${at})::float8 / ${seconds}::float8) * ${seconds}::float8)`;

/** Each run created in the frame, with its bucket, its status and its timings in seconds. */
const createdRuns = (frame: Frame) => Prisma.sql`
  SELECT ${bucketOf(Prisma.sql`r.created_at`, frame.bucketSeconds)} AS start, r.status,
    CASE WHEN r.status IN ${ENDED} AND r.started_at IS NOT NULL
      THEN greatest(0, extract(epoch FROM r.updated_at - r.started_at)::float8) END AS duration,
    CASE WHEN r.started_at IS NOT NULL
      THEN greatest(0, extract(epoch FROM r.started_at - ${DUE})::float8) END AS wait
  FROM runs r
  WHERE r.created_at >= ${frame.from}::timestamptz AND r.created_at < ${frame.to}::timestamptz`;

// Percentiles leave out the nulls: the durations of runs not ended, the waits of runs not started.
const STATS = Prisma.sql`
  count(c.status)::int AS runs,
  count(*) FILTER (WHERE c.status = 'pending')::int AS pending,
  count(*) FILTER (WHERE c.status = 'running')::int AS running,
  count(*) FILTER (WHERE c.status = 'success')::int AS success,
  count(*) FILTER (WHERE c.status = 'error')::int AS error,
  count(*) FILTER (WHERE c.status = 'interrupted')::int AS interrupted,
  count(*) FILTER (WHERE c.status = 'timeout')::int AS timeout,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY c.duration) AS duration_p50,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY c.duration) AS duration_p95,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY c.wait) AS wait_p50,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY c.wait) AS wait_p95`;

export class MonitoringRepository {
  constructor(private readonly db: Db) {}

  /** The database's clock: run timestamps come from it, so the window is cut by it too. */
  async now(): Promise<Date> {
    const [row] = await this.db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
    return row.now;
  }

  /**
   * Every bucket of the frame, empty ones included, in time order: the runs created in it by
   * status with their percentiles, and the queue depth at its end. The depth is a running sum of
   * runs becoming due (+1) and leaving the queue (-1: their first start, or their end when they
   * never started, a cancelled run), so each run is read once. Runs created up to one window
   * before the frame are read for it (a run that waited longer than that and started in the frame
   * is not counted), and every run pending now, however old.
   */
  async buckets(frame: Frame): Promise<BucketRow[]> {
    const step = Prisma.sql`make_interval(secs => ${frame.bucketSeconds}::float8)`;
    const lookback = new Date(2 * frame.from.getTime() - frame.to.getTime());
    return this.db.$queryRaw<BucketRow[]>`
      WITH series AS (
        SELECT generate_series(${frame.from}::timestamptz, ${frame.to}::timestamptz - ${step}, ${step}) AS start
      ), c AS (${createdRuns(frame)}
      ), stats AS (
        SELECT c.start, ${STATS} FROM c GROUP BY c.start
      ), queued AS (
        SELECT ${DUE} AS due,
          CASE WHEN r.started_at IS NOT NULL THEN r.started_at WHEN r.status = 'pending' THEN NULL ELSE r.updated_at END AS left_at
        FROM runs r
        WHERE (r.created_at >= ${lookback}::timestamptz AND r.created_at < ${frame.to}::timestamptz) OR r.status = 'pending'
      ), moves AS (
        SELECT due AS at, 1 AS delta FROM queued WHERE left_at IS NULL OR left_at > due
        UNION ALL
        SELECT left_at, -1 FROM queued WHERE left_at > due
      ), moved AS (
        SELECT greatest(${frame.from}::timestamptz, ${bucketOf(Prisma.sql`at`, frame.bucketSeconds)}) AS start, sum(delta) AS delta
        FROM moves WHERE at <= ${frame.now}::timestamptz GROUP BY 1
      )
      SELECT s.start,
        COALESCE(st.runs, 0) AS runs, COALESCE(st.pending, 0) AS pending, COALESCE(st.running, 0) AS running,
        COALESCE(st.success, 0) AS success, COALESCE(st.error, 0) AS error,
        COALESCE(st.interrupted, 0) AS interrupted, COALESCE(st.timeout, 0) AS timeout,
        st.duration_p50, st.duration_p95, st.wait_p50, st.wait_p95,
        greatest(0, sum(COALESCE(m.delta, 0)) OVER (ORDER BY s.start))::int AS queue_depth
      FROM series s
        LEFT JOIN stats st ON st.start = s.start
        LEFT JOIN moved m ON m.start = s.start
      ORDER BY s.start`;
  }

  /** The same figures over the whole frame. */
  async totals(frame: Frame): Promise<StatsRow> {
    const [row] = await this.db.$queryRaw<StatsRow[]>`
      WITH c AS (${createdRuns(frame)})
      SELECT ${STATS} FROM c`;
    return row;
  }

  /** Runs pending and running now, whenever created (the partial index on active runs answers it). */
  async active(): Promise<{ pending: number; running: number }> {
    const rows = await this.db.$queryRaw<{ status: string; n: number }[]>`
      SELECT status, count(*)::int AS n FROM runs WHERE status IN ('pending', 'running') GROUP BY status`;
    const of = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
    return { pending: of("pending"), running: of("running") };
  }
}
