// A soak: the runtime in its production shape under a steady load for a long time, with a fault
// every interval in turn (a worker SIGKILLed, Redis restarted, PostgreSQL's connections cut), then
// a drain; judged on its runs (none lost, stuck, failed or duplicated) and on the memory of every
// process (flat, no leak). `npm run soak` (bench/soak/run.ts) prints it; the short drill in
// services/agent-runtime/test/drills/soak.test.ts runs it in the suite.
import { Load, type LoadCounts } from "./load";
import { FAULT_KINDS, type FaultKind, type SoakOptions } from "./options";
import { activeRuns, outcome, runsByStatus, type Outcome } from "./outcome";
import { judge, RssRecorder, type RssVerdict } from "./rss";
import { startStack } from "./stack";

export interface FaultRecord {
  kind: FaultKind;
  /** Seconds into the soak. */
  atS: number;
  what: string;
  error?: string;
}

export interface SoakReport {
  options: SoakOptions;
  /** How long runs were created, and the drain after, in seconds. */
  loadS: number;
  drainS: number;
  load: LoadCounts;
  faults: FaultRecord[];
  outcome: Outcome;
  rss: RssVerdict[];
  /** What failed the soak; empty when it passed. */
  problems: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Calls `work` every `everyS` seconds (the first after one interval) until `running()` is false. */
async function every(everyS: number, running: () => boolean, work: () => Promise<void> | void): Promise<void> {
  const started = performance.now();
  for (let round = 1; ; round += 1) {
    const due = started + round * everyS * 1000;
    while (running() && performance.now() < due) await sleep(Math.min(250, due - performance.now()));
    if (!running()) return;
    await work();
  }
}

export function elapsed(seconds: number): string {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** `stop` ends the load early (Ctrl-C): the drain, the checks and the figures follow as at the end. */
export async function runSoak(
  options: SoakOptions,
  log: (line: string) => void = console.log,
  stop?: AbortSignal,
): Promise<SoakReport> {
  const stack = await startStack(options, (what) => log(`CRASH: ${what}`));
  try {
    const recorder = new RssRecorder();
    const load = new Load(stack.url, options);
    const faults: FaultRecord[] = [];
    const t0 = performance.now();
    const since = () => (performance.now() - t0) / 1000;
    const loading = () => since() < options.durationS && !stop?.aborted;
    const sample = () => recorder.sample(since(), stack.processes());

    const progress = async () => {
      // A count that meets a fault (its connection cut) is shown as "?".
      const byStatus = await runsByStatus(stack.databaseUrl).catch(() => undefined);
      const runs = byStatus
        ? `success ${byStatus.success ?? 0}, pending ${byStatus.pending ?? 0}, running ${byStatus.running ?? 0}, ` +
          `other ${Object.entries(byStatus).reduce((n, [s, c]) => (["success", "pending", "running"].includes(s) ? n : n + c), 0)}`
        : "runs ?";
      const refused = Object.entries(load.counts.refused).map(([status, n]) => `${status} ${n}`);
      const kinds = FAULT_KINDS.map((kind) => `${faults.filter((f) => f.kind === kind).length}`).join("/");
      const rss = [...recorder.latest()].map(([role, mb]) => `${role} ${mb.toFixed(0)}`).join(", ");
      log(
        `[${elapsed(since())}] sent ${load.counts.sent} (${(load.counts.sent / since()).toFixed(1)}/s), ` +
          `answered ${load.counts.acknowledged}, refused ${refused.join(", ") || 0}, behind ${load.counts.behind} | ` +
          `${runs} | faults ${kinds} (worker/redis/pg) | RSS MB ${rss}`,
      );
    };

    log(
      `soak: ${elapsed(options.durationS)} at ${options.rate} runs/s, a fault every ${options.faultEveryS} s ` +
        `(${FAULT_KINDS.join(", ")}), API process + ${options.workerProcesses} worker processes ` +
        `(WORKERS=${options.workersPerProcess}) on a private Redis and database ${new URL(stack.databaseUrl).pathname.slice(1)}`,
    );
    sample();
    load.start();
    await Promise.all([
      every(options.sampleEveryS, loading, sample),
      every(options.progressEveryS, loading, progress),
      every(options.faultEveryS, loading, async () => {
        const kind = FAULT_KINDS[faults.length % FAULT_KINDS.length];
        const record: FaultRecord = { kind, atS: since(), what: "" };
        faults.push(record);
        try {
          record.what = await stack.fault(kind);
        } catch (error) {
          record.error = (error as Error).message;
        }
        log(`[${elapsed(record.atS)}] fault: ${record.error ? `${kind} FAILED: ${record.error}` : record.what}`);
      }),
    ]);
    sample();
    const loadS = since();

    // The drain: every run the load made should end; streams still open end with their runs.
    const drainStart = since();
    const stopped = load.stop();
    while (since() - drainStart < options.drainS) {
      const active = await activeRuns(stack.databaseUrl).catch(() => NaN);
      if (active === 0) break;
      await sleep(1_000);
    }
    await Promise.race([stopped, sleep(5_000)]);
    const drainS = since() - drainStart;
    await progress();

    const report: SoakReport = {
      options,
      loadS,
      drainS,
      load: load.counts,
      faults,
      outcome: await outcome(stack.databaseUrl, load.runIds),
      rss: judge(recorder, {
        warmupS: options.warmupS,
        slopeMbPerHour: options.rssSlopeMbPerHour,
        growth: options.rssGrowth,
      }),
      problems: [],
    };
    for (const key of ["lost", "stuck", "failed", "duplicated"] as const) {
      if (report.outcome[key]) report.problems.push(`${report.outcome[key]} run(s) ${key}`);
    }
    for (const crash of stack.crashes) report.problems.push(crash);
    if (load.firstErrors.length) log(`the first error of each kind: ${load.firstErrors.join(" | ")}`);
    for (const fault of faults.filter((f) => f.error))
      report.problems.push(`the ${fault.kind} fault failed: ${fault.error}`);
    for (const verdict of report.rss.filter((v) => v.flat === false)) {
      report.problems.push(
        `${verdict.role}'s RSS grew: ${verdict.slopeMbPerHour.toFixed(1)} MB/h, ${verdict.q2Mb.toFixed(0)} -> ${verdict.q4Mb.toFixed(0)} MB`,
      );
    }
    if (report.problems.length) log(`the processes' latest output:\n${stack.output().slice(-5_000)}`);
    return report;
  } finally {
    await stack.close();
  }
}
