// CPU accounting for the benchmarks, from Linux's /proc: how many CPU milliseconds each party
// (the server's processes, the benchmark's own clients, everything else: PostgreSQL, Redis) spent
// during a measured phase. On a 2-core machine shared by clients and server this, not wall time,
// says where each run's cost goes. Elsewhere (no /proc) every figure is NaN.
import { readdirSync, readFileSync } from "node:fs";

/** Kernel clock ticks per second (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

function readTicks(file: string): number[] | undefined {
  try {
    // Fields after the command name (which may contain spaces), from field 3 (state) on.
    const text = readFileSync(file, "utf8");
    return text
      .slice(text.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
  } catch {
    return undefined;
  }
}

/** CPU ms used so far by every live process of a process group (utime + stime). */
export function groupCpuMs(pgid: number): number {
  let ticks = 0;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return NaN;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = readTicks(`/proc/${entry}/stat`);
    // fields[2] is pgrp; [11] utime, [12] stime (stat fields 5, 14, 15).
    if (fields && fields[2] === pgid) ticks += fields[11] + fields[12];
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** CPU ms the whole machine has been busy (all cores, everything but idle and iowait). */
export function machineBusyMs(): number {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return ((user + nice + system + irq + softirq + steal) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** CPU ms this process has used. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * What the machine is busy with when nothing of the benchmark runs (other services' timers, the
 * kernel's housekeeping), in CPU ms per second; set by measureBackground. A slower target runs
 * longer and would otherwise be charged more of it per run.
 */
let backgroundMsPerSecond = 0;

/** Measures the machine's background load for `ms` while nothing of the benchmark runs. */
export async function measureBackground(ms = 3000): Promise<number> {
  const start = machineBusyMs();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  useBackground(((machineBusyMs() - start) / (performance.now() - started)) * 1000);
  return backgroundMsPerSecond;
}

/** Uses a background load measured elsewhere (a child bench process takes its parent's). */
export function useBackground(msPerSecond: number): void {
  backgroundMsPerSecond = Number.isFinite(msPerSecond) ? Math.max(0, msPerSecond) : 0;
}

export interface CpuSplit {
  /** The system under test: runtime processes (API and workers), or the in-process ceiling. */
  server: number;
  /** The benchmark's clients (this process), when they are not the system under test. */
  clients: number;
  /** Everything else the machine did (PostgreSQL, Redis, the kernel's share), its background load taken out. */
  rest: number;
}

/**
 * Starts measuring; the returned function ends the phase and answers CPU ms per run.
 * `serverCpuMs` reads the system under test's CPU; when it is this very process (the ceiling)
 * pass `ownCpuMs` and the clients' share is reported as 0.
 */
export function startCpuMeter(serverCpuMs: () => number): (runs: number) => CpuSplit {
  const inProcess = serverCpuMs === ownCpuMs;
  const start = { server: serverCpuMs(), own: ownCpuMs(), machine: machineBusyMs(), at: performance.now() };
  return (runs) => {
    const server = serverCpuMs() - start.server;
    const clients = inProcess ? 0 : ownCpuMs() - start.own;
    const background = (backgroundMsPerSecond * (performance.now() - start.at)) / 1000;
    const machine = machineBusyMs() - start.machine - background;
    return { server: server / runs, clients: clients / runs, rest: (machine - server - clients) / runs };
  };
}
