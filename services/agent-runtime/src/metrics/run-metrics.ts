// The runs' figures in /metrics (prom-client), beside the HTTP ones: what each process saw happen
// (runs created, attempts started, runs finished by status, queue wait and run duration, webhook
// deliveries) as counters and histograms, and what is true now as gauges read at scrape time (runs
// pending and running across the deployment, runs executing and streams followed in this process).
// Every process keeps its own: scrape each (API processes on their port, worker processes on
// METRICS_PORT) and sum.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { RunFinished } from "../runs/finished";
import type { RunCreatedObserver, RunStart, RunStartObserver } from "../runs/observers";

/** What the gauges read when scraped; a process leaves out what it cannot tell. */
export interface RunMetricsSources {
  /**
   * Runs pending and running in the whole deployment (its database): API processes only; every
   * API process reports the same figure, so aggregate it with max, not sum.
   */
  runCounts?: () => Promise<{ pending: number; running: number }>;
  /** Runs executing in this process. */
  executing?: () => number;
  /** Clients following streams in this process, by transport. */
  subscribers?: () => { sse: number; websocket: number };
}

/** How long a scrape waits for the run counts before it answers the last ones. */
const COUNTS_TIMEOUT_MS = 2_000;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

export class RunMetrics implements RunCreatedObserver, RunStartObserver {
  private readonly createdTotal: Counter<"graph_id">;
  private readonly startedTotal: Counter<"graph_id">;
  private readonly attemptsTotal: Counter<"graph_id">;
  private readonly resumesTotal: Counter<"graph_id">;
  private readonly finishedTotal: Counter<"graph_id" | "status">;
  private readonly queueWait: Histogram<"graph_id">;
  private readonly duration: Histogram<"graph_id" | "status">;
  private readonly webhooks: Counter<"result">;

  constructor(registry: Registry, sources: RunMetricsSources = {}) {
    const registers = [registry];
    this.createdTotal = new Counter({
      name: "lgp_runs_created_total",
      help: "Runs created, by graph",
      labelNames: ["graph_id"],
      registers,
    });
    this.startedTotal = new Counter({
      name: "lgp_runs_started_total",
      help: "Runs started (their first attempt), by graph",
      labelNames: ["graph_id"],
      registers,
    });
    this.attemptsTotal = new Counter({
      name: "lgp_run_attempts_total",
      help: "Attempts of runs started, first ones and resumes, by graph",
      labelNames: ["graph_id"],
      registers,
    });
    this.resumesTotal = new Counter({
      name: "lgp_run_resumes_total",
      help: "Runs taken again after their worker stopped or a connection failed (attempts after the first), by graph",
      labelNames: ["graph_id"],
      registers,
    });
    this.finishedTotal = new Counter({
      name: "lgp_runs_finished_total",
      help: "Runs ended, by graph and status (success, error, interrupted, timeout)",
      labelNames: ["graph_id", "status"],
      registers,
    });
    this.queueWait = new Histogram({
      name: "lgp_run_queue_wait_seconds",
      help: "Time from a run's creation (or the time it was scheduled for) to its first start",
      labelNames: ["graph_id"],
      buckets: SECONDS,
      registers,
    });
    this.duration = new Histogram({
      name: "lgp_run_duration_seconds",
      help: "Time from a run's first start to its end, by graph and status",
      labelNames: ["graph_id", "status"],
      buckets: SECONDS,
      registers,
    });
    this.webhooks = new Counter({
      name: "lgp_webhook_deliveries_total",
      help: "Webhook deliveries settled in this process, by result (delivered, failed after its attempts)",
      labelNames: ["result"],
      registers,
    });
    if (sources.runCounts) {
      const read = sources.runCounts;
      // One read per scrape, shared by both gauges. A database that does not answer (in time)
      // leaves the last figures: the scrape still has every other metric.
      let last = { pending: 0, running: 0 };
      let pending: Promise<{ pending: number; running: number }> | undefined;
      const readInTime = () => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("run counts: no answer in time")), COUNTS_TIMEOUT_MS);
        });
        return Promise.race([read(), late])
          .then((counts) => (last = counts))
          .catch(() => last)
          .finally(() => clearTimeout(timer));
      };
      const counts = () => (pending ??= readInTime().finally(() => setTimeout(() => (pending = undefined), 100)));
      new Gauge({
        name: "lgp_runs_pending",
        help: "Runs waiting to start, in the whole deployment",
        registers,
        async collect() {
          this.set((await counts()).pending);
        },
      });
      new Gauge({
        name: "lgp_runs_running",
        help: "Runs running, in the whole deployment",
        registers,
        async collect() {
          this.set((await counts()).running);
        },
      });
    }
    if (sources.executing) {
      const executing = sources.executing;
      new Gauge({
        name: "lgp_runs_executing",
        help: "Runs executing in this process",
        registers,
        collect() {
          this.set(executing());
        },
      });
    }
    if (sources.subscribers) {
      const subscribers = sources.subscribers;
      new Gauge({
        name: "lgp_stream_subscribers",
        help: "Clients following a run's or a thread's stream in this process, by transport",
        labelNames: ["transport"],
        registers,
        collect() {
          const now = subscribers();
          this.set({ transport: "sse" }, now.sse);
          this.set({ transport: "websocket" }, now.websocket);
        },
      });
    }
  }

  created(graphId: string): void {
    this.createdTotal.inc({ graph_id: graphId });
  }

  started(run: RunStart): void {
    const labels = { graph_id: run.kwargs.graph_id };
    this.attemptsTotal.inc(labels);
    if (run.attempt > 1) return this.resumesTotal.inc(labels);
    this.startedTotal.inc(labels);
    if (run.started_at) {
      const due = run.created_at.getTime() + (run.kwargs.after_seconds ?? 0) * 1000;
      this.queueWait.observe(labels, Math.max(0, run.started_at.getTime() - due) / 1000);
    }
  }

  finished(event: Pick<RunFinished, "run" | "status">): void {
    const labels = { graph_id: event.run.kwargs.graph_id, status: event.status };
    this.finishedTotal.inc(labels);
    // A run cancelled before it started has no duration.
    const started = event.run.started_at;
    if (started) this.duration.observe(labels, Math.max(0, Date.now() - new Date(started).getTime()) / 1000);
  }

  webhookSettled(delivered: boolean): void {
    this.webhooks.inc({ result: delivered ? "delivered" : "failed" });
  }
}
