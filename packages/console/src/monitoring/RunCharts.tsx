import { useId, type ReactElement } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { RunBucket, RunMonitoring, RunStats } from "./runtime-monitoring";

/** Run statuses as the charts stack them, with their colours (the console's own where it has one). */
const STATUSES = [
  ["success", "Success", "#1a7f37"],
  ["error", "Error", "#cf222e"],
  ["timeout", "Timeout", "#bc4c00"],
  ["interrupted", "Interrupted", "#8250df"],
  ["running", "Running", "#0969da"],
  ["pending", "Pending", "#9a6700"],
] as const;

type Status = (typeof STATUSES)[number][0];

/** One bucket as the charts read it: counts by status, the rate in percent, times in seconds. */
type Point = Record<Status, number> & {
  time: string;
  errorRate: number | null;
  p50: number | null;
  p95: number | null;
  waitP95: number | null;
  depth: number;
};

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const percent = (rate: number | null) => (rate === null ? null : Math.round(rate * 1000) / 10);

function pointOf(bucket: RunBucket): Point {
  return {
    time: clock(bucket.start),
    ...bucket.by_status,
    errorRate: percent(bucket.error_rate),
    p50: bucket.duration_p50_seconds,
    p95: bucket.duration_p95_seconds,
    waitP95: bucket.queue_wait_p95_seconds,
    depth: bucket.queue_depth,
  };
}

/** A duration for people: milliseconds under a second, seconds under a minute, then minutes. */
export function formatSeconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  if (value < 1) return `${Math.round(value * 1000)} ms`;
  if (value < 60) return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} s`;
  return `${Math.floor(value / 60)} min ${Math.round(value % 60)} s`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const errorsOf = (stats: RunStats) => stats.by_status.error + stats.by_status.timeout;
const rateText = (rate: number | null) =>
  rate === null ? "no error rate (none ended)" : `error rate ${Math.round(rate * 100)}%`;

/** The window in one sentence each: what ran, how it ended, how long it took and waited, what waits now. */
export function Summary({ monitoring }: { monitoring: RunMonitoring }) {
  const { totals, current } = monitoring;
  return (
    <section className="summary card" aria-label="Summary">
      <p className="summary-line">
        {plural(totals.runs, "run")}, {plural(errorsOf(totals), "error")}, {rateText(totals.error_rate)}
      </p>
      <p>
        Duration p50 {formatSeconds(totals.duration_p50_seconds)}, p95 {formatSeconds(totals.duration_p95_seconds)}
        {" · "}queue wait p50 {formatSeconds(totals.queue_wait_p50_seconds)}, p95{" "}
        {formatSeconds(totals.queue_wait_p95_seconds)}
      </p>
      <p>
        Now: {current.pending} pending, {current.running} running
      </p>
    </section>
  );
}

function Chart({ title, children }: { title: string; children: ReactElement }) {
  const id = useId();
  return (
    <figure className="chart" aria-labelledby={id}>
      <figcaption id={id}>{title}</figcaption>
      <ResponsiveContainer width="100%" height={190}>
        {children}
      </ResponsiveContainer>
    </figure>
  );
}

const axis = { fontSize: 11 };

/** Runs by status, error rate, durations and the queue, one point per bucket; a table of the same figures beside. */
export function RunCharts({ monitoring }: { monitoring: RunMonitoring }) {
  const points = monitoring.buckets.map(pointOf);
  const unit = monitoring.bucket_seconds === 60 ? "minute" : "15 minutes";
  return (
    <>
      <div className="charts">
        <Chart title={`Runs per ${unit}, by status`}>
          <BarChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="time" tick={axis} minTickGap={24} />
            <YAxis allowDecimals={false} tick={axis} />
            <Tooltip />
            <Legend iconSize={10} wrapperStyle={axis} />
            {STATUSES.map(([key, name, color]) => (
              <Bar
                key={key}
                dataKey={key}
                name={name}
                stackId="runs"
                fill={color}
                className={`bar-${key}`}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </Chart>
        <Chart title="Error rate (errors and timeouts over runs ended), %">
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="time" tick={axis} minTickGap={24} />
            <YAxis domain={[0, 100]} tick={axis} />
            <Tooltip />
            <Line
              dataKey="errorRate"
              name="Error rate %"
              stroke="#cf222e"
              dot={{ r: 2, className: "dot-error-rate" }}
              className="line-error-rate"
              isAnimationActive={false}
            />
          </LineChart>
        </Chart>
        <Chart title="Run duration, seconds">
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="time" tick={axis} minTickGap={24} />
            <YAxis tick={axis} />
            <Tooltip />
            <Legend iconSize={10} wrapperStyle={axis} />
            <Line
              dataKey="p50"
              name="p50"
              stroke="#0969da"
              dot={{ r: 2, className: "dot-p50" }}
              className="line-p50"
              isAnimationActive={false}
            />
            <Line
              dataKey="p95"
              name="p95"
              stroke="#8250df"
              dot={{ r: 2, className: "dot-p95" }}
              className="line-p95"
              isAnimationActive={false}
            />
          </LineChart>
        </Chart>
        <Chart title="Queue: runs waiting at the end of each bucket, and queue wait p95 (s)">
          <ComposedChart data={points} margin={{ top: 4, right: 0, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="time" tick={axis} minTickGap={24} />
            <YAxis yAxisId="depth" allowDecimals={false} tick={axis} />
            <YAxis yAxisId="wait" orientation="right" tick={axis} />
            <Tooltip />
            <Legend iconSize={10} wrapperStyle={axis} />
            <Bar
              yAxisId="depth"
              dataKey="depth"
              name="Waiting"
              fill="#9a6700"
              className="bar-depth"
              isAnimationActive={false}
            />
            <Line
              yAxisId="wait"
              dataKey="waitP95"
              name="Queue wait p95"
              stroke="#57606a"
              dot={{ r: 2, className: "dot-wait" }}
              className="line-wait"
              isAnimationActive={false}
            />
          </ComposedChart>
        </Chart>
      </div>
      <FiguresTable monitoring={monitoring} />
    </>
  );
}

/** The charts' figures as a table (the buckets that had runs or a queue), for screen readers and copying. */
function FiguresTable({ monitoring }: { monitoring: RunMonitoring }) {
  const rows = monitoring.buckets.filter((bucket) => bucket.runs > 0 || bucket.queue_depth > 0);
  return (
    <details className="figures">
      <summary>Figures by bucket ({rows.length} with runs)</summary>
      {rows.length ? (
        <table className="list" aria-label="Figures by bucket">
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Runs</th>
              {STATUSES.map(([key, name]) => (
                <th key={key} scope="col">
                  {name}
                </th>
              ))}
              <th scope="col">Error rate</th>
              <th scope="col">Duration p50</th>
              <th scope="col">Duration p95</th>
              <th scope="col">Wait p95</th>
              <th scope="col">Waiting</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((bucket) => (
              <tr key={bucket.start}>
                <td data-label="From">
                  <time dateTime={bucket.start}>{clock(bucket.start)}</time>
                </td>
                <td data-label="Runs">{bucket.runs}</td>
                {STATUSES.map(([key, name]) => (
                  <td key={key} data-label={name}>
                    {bucket.by_status[key]}
                  </td>
                ))}
                <td data-label="Error rate">
                  {bucket.error_rate === null ? "—" : `${Math.round(bucket.error_rate * 100)}%`}
                </td>
                <td data-label="Duration p50">{formatSeconds(bucket.duration_p50_seconds)}</td>
                <td data-label="Duration p95">{formatSeconds(bucket.duration_p95_seconds)}</td>
                <td data-label="Wait p95">{formatSeconds(bucket.queue_wait_p95_seconds)}</td>
                <td data-label="Waiting">{bucket.queue_depth}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="empty">No runs in this window.</p>
      )}
    </details>
  );
}
