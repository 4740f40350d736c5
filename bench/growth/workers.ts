// Runs/s and CPU per run with 1, 2 and 4 worker processes on Redis (an API process taking no runs,
// WORKERS=20 split between the workers), 20 concurrent clients waiting on echo runs over 50
// threads. On a machine of few cores this shows where it saturates, not how it scales: the
// workers share the cores with the API process, PostgreSQL, Redis and the clients. What each run
// asks of every component (its CPU, statements, Redis commands, connections) is what the README's
// projection for a cluster is made from.
import { availableParallelism } from "node:os";
import { testRedisUrl } from "@lgp/server-kit/src/testing";
import { deleteRedisKeys } from "../../services/agent-runtime/test/support/redis-keys";
import { drive, format } from "../harness";
import { measureBackground, startMeter, type PhaseCounts } from "./meter";
import type { Panel, Table } from "./report";
import { call, startTarget } from "./target";

export interface WorkerResult {
  processes: number;
  runsPerSecond: number;
  apiCpuMs: number;
  workerCpuMs: number;
  counts: PhaseCounts;
}

export async function workersSection(
  databaseUrl: string,
  options: { processes: number[]; runs: number },
): Promise<{ tables: Table[]; panels: Panel[]; results: WorkerResult[] }> {
  const results: WorkerResult[] = [];
  const clients = 20;
  for (const processes of options.processes) {
    const prefix = `lgp-growth-${Date.now().toString(36)}-${processes}`;
    const target = await startTarget(databaseUrl, { workerProcesses: processes, redisPrefix: prefix });
    try {
      const threads: string[] = [];
      for (let i = 0; i < 50; i += 1)
        threads.push((await call<{ thread_id: string }>(target.url, "POST", "/threads", {})).thread_id);
      const job = async (index: number) => {
        await call(target.url, "POST", `/threads/${threads[index % threads.length]}/runs/wait`, {
          assistant_id: "agent",
          input: { messages: [{ role: "user", content: `hello ${index}` }] },
          multitask_strategy: "enqueue",
        });
        return { firstEventMs: NaN, endMs: NaN };
      };
      await drive(100, clients, job);
      const background = await measureBackground(databaseUrl, testRedisUrl());
      const meter = await startMeter(databaseUrl, testRedisUrl(), background);
      const before = { api: target.apiCpuMs(), workers: target.workerCpuMs() };
      const { samples, elapsedMs, failures } = await drive(options.runs, clients, job);
      if (failures) console.error(`  ${failures} runs failed with ${processes} worker process(es)`);
      results.push({
        processes,
        runsPerSecond: (samples.length / elapsedMs) * 1000,
        apiCpuMs: (target.apiCpuMs() - before.api) / samples.length,
        workerCpuMs: (target.workerCpuMs() - before.workers) / samples.length,
        counts: await meter(samples.length),
      });
    } finally {
      await target.stop();
      await deleteRedisKeys(testRedisUrl(), prefix).catch(() => undefined);
    }
  }
  const cores = availableParallelism();
  const table: Table = {
    title: `Worker processes on Redis (API process + N workers, WORKERS=20 split between them, ${clients} clients; per run)`,
    header: [
      "worker processes",
      "runs/s",
      "API CPU ms",
      "workers CPU ms",
      "PG CPU ms",
      "Redis CPU ms",
      "PG transactions",
      "Redis commands",
      "PG connections",
    ],
    rows: results.map((r) => [
      String(r.processes),
      format(r.runsPerSecond),
      format(r.apiCpuMs, 2),
      format(r.workerCpuMs, 2),
      format(r.counts.postgresCpuMs, 2),
      format(r.counts.redisCpuMs ?? NaN, 2),
      format(r.counts.transactions, 2),
      format(r.counts.redisCommands ?? NaN, 1),
      String(r.counts.connections),
    ]),
    notes: [
      `This machine has ${cores} cores, shared by the API process, the workers, PostgreSQL, Redis and the clients: more worker processes show where it saturates, not how it scales.`,
      "Redis's CPU and commands are the whole server's (other users of this Redis count too).",
    ],
  };
  return {
    tables: [table],
    panels: [
      {
        title: "Worker processes (2 cores: saturation)",
        xLabel: "worker processes",
        yLabel: "runs/s",
        linearX: true,
        series: [{ name: "runs/s", points: results.map((r) => [r.processes, r.runsPerSecond] as [number, number]) }],
      },
    ],
    results,
  };
}

/**
 * What the measured per-run costs say about a cluster: the runs/s at which each component is
 * saturated, given its cores (PostgreSQL's and an API replica's as assumed; Redis runs commands on
 * one core) and PostgreSQL's connection limit.
 */
export function projection(result: WorkerResult, maxConnections: number): string[] {
  const { counts } = result;
  const perProcess = counts.connections / (result.processes + 1);
  const pgCores = 16;
  const rate = (ms: number, cores: number) => format((cores * 1000) / ms, 0);
  return [
    `Measured per run (${result.processes} worker process(es)): API ${format(result.apiCpuMs, 2)} ms, workers ${format(result.workerCpuMs, 2)} ms, PostgreSQL ${format(counts.postgresCpuMs, 2)} ms of CPU, Redis ${format(counts.redisCpuMs ?? NaN, 2)} ms; ${format(counts.transactions, 2)} PostgreSQL transactions and ${format(counts.redisCommands ?? NaN, 1)} Redis commands; ${format(perProcess, 1)} PostgreSQL connections per process.`,
    `Redis (one core for commands): saturates near ${rate(counts.redisCpuMs ?? NaN, 1)} runs/s.`,
    `PostgreSQL on ${pgCores} cores: near ${rate(counts.postgresCpuMs, pgCores)} runs/s (${format((Number(rate(counts.postgresCpuMs, pgCores)) * counts.transactions) / 1000, 1)}k transactions/s).`,
    `Worker cores: one per ${rate(result.workerCpuMs, 1)} runs/s; API replica cores: one per ${rate(result.apiCpuMs, 1)} runs/s.`,
    `PostgreSQL connections: max_connections ${maxConnections} allows about ${format(maxConnections / Math.max(perProcess, 1), 0)} runtime processes at the pools' current sizes (a pooler such as PgBouncer, or smaller pools, lifts that).`,
  ];
}
