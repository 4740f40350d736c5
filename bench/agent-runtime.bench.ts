// Streamed-run benchmark of the agent runtime: the same workload (the `agent` echo graph, 20
// concurrent clients of the official SDK, 1,000 streamed runs spread over 100 threads) against
//   - this runtime (API process with in-process workers, BullMQ + Redis Streams),
//   - this runtime with the in-process queue (no Redis),
//   - the API process + worker process again with OpenTelemetry traces exported over OTLP/HTTP (to
//     a sink in the bench's process that discards them): what tracing on costs per run,
//   - this runtime through the thread-centric protocol (`run.start`, then the thread's event stream
//     from the seq the command answered: what `client.threads.stream()` sends), on Redis,
//   - the official reference server (`langgraphjs dev`, installed in bench/reference/), on the run
//     API's workload and on the protocol's (the protocol target is judged against the latter),
// and the same graph run in-process with the same PostgreSQL checkpointer (no HTTP) as the ceiling
// (bench/ceiling.ts; the protocol's target has one of its own: LangGraph's v3 protocol events).
// The ceiling runs in a fresh process of its own, started like a target's server (same warm-up),
// once before the first target, right after each target and once at the end: the machine's speed
// drifts over a bench by 20-30% here, so each target's CPU is compared with the mean of the
// ceilings measured right before and right after it. Before each
// measured phase the database is vacuumed and checkpointed, so what earlier phases left for
// PostgreSQL's background work is not charged to it.
// Prints runs/s and p50/p99 time to first event and to the end, side by side, the CPU ms each run
// cost the server, the clients and the rest of the machine (bench/cpu.ts), and the targets.
//
// Options (environment): BENCH_RUNS (1000), BENCH_THREADS (100), BENCH_CLIENTS (20), BENCH_WARMUP
// (1000: runs before the measured ones, in each target and ceiling),
// BENCH_WORKERS (runtime WORKERS, 20), BENCH_LATENCY_WORKERS (WORKERS of the latency-tuned
// api+worker run, 6), BENCH_SKIP (comma list: split,tracing,latency,redis,memory,threads,protocol,
// reference, ceiling; adjacent: no ceiling after each target, only the one at the end),
// BENCH_ROUNDS (1: rounds of this runtime's targets, judged by each one's median),
// BENCH_CLIENT (sdk, or fetch: the same requests read with a bare fetch), BENCH_TARGET_URL (only
// the HTTP workload, against a server started by hand; BENCH_PROTOCOL=true: the protocol's).
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { CEILING_NAMES, freshCeiling, type CeilingKind } from "./ceiling";
import { enableStatementStats } from "./counts";
import { groupCpuMs, measureBackground } from "./cpu";
import {
  format,
  input,
  printTable,
  shapeFromEnv,
  startProcess,
  streamedRunsWorkload,
  stopProcess,
  waitUntilUp,
  type Result,
  type Sample,
} from "./harness";
import { freePort, migrate } from "@lgp/server-kit";
import { createEmptyDatabase, testRedisUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import { deleteRedisKeys } from "../services/agent-runtime/test/support/redis-keys";

const ROOT = path.resolve(__dirname, "..");
/**
 * 1,000 runs before the measured ones, in every target and ceiling: what is measured is a process's
 * steady state. With 100, this runtime's processes were still compiling their hot code while
 * measured (V8 optimised about 2,700 functions in a protocol server's first 1,100 runs, 250-350 in
 * each thousand after): a one-off cost that grows with the code a process runs, not with its runs.
 * It was charged to the targets (their CPU per run 7-10% lower with the longer warm-up) and not
 * measurably to the ceilings (within the machine's noise), which run far less code.
 */
const SHAPE = shapeFromEnv({ warmup: 1000 });
const { runs: RUNS, threads: THREADS, clients: CLIENTS, warmup: WARMUP } = SHAPE;
// Runs executed at once: 20 gives the most runs/s on 2 cores; 6 the lowest first-event latency
// (fewer runs in flight contend less with new requests).
const WORKERS = Number(process.env.BENCH_WORKERS ?? 20);
const LATENCY_WORKERS = Number(process.env.BENCH_LATENCY_WORKERS ?? 6);
/** Worker processes of the api+worker topology (BENCH_WORKER_PROCESSES); WORKERS is split between them. */
const WORKER_PROCESSES = Number(process.env.BENCH_WORKER_PROCESSES ?? 1);
const SKIP = new Set((process.env.BENCH_SKIP ?? "").split(",").filter(Boolean));
/** Whether each target has ceilings measured next to it (the verdict's), not only the one at the end. */
const ADJACENT_CEILINGS = !SKIP.has("ceiling") && !SKIP.has("adjacent");
/**
 * Rounds of this runtime's targets (BENCH_ROUNDS, 1): each round runs every target again, with its
 * ceiling next to it, and the verdicts take each target's median over the rounds. On a machine
 * whose ratios move by 0.3 between runs, one round decides little.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
  throw new Error(`BENCH_ROUNDS must be a whole number from 1, not "${process.env.BENCH_ROUNDS}"`);
const REFERENCE_PORT = 2124;
const REFERENCE = "reference server (langgraphjs dev)";
const PROTOCOL = "thread-centric protocol";
/** The reference a target is judged against: the one that did the same work (the protocol's, or the run API's). */
function referenceFor(target: string, results: Result[]): Result | undefined {
  const protocol = target.includes(PROTOCOL) && results.find((r) => r.name === `${REFERENCE}, ${PROTOCOL}`);
  return protocol || results.find((r) => r.name === REFERENCE);
}
const CONFIG = path.join(ROOT, "examples/langgraph.json");

/**
 * The CPU target against the ceiling next to a target: 1.2 with the in-process queue, 1.5 on Redis;
 * the protocol's target 1.5 against the protocol ceiling.
 */
function cpuLimit(target: string): number {
  return target.includes("in-process queue") ? 1.2 : 1.5;
}

/**
 * Server + rest CPU per run of the ceiling next to a target: the mean of the ceilings measured
 * right before and right after it, which brackets the machine's drift during the target (one
 * ceiling's own figure moves by 10-20% between runs here); the one after when there is no other.
 */
function ceilingCost(r: Result): number {
  const cost = (c: Result) => c.cpu.server + c.cpu.rest;
  const after = cost(r.adjacentCeiling!);
  return r.ceilingBefore ? (cost(r.ceilingBefore) + after) / 2 : after;
}

/**
 * One streamed run read with a bare `fetch` (BENCH_CLIENT=fetch): the same requests as the
 * official client's, with less client-side CPU on a machine the server shares.
 */
async function fetchRun(apiUrl: string, threadId: string, index: number): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(`${apiUrl}/threads/${threadId}/runs/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ assistant_id: "agent", input: input(index), stream_mode: ["updates"] }),
  });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  let firstEventMs = NaN;
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    if (Number.isNaN(firstEventMs)) firstEventMs = performance.now() - started;
    text += decoder.decode(chunk as Uint8Array, { stream: true });
  }
  if (!text.startsWith("event: metadata")) throw new Error("the stream did not start with metadata");
  if (text.includes("event: error")) throw new Error(text);
  if (!text.includes("event: updates")) throw new Error("the stream ended without the agent's update");
  return { firstEventMs, endMs: performance.now() - started };
}

/**
 * One run through the thread-centric protocol: `run.start`, then the thread's events after the seq
 * the command answered, until the root graph's lifecycle ends.
 */
async function protocolRun(apiUrl: string, threadId: string, index: number): Promise<Sample> {
  const started = performance.now();
  const command = await fetch(`${apiUrl}/threads/${threadId}/commands`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: index, method: "run.start", params: { assistant_id: "agent", input: input(index) } }),
  });
  const answer = (await command.json()) as { type: string; meta?: { applied_through_seq: number } };
  if (answer.type !== "success") throw new Error(JSON.stringify(answer));
  const controller = new AbortController();
  const response = await fetch(`${apiUrl}/threads/${threadId}/stream/events`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ channels: ["lifecycle", "updates"], since: answer.meta!.applied_through_seq }),
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  let firstEventMs = NaN;
  let text = "";
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body) {
      if (Number.isNaN(firstEventMs)) firstEventMs = performance.now() - started;
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      if (/"namespace":\[\],"timestamp":\d+,"data":\{"event":"(completed|failed|interrupted)"/.test(text)) break;
    }
  } finally {
    controller.abort();
  }
  if (!text.includes('"event":"completed","graph_name":"agent"')) throw new Error(`the run did not complete: ${text}`);
  if (!text.includes("event: updates")) throw new Error("the stream ended without the agent's update");
  return { firstEventMs, endMs: performance.now() - started };
}

/**
 * The HTTP workload (bench/harness.ts's, this bench's shape): the official client's streamed runs,
 * the same read with a bare fetch (BENCH_CLIENT=fetch), or runs of the thread-centric protocol.
 */
function httpWorkload(
  name: string,
  apiUrl: string,
  serverCpuMs: () => number,
  protocol = false,
  /** The target's database and Redis, to count what a run asks of them. */
  stores?: { databaseUrl: string; redisUrl?: string },
): Promise<Result> {
  const job = protocol
    ? (threadId: string, index: number) => protocolRun(apiUrl, threadId, index)
    : process.env.BENCH_CLIENT === "fetch"
      ? (threadId: string, index: number) => fetchRun(apiUrl, threadId, index)
      : undefined;
  return streamedRunsWorkload(name, apiUrl, serverCpuMs, SHAPE, { stores, job });
}

/** The machine's background load in CPU ms/s, measured before the bench starts anything. */
let backgroundLoad = 0;
/** The plain ceiling measured last, in a fresh process: the one before the next target. */
let lastCeiling: Result | undefined;
const ceilingOf = (databaseUrl: string, kind: CeilingKind, count = false) =>
  freshCeiling(databaseUrl, kind, { count, backgroundLoad, warmup: WARMUP });

async function runtimeWorkload(
  name: string,
  database: TestDatabase,
  redisPrefix?: string,
  topology: "single" | "api+worker" = "single",
  concurrency = WORKERS,
  protocol = false,
  extraEnv: Record<string, string> = {},
): Promise<Result> {
  // The first target's ceiling before it (every later one's is the ceiling after the target before).
  // The protocol's target is judged against the protocol ceiling, measured right before and after it.
  if (ADJACENT_CEILINGS && !lastCeiling) lastCeiling = await ceilingOf(database.url, "plain");
  const protocolBefore = ADJACENT_CEILINGS && protocol ? await ceilingOf(database.url, "protocol") : undefined;
  const port = await freePort();
  const service = path.join(ROOT, "services/agent-runtime");
  const env = {
    DATABASE_URL: database.url,
    LOG_LEVEL: "warn",
    LANGGRAPH_JSON: CONFIG,
    CHECKPOINT_POOL_SIZE: "20",
    ...(redisPrefix ? { REDIS_URL: testRedisUrl(), REDIS_PREFIX: redisPrefix } : { REDIS_URL: "" }),
    ...extraEnv,
  };
  // api+worker: the API process takes no runs; a worker process executes them (both on Redis).
  const workers =
    topology === "api+worker"
      ? Array.from({ length: WORKER_PROCESSES }, () =>
          startProcess(process.execPath, ["--import", "tsx", "src/worker.ts"], service, {
            ...env,
            WORKERS: String(Math.ceil(concurrency / WORKER_PROCESSES)),
          }),
        )
      : [];
  const { child, log } = startProcess(process.execPath, ["--import", "tsx", "src/main.ts"], service, {
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
    WORKERS: topology === "api+worker" ? "0" : String(concurrency),
  });
  let result: Result;
  try {
    await waitUntilUp(`http://127.0.0.1:${port}`, child, log);
    // Each child leads its own process group (detached): its CPU is the group's.
    const groups = [child, ...workers.map((worker) => worker.child)].map((process) => process.pid!);
    const serverCpuMs = () => groups.reduce((sum, pgid) => sum + groupCpuMs(pgid), 0);
    result = await httpWorkload(name, `http://127.0.0.1:${port}`, serverCpuMs, protocol, {
      databaseUrl: database.url,
      redisUrl: redisPrefix ? testRedisUrl() : undefined,
    });
  } finally {
    await stopProcess(child);
    for (const worker of workers) await stopProcess(worker.child);
  }
  if (ADJACENT_CEILINGS && protocol) {
    result.ceilingBefore = protocolBefore;
    result.adjacentCeiling = await ceilingOf(database.url, "protocol");
    lastCeiling = await ceilingOf(database.url, "plain");
  } else if (ADJACENT_CEILINGS) {
    result.ceilingBefore = lastCeiling;
    result.adjacentCeiling = lastCeiling = await ceilingOf(database.url, "plain");
  }
  return result;
}

/**
 * The reference server on the run API's workload and, unless the protocol target is skipped, on the
 * protocol's (it serves the thread-centric protocol too): the protocol target is judged against the
 * reference doing the same work.
 */
async function referenceWorkload(): Promise<Result[]> {
  const bin = path.join(ROOT, "bench/reference/node_modules/.bin/langgraphjs");
  if (!existsSync(bin))
    throw new Error("the reference server is not installed: cd bench/reference && npm install --legacy-peer-deps");
  const { child, log } = startProcess(
    bin,
    ["dev", "--port", String(REFERENCE_PORT), "--no-browser", "--config", CONFIG],
    path.join(ROOT, "bench/reference"),
    {
      LANGSMITH_TRACING: "false",
      LANGCHAIN_TRACING_V2: "false",
    },
  );
  try {
    const url = `http://127.0.0.1:${REFERENCE_PORT}`;
    await waitUntilUp(url, child, log);
    const results = [await httpWorkload(REFERENCE, url, () => groupCpuMs(child.pid!))];
    if (!SKIP.has("protocol"))
      results.push(await httpWorkload(`${REFERENCE}, ${PROTOCOL}`, url, () => groupCpuMs(child.pid!), true));
    return results;
  } finally {
    await stopProcess(child);
  }
}

/** An OTLP/HTTP endpoint that takes exports and discards them, counting what came. */
async function startOtlpSink(): Promise<{ url: string; requests: number; bytes: number; close(): void }> {
  const counts = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    counts.requests += 1;
    req.on("data", (chunk: Buffer) => (counts.bytes += chunk.length));
    req.on("end", () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(counts, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  });
}

async function main(): Promise<void> {
  if (process.env.BENCH_TARGET_URL) {
    // Profiling aid: only the HTTP workload, against a server started by hand.
    const result = await httpWorkload(
      process.env.BENCH_TARGET_URL,
      process.env.BENCH_TARGET_URL,
      () => NaN,
      process.env.BENCH_PROTOCOL === "true",
    );
    console.log(JSON.stringify(result));
    return;
  }
  console.log(
    `workload: echo graph, ${CLIENTS} concurrent clients, ${RUNS} streamed runs on ${THREADS} threads (+${WARMUP} warm-up)`,
  );
  // Before anything starts: the machine's own load, which "rest" would otherwise charge to the runs.
  backgroundLoad = await measureBackground();
  console.log(`machine background load: ${format(backgroundLoad, 1)} CPU ms/s (taken out of "rest")`);
  const results: Result[] = [];
  const database = await createEmptyDatabase("bench_agent_runtime");
  const prefix = `lgp-bench-${Date.now().toString(36)}`;
  try {
    await migrate(database.url, path.join(ROOT, "prisma/agent-runtime/migrations"));
    // Statement counts per run come from pg_stat_statements when the server loads it.
    await enableStatementStats(database.url);
    for (let round = 1; round <= ROUNDS; round += 1) {
      const tag = ROUNDS > 1 ? `, round ${round}` : "";
      const split = `API process + ${WORKER_PROCESSES} worker process(es), Redis`;
      if (!SKIP.has("split")) {
        const name = `this runtime (${split}, WORKERS=${WORKERS}${tag})`;
        results.push(await runtimeWorkload(name, database, `${prefix}-split`, "api+worker"));
      }
      if (!SKIP.has("tracing")) {
        const sink = await startOtlpSink();
        try {
          const name = `this runtime (${split}, WORKERS=${WORKERS}, OTLP traces on${tag})`;
          results.push(
            await runtimeWorkload(name, database, `${prefix}-tracing`, "api+worker", WORKERS, false, {
              OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
            }),
          );
          console.log(`OTLP sink: ${sink.requests} exports, ${format(sink.bytes / 1024 / 1024, 1)} MiB`);
        } finally {
          sink.close();
        }
      }
      if (!SKIP.has("latency")) {
        const name = `this runtime (${split}, WORKERS=${LATENCY_WORKERS}${tag})`;
        results.push(await runtimeWorkload(name, database, `${prefix}-latency`, "api+worker", LATENCY_WORKERS));
      }
      if (!SKIP.has("redis"))
        results.push(
          await runtimeWorkload(`this runtime (BullMQ + Redis Streams, WORKERS=${WORKERS}${tag})`, database, prefix),
        );
      if (!SKIP.has("protocol"))
        results.push(
          await runtimeWorkload(
            `this runtime, ${PROTOCOL} (Redis, WORKERS=${WORKERS}${tag})`,
            database,
            `${prefix}-protocol`,
            "single",
            WORKERS,
            true,
          ),
        );
      if (!SKIP.has("memory"))
        results.push(await runtimeWorkload(`this runtime (in-process queue, WORKERS=${WORKERS}${tag})`, database));
      if (!SKIP.has("threads"))
        results.push(
          await runtimeWorkload(
            `this runtime (in-process queue, WORKERS=${WORKERS}, WORKER_THREADS=1${tag})`,
            database,
            undefined,
            "single",
            WORKERS,
            false,
            { WORKER_THREADS: "1" },
          ),
        );
    }
    if (!SKIP.has("reference")) {
      try {
        results.push(...(await referenceWorkload()));
      } catch (error) {
        // Without the reference server the other figures still stand; say why it is missing.
        console.error(`reference server skipped: ${(error as Error).message.split("\n")[0]}`);
      }
    }
    if (!SKIP.has("ceiling")) {
      results.push(await ceilingOf(database.url, "plain", true));
      if (!SKIP.has("protocol")) results.push(await ceilingOf(database.url, "protocol", true));
    }
  } finally {
    await deleteRedisKeys(testRedisUrl(), prefix).catch(() => undefined);
    await deleteRedisKeys(testRedisUrl(), `${prefix}-split`).catch(() => undefined);
    await deleteRedisKeys(testRedisUrl(), `${prefix}-tracing`).catch(() => undefined);
    await deleteRedisKeys(testRedisUrl(), `${prefix}-latency`).catch(() => undefined);
    await deleteRedisKeys(testRedisUrl(), `${prefix}-protocol`).catch(() => undefined);
    await database.drop();
  }

  console.log("");
  const rows = results.map((r) => [
    r.name,
    format(r.runsPerSecond),
    format(r.firstEvent.p50),
    format(r.firstEvent.p99),
    format(r.end.p50),
    format(r.end.p99),
    String(r.failures),
  ]);
  printTable(["target", "runs/s", "first p50 ms", "first p99 ms", "end p50 ms", "end p99 ms", "failed"], rows);

  // Where each run's CPU went: on a machine the clients share with the server, the runs/s any
  // target can reach is at most cores / (all CPU ms per run).
  const cores = availableParallelism();
  console.log(`\nCPU ms per run in the measured phase (${cores} cores; "rest" is PostgreSQL, Redis and the kernel):`);
  printTable(
    ["target", "server", "clients", "rest", "all", "runs/s the cores allow"],
    results.map((r) => {
      const all = r.cpu.server + r.cpu.clients + r.cpu.rest;
      return [
        r.name,
        format(r.cpu.server, 2),
        format(r.cpu.clients, 2),
        format(r.cpu.rest, 2),
        format(all, 2),
        format((cores * 1000) / all),
      ];
    }),
  );

  const adjacent = results.filter((r) => r.adjacentCeiling);
  if (adjacent.length) {
    console.log(
      "\nThe ceiling measured in a fresh process right after each target (the machine's drift); a target is judged " +
        "against the mean of the ceilings before and after it:",
    );
    printTable(
      ["after target", "runs/s", "server", "rest", "server + rest", "mean with the one before"],
      adjacent.map((r) => {
        const c = r.adjacentCeiling!;
        return [
          r.name,
          format(c.runsPerSecond),
          format(c.cpu.server, 2),
          format(c.cpu.rest, 2),
          format(c.cpu.server + c.cpu.rest, 2),
          format(ceilingCost(r), 2),
        ];
      }),
    );
  }

  // What each run asked of PostgreSQL and Redis: the same on any machine, so what a change is judged on.
  const counted = results.filter((r) => r.counts);
  if (counted.length) {
    console.log("\nPer run, from PostgreSQL's and Redis's own statistics (machine-independent):");
    printTable(
      [
        "target",
        "PG statements",
        "PG transactions",
        "PG rows read",
        "PG rows written",
        "Redis commands",
        "Redis bytes in",
      ],
      counted.map((r) => [
        r.name,
        format(r.counts!.statements ?? NaN, 2),
        format(r.counts!.transactions, 2),
        format(r.counts!.rowsRead, 1),
        format(r.counts!.rowsWritten, 1),
        format(r.counts!.redisCommands ?? NaN, 1),
        format(r.counts!.redisBytesIn ?? NaN, 0),
      ]),
    );
    if (!counted.some((r) => r.counts!.statements !== undefined)) {
      console.log(
        "  PG statements: not collected (the server does not load pg_stat_statements: add it to shared_preload_libraries and restart PostgreSQL)",
      );
    }
    for (const r of counted.filter((r) => r.counts!.topStatements?.length)) {
      console.log(`  ${r.name}: statements per run, most first:`);
      for (const [query, calls] of r.counts!.topStatements!) {
        console.log(`    ${format(calls, 2).padStart(6)}  ${query.replace(/\s+/g, " ").slice(0, 150)}`);
      }
    }
    for (const r of counted.filter((r) => r.counts!.topRedisCommands?.length)) {
      const top = r.counts!.topRedisCommands!.map(([name, calls]) => `${name} ${format(calls, 2)}`).join(", ");
      console.log(`  ${r.name}: Redis commands per run: ${top}`);
    }
  }

  const ceiling = results.find((r) => r.name === CEILING_NAMES.plain);
  const protocolCeiling = results.find((r) => r.name === CEILING_NAMES.protocol);
  for (const ours of results.filter((r) => r.name.startsWith("this runtime"))) {
    console.log(`\n${ours.name}:`);
    const reference = referenceFor(ours.name, results);
    if (reference) {
      const speedup = ours.runsPerSecond / reference.runsPerSecond;
      const firstRatio = ours.firstEvent.p50 / reference.firstEvent.p50;
      console.log(`  runs/s vs reference: ${format(speedup, 2)}x (target >= 3x) ${speedup >= 3 ? "OK" : "MISSED"}`);
      console.log(
        `  first-event p50 vs reference: ${format(firstRatio, 3)} (target <= 0.1) ${firstRatio <= 0.1 ? "OK" : "MISSED"}`,
      );
    }
    if (ceiling) {
      const share = ours.runsPerSecond / ceiling.runsPerSecond;
      console.log(
        `  runs/s vs in-process ceiling: ${format(share * 100, 0)}% (target >= 80%) ${share >= 0.8 ? "OK" : "MISSED"}`,
      );
      // Server plus PostgreSQL/Redis/kernel CPU per run against the ceiling's graph plus PostgreSQL:
      // the ceilings measured right before and after this target when there are (the verdict),
      // and the one at the end.
      // The protocol's target against the protocol ceiling (the plain one's figure is printed too).
      const ownCost = ours.cpu.server + ours.cpu.rest;
      const limit = cpuLimit(ours.name);
      const adjacent = ours.adjacentCeiling;
      const last = (ours.name.includes(PROTOCOL) && protocolCeiling) || ceiling;
      const verdict = adjacent ? ceilingCost(ours) : last.cpu.server + last.cpu.rest;
      const cost = ownCost / verdict;
      const against = adjacent ? `the ${adjacent.name.split(" (")[0]}s measured next to it` : last.name.split(" (")[0];
      console.log(
        `  server + rest CPU vs ${against}: ${format(cost, 2)}x (target <= ${limit}x) ${cost <= limit ? "OK" : "MISSED"}` +
          (adjacent ? ` (${format(ownCost, 2)} / ${format(verdict, 2)} ms)` : ""),
      );
      if (adjacent) {
        const ratio = ownCost / (last.cpu.server + last.cpu.rest);
        console.log(`  server + rest CPU vs the ${last.name.split(" (")[0]} measured last: ${format(ratio, 2)}x`);
      }
      if (last !== ceiling) {
        const plain = ownCost / (ceiling.cpu.server + ceiling.cpu.rest);
        console.log(`  server + rest CPU vs the plain ceiling measured last: ${format(plain, 2)}x`);
      }
    }
  }
  if (ROUNDS > 1) printMedians(results);
  if (ceiling) {
    // The CPU budget of the 80% target on this machine, against what the clients alone use.
    const budget = (cores * 1000) / (0.8 * ceiling.runsPerSecond);
    const ceilingAll = ceiling.cpu.server + ceiling.cpu.rest;
    const clients = results.filter((r) => r.name.startsWith("this runtime")).map((r) => r.cpu.clients);
    console.log(
      `\n80% of the ceiling is ${format(0.8 * ceiling.runsPerSecond)} runs/s: at most ${format(budget, 2)} CPU ms per run ` +
        `on ${cores} cores for everything. The ceiling's own work takes ${format(ceilingAll, 2)} ms of it ` +
        `(graph and checkpointer ${format(ceiling.cpu.server, 2)}, PostgreSQL ${format(ceiling.cpu.rest, 2)})` +
        (clients.length ? `, the ${CLIENTS} official clients ${format(Math.min(...clients), 2)} or more.` : "."),
    );
  }
}

/** Each target's CPU ratio (against the ceilings next to it) and runs/s ratio, per round and the median. */
function printMedians(results: Result[]): void {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const byTarget = new Map<string, Result[]>();
  for (const r of results.filter((r) => r.name.startsWith("this runtime") && r.adjacentCeiling)) {
    const target = r.name.replace(/, round \d+\)$/, ")");
    byTarget.set(target, [...(byTarget.get(target) ?? []), r]);
  }
  if (!byTarget.size) {
    console.log(
      "\nNo medians over the rounds: each needs the ceiling measured next to its target (BENCH_SKIP has ceiling or adjacent).",
    );
    return;
  }
  console.log(`\nOver ${ROUNDS} rounds (the verdict is the median):`);
  const rows = [...byTarget].map(([target, rounds]) => {
    const ratios = rounds.map((r) => (r.cpu.server + r.cpu.rest) / ceilingCost(r));
    const limit = cpuLimit(target);
    const cost = median(ratios);
    const reference = referenceFor(target, results);
    const speedups = reference ? rounds.map((r) => r.runsPerSecond / reference.runsPerSecond) : [];
    const speedup = speedups.length ? median(speedups) : NaN;
    return [
      target,
      ratios.map((ratio) => format(ratio, 2)).join(" "),
      `${format(cost, 2)} ${cost <= limit ? "OK" : "MISSED"} (<= ${limit})`,
      speedups.map((value) => format(value, 2)).join(" ") || "-",
      Number.isFinite(speedup) ? `${format(speedup, 2)} ${speedup >= 3 ? "OK" : "MISSED"} (>= 3)` : "-",
    ];
  });
  printTable(["target", "CPU x ceiling, rounds", "median", "runs/s x reference, rounds", "median"], rows);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
