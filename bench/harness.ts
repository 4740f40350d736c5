// What the benchmarks share: the workload driver, percentiles and summaries, processes started
// as targets (each leading its own process group, so its CPU is the group's), tables.
import { spawn, type ChildProcess } from "node:child_process";
import { Client } from "@langchain/langgraph-sdk";
import { waitUntilOk } from "@lgp/server-kit";
import { settleDatabase, startCountMeter, type Counts } from "./counts";
import { startCpuMeter, type CpuSplit } from "./cpu";

export interface Sample {
  firstEventMs: number;
  endMs: number;
}

export interface Result {
  name: string;
  runsPerSecond: number;
  firstEvent: { p50: number; p99: number };
  end: { p50: number; p99: number };
  failures: number;
  /** CPU ms per run during the measured phase, by party. */
  cpu: CpuSplit;
  /** Machine-independent counts per run (bench/counts.ts), where the bench owns the database. */
  counts?: Counts;
  /** The ceiling measured in a fresh process right after this target. */
  adjacentCeiling?: Result;
  /** The ceiling measured right before it (after the target before, or first of all). */
  ceilingBefore?: Result;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function p50p99(values: number[]): { p50: number; p99: number } {
  return { p50: percentile(values, 50), p99: percentile(values, 99) };
}

export function summarise(name: string, samples: Sample[], elapsedMs: number, failures: number, cpu: CpuSplit): Result {
  return {
    name,
    cpu,
    runsPerSecond: (samples.length / elapsedMs) * 1000,
    firstEvent: p50p99(samples.map((s) => s.firstEventMs)),
    end: p50p99(samples.map((s) => s.endMs)),
    failures,
  };
}

/** Runs `total` jobs with `concurrency` loops; job i gets index i. */
export async function drive(total: number, concurrency: number, job: (index: number, loop: number) => Promise<Sample>) {
  const samples: Sample[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      while (next < total) {
        const index = next++;
        try {
          samples.push(await job(index, loop));
        } catch (error) {
          failures += 1;
          if (failures <= 3) console.error(`  run ${index} failed: ${(error as Error).message}`);
        }
      }
    }),
  );
  return { samples, elapsedMs: performance.now() - started, failures };
}

export async function waitUntilUp(url: string, child: ChildProcess, log: string[]): Promise<void> {
  if (!(await waitUntilOk(`${url}/ok`, 120_000, () => child.exitCode === null))) {
    throw new Error(`${url} ${child.exitCode === null ? "did not start" : "exited"}:\n${log.join("")}`);
  }
}

export function startProcess(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  /** Whether the process reads what the bench writes to it (the Python ceiling's go-ahead). */
  withStdin = false,
): { child: ChildProcess; log: string[] } {
  const log: string[] = [];
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: [withStdin ? "pipe" : "ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (chunk) => log.push(String(chunk)));
  child.stderr?.on("data", (chunk) => log.push(String(chunk)));
  return { child, log };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // The child leads its own process group (detached): signal the group, npx/tsx wrappers included.
  process.kill(-child.pid, "SIGTERM");
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

export function format(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "-";
}

export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  console.log(`${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of rows) console.log(line(row));
}

/** Each run's input: one user message. */
export const input = (index: number) => ({ messages: [{ role: "user", content: `hello ${index}` }] });

export interface WorkloadShape {
  runs: number;
  threads: number;
  clients: number;
  warmup: number;
}

/**
 * The workload's size: BENCH_RUNS (1000) streamed runs over BENCH_THREADS (100) threads by
 * BENCH_CLIENTS (20) clients, after BENCH_WARMUP runs that are not measured (`warmup`, at most
 * BENCH_RUNS, unless given).
 */
export function shapeFromEnv(defaults: { warmup?: number } = {}): WorkloadShape {
  const runs = Number(process.env.BENCH_RUNS ?? 1000);
  const warmup = Number(process.env.BENCH_WARMUP ?? Math.min(defaults.warmup ?? 100, runs));
  if (!Number.isInteger(warmup) || warmup < 0)
    throw new Error(`BENCH_WARMUP must be a whole number from 0, not "${process.env.BENCH_WARMUP}"`);
  return {
    runs,
    threads: Number(process.env.BENCH_THREADS ?? 100),
    clients: Number(process.env.BENCH_CLIENTS ?? 20),
    warmup,
  };
}

/**
 * The HTTP workload: `clients` official clients each streaming runs of the `agent` graph
 * (`updates`), over `threads` threads, after a warm-up; `serverCpuMs` reads the CPU the server's
 * processes have used (for the CPU split), `stores` lets what a run asks of PostgreSQL and Redis be
 * counted, `job` replaces the client's run with another way of making one.
 */
export async function streamedRunsWorkload(
  name: string,
  apiUrl: string,
  serverCpuMs: () => number,
  shape: WorkloadShape,
  options: {
    stores?: { databaseUrl: string; redisUrl?: string };
    job?: (threadId: string, index: number) => Promise<Sample>;
  } = {},
): Promise<Result> {
  const clients = Array.from({ length: shape.clients }, () => new Client({ apiUrl, callerOptions: { maxRetries: 0 } }));
  const threads: string[] = [];
  for (let i = 0; i < shape.threads; i += 1) threads.push((await clients[0].threads.create()).thread_id);
  const job = async (index: number, loop: number): Promise<Sample> => {
    const threadId = threads[index % shape.threads];
    if (options.job) return options.job(threadId, index);
    const started = performance.now();
    let firstEventMs = NaN;
    let sawEnd = false;
    for await (const part of clients[loop].runs.stream(threadId, "agent", {
      input: input(index),
      streamMode: ["updates"],
    })) {
      if (Number.isNaN(firstEventMs)) firstEventMs = performance.now() - started;
      if (part.event === "error") throw new Error(JSON.stringify(part.data));
      if (part.event === "updates") sawEnd = true;
    }
    if (!sawEnd) throw new Error("the stream ended without the agent's update");
    return { firstEventMs, endMs: performance.now() - started };
  };
  await drive(shape.warmup, shape.clients, job);
  const { stores } = options;
  if (stores) await settleDatabase(stores.databaseUrl);
  const counter = stores ? await startCountMeter(stores.databaseUrl, stores.redisUrl) : undefined;
  const meter = startCpuMeter(serverCpuMs);
  const { samples, elapsedMs, failures } = await drive(shape.runs, shape.clients, job);
  const result = summarise(name, samples, elapsedMs, failures, meter(samples.length));
  if (counter) result.counts = await counter(samples.length);
  return result;
}
