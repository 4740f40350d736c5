// The deployment's health over the last hour or day, as the console's monitoring view charts it:
// runs by status per bucket, error rate, run duration and queue wait percentiles, queue depth.
import type { AgentRuntime } from "@lgp/contracts";
import { ForbiddenError } from "@lgp/server-kit";
import { STUDIO_USER_CONTEXT, type AuthContext } from "../auth";
import type { Frame, MonitoringRepository, StatsRow } from "./repository";

type Schemas = AgentRuntime.components["schemas"];
export type MonitoringWindow = Schemas["MonitoringWindow"];
export type RunMonitoring = Schemas["RunMonitoring"];
type RunStats = Schemas["RunStats"];

/** Minutes over the last hour; quarters of an hour over the last day. */
export const WINDOWS: Record<MonitoringWindow, { bucketSeconds: 60 | 900; buckets: number }> = {
  "1h": { bucketSeconds: 60, buckets: 60 },
  "24h": { bucketSeconds: 900, buckets: 96 },
};

/** The frame of a window at `now`: whole buckets, aligned to the clock, the last one holding `now`. */
export function frameOf(window: MonitoringWindow, now: Date): Frame {
  const { bucketSeconds, buckets } = WINDOWS[window];
  const ms = bucketSeconds * 1000;
  const end = Math.floor(now.getTime() / ms) * ms + ms;
  return { from: new Date(end - buckets * ms), to: new Date(end), now, bucketSeconds };
}

/** Seconds to the millisecond (the timestamps' precision). */
const seconds = (value: number | null): number | null => (value === null ? null : Math.round(value * 1000) / 1000);

export function presentStats(row: StatsRow): RunStats {
  const ended = row.success + row.error + row.interrupted + row.timeout;
  return {
    runs: row.runs,
    by_status: {
      pending: row.pending,
      running: row.running,
      success: row.success,
      error: row.error,
      interrupted: row.interrupted,
      timeout: row.timeout,
    },
    error_rate: ended ? (row.error + row.timeout) / ended : null,
    duration_p50_seconds: seconds(row.duration_p50),
    duration_p95_seconds: seconds(row.duration_p95),
    queue_wait_p50_seconds: seconds(row.wait_p50),
    queue_wait_p95_seconds: seconds(row.wait_p95),
  };
}

export class MonitoringService {
  constructor(private readonly repository: MonitoringRepository) {}

  /**
   * The figures are the whole deployment's, every user's runs: under a custom auth handler only a
   * deployment key (the operator's tools) reads them; an app's user is refused.
   */
  async runs(window: MonitoringWindow, auth: AuthContext | undefined): Promise<RunMonitoring> {
    if (auth && auth !== STUDIO_USER_CONTEXT)
      throw new ForbiddenError("Monitoring is the whole deployment's: it needs the deployment's API key");
    const frame = frameOf(window, await this.repository.now());
    const [buckets, totals, current] = await Promise.all([
      this.repository.buckets(frame),
      this.repository.totals(frame),
      this.repository.active(),
    ]);
    return {
      window,
      bucket_seconds: frame.bucketSeconds as RunMonitoring["bucket_seconds"],
      from: frame.from.toISOString(),
      to: frame.to.toISOString(),
      generated_at: frame.now.toISOString(),
      totals: presentStats(totals),
      current,
      buckets: buckets.map((row) => ({
        start: row.start.toISOString(),
        ...presentStats(row),
        queue_depth: row.queue_depth,
      })),
    };
  }
}
