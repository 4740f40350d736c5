// Resident memory of the soak's processes over time, and whether it stayed flat (no leak).
import { readFileSync } from "node:fs";

export interface RssSample {
  /** Seconds since the soak started. */
  t: number;
  mb: number;
}

/** One process's life: a role ("api", "worker-1", "redis") and its pid, with its samples. */
export interface RssSeries {
  role: string;
  pid: number;
  samples: RssSample[];
}

/** VmRSS of a live process, in MB; undefined when it is gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** Keeps a series per process; `sample` reads every process the callback names at that moment. */
export class RssRecorder {
  readonly series: RssSeries[] = [];

  sample(t: number, processes: Array<{ role: string; pid: number | undefined }>): void {
    for (const { role, pid } of processes) {
      if (!pid) continue;
      const mb = rssMb(pid);
      if (mb === undefined) continue;
      let series = this.series.find((s) => s.role === role && s.pid === pid);
      if (!series) this.series.push((series = { role, pid, samples: [] }));
      series.samples.push({ t, mb });
    }
  }

  /** The latest sample of each role's current process. */
  latest(): Map<string, number> {
    const latest = new Map<string, number>();
    for (const series of this.series) latest.set(series.role, series.samples.at(-1)!.mb);
    return latest;
  }
}

export interface RssVerdict {
  role: string;
  pid: number;
  /** Processes this role had (a killed worker's or a restarted Redis's are several). */
  lives: number;
  startMb: number;
  endMb: number;
  /** Least-squares slope of the second half of the samples after the warm-up, MB per hour. */
  slopeMbPerHour: number;
  /** Median of the second and of the last quarter of the samples after the warm-up. */
  q2Mb: number;
  q4Mb: number;
  /** Judged only for a process that lived through the whole soak; undefined otherwise. */
  flat?: boolean;
}

export function median(values: number[]): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Least-squares slope of mb over t (MB per second). */
export function slope(samples: RssSample[]): number {
  if (samples.length < 2) return NaN;
  const meanT = samples.reduce((sum, s) => sum + s.t, 0) / samples.length;
  const meanMb = samples.reduce((sum, s) => sum + s.mb, 0) / samples.length;
  let covariance = 0;
  let variance = 0;
  for (const s of samples) {
    covariance += (s.t - meanT) * (s.mb - meanMb);
    variance += (s.t - meanT) ** 2;
  }
  return variance ? covariance / variance : NaN;
}

/**
 * Each role's last process, judged on its samples after `warmupS`: flat when the slope of their
 * second half is at most `slopeMbPerHour` and the last quarter's median at most `growth` above the
 * second quarter's. The slope is of the second half because a heap still settling early on (a
 * major collection just after the warm-up, then the heap growing back to its working size) reads
 * as a steep slope over the whole run, while a leak climbs to the end: a 30-minute soak's API went
 * 235 MB (a collection at minute 5) -> 324 (minute 7) -> 330 (10) -> 334 MB (30), 63.6 MB/h over
 * all its judged samples though its quarters' medians were 331.9 and 333.8 MB. A
 * process started after the warm-up (a worker started again after a kill, Redis after a restart)
 * lived too short a part of the soak to be judged: its figures are shown, not judged.
 */
export function judge(
  recorder: RssRecorder,
  limits: { warmupS: number; slopeMbPerHour: number; growth: number },
): RssVerdict[] {
  const roles = [...new Set(recorder.series.map((s) => s.role))];
  return roles.map((role) => {
    const lives = recorder.series.filter((s) => s.role === role);
    const last = lives.at(-1)!;
    const judged = last.samples.filter((s) => s.t >= limits.warmupS);
    const quarter = Math.floor(judged.length / 4);
    const verdict: RssVerdict = {
      role,
      pid: last.pid,
      lives: lives.length,
      startMb: lives[0].samples[0].mb,
      endMb: last.samples.at(-1)!.mb,
      slopeMbPerHour: slope(judged.slice(2 * quarter)) * 3600,
      q2Mb: median(judged.slice(quarter, 2 * quarter).map((s) => s.mb)),
      q4Mb: median(judged.slice(3 * quarter).map((s) => s.mb)),
    };
    const wholeSoak = lives.length === 1 && last.samples[0].t <= limits.warmupS && quarter >= 2;
    if (wholeSoak)
      verdict.flat =
        verdict.slopeMbPerHour <= limits.slopeMbPerHour && verdict.q4Mb <= verdict.q2Mb * (1 + limits.growth);
    return verdict;
  });
}
