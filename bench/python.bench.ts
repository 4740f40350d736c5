// Python graphs benchmark: the Python echo agent (examples/python), 20 concurrent clients of the
// official SDK, 1,000 streamed runs over 100 threads, against
//   - this runtime with the in-process queue (its Python graph host beside the API process),
//   - this runtime on Redis, an API process and a worker process (whose host runs the graph),
//   - the official Python server (`langgraph dev`, in memory) on the same project, as the reference,
// and the same graph run in one Python process with the official Python PostgreSQL checkpointer
// (no HTTP) as the ceiling, measured in a fresh process before the first target and after each.
// Targets: runs/s >= 2x the reference's; server + rest CPU per run <= 2x the ceilings' next to it.
//
// Options (environment): BENCH_RUNS (1000), BENCH_THREADS (100), BENCH_CLIENTS (20),
// BENCH_WORKERS (runtime WORKERS and the reference's jobs per worker, 20), BENCH_SKIP (comma list:
// memory, split, reference).
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { freePort, migrate } from "@lgp/server-kit";
import { createEmptyDatabase, testRedisUrl } from "@lgp/server-kit/src/testing";
import { readGraphProject } from "../services/agent-runtime/src/graphs/config";
import { preparePythonEnvironment, pythonProjectOf } from "../services/agent-runtime/src/python/environment";
import { libpqUrl } from "../services/agent-runtime/src/python/graphs";
import { deleteRedisKeys } from "../services/agent-runtime/test/support/redis-keys";
import { groupCpuMs, measureBackground, startCpuMeter } from "./cpu";
import {
  format,
  printTable,
  shapeFromEnv,
  startProcess,
  stopProcess,
  streamedRunsWorkload,
  summarise,
  waitUntilUp,
  type Result,
  type Sample,
} from "./harness";

const ROOT = path.resolve(__dirname, "..");
const PROJECT = path.join(ROOT, "examples/python");
const CONFIG = path.join(PROJECT, "langgraph.json");
const SHAPE = shapeFromEnv();
const { runs: RUNS, threads: THREADS, clients: CLIENTS } = SHAPE;
const WORKERS = Number(process.env.BENCH_WORKERS ?? 20);
const SKIP = new Set((process.env.BENCH_SKIP ?? "").split(",").filter(Boolean));
const REFERENCE = "reference: official Python server (langgraph dev, in memory)";
const CEILING = "Python ceiling (same graph + official Python PostgresSaver, one process)";
/** The official Python server's packages, the newest when this was written. */
const REFERENCE_PACKAGES = ["langgraph-cli[inmem]==0.4.40", "langgraph-api==0.16.7", "langgraph-runtime-inmem==0.36.7"];

const log = (line: string) => console.log(`  ${line}`);

/** The examples' environment (what the runtime runs them with), and the reference server's. */
async function environments(): Promise<{ runtime: string; reference: string }> {
  const settings = pythonProjectOf(readGraphProject(CONFIG));
  const environmentsDir = path.join(ROOT, ".data/python");
  const quiet = { environmentsDir, basePython: process.env.PYTHON, log: () => undefined };
  const runtime = await preparePythonEnvironment(settings, quiet);
  const reference = await preparePythonEnvironment(
    { ...settings, dependencies: [...settings.dependencies, ...REFERENCE_PACKAGES] },
    { ...quiet, log },
  );
  return { runtime: runtime.python, reference: reference.python };
}

/** The ceiling in a fresh Python process: warmed up, then measured between its `ready` and its result. */
async function pythonCeiling(python: string, databaseUrl: string): Promise<Result> {
  const { child, log: output } = startProcess(
    python,
    [path.join(__dirname, "python/ceiling.py")],
    ROOT,
    {
      BENCH_CEILING_DATABASE_URL: libpqUrl(databaseUrl),
      BENCH_RUNS: String(RUNS),
      BENCH_THREADS: String(THREADS),
      BENCH_CLIENTS: String(CLIENTS),
    },
    true,
  );
  const lineStarting = async (prefix: string) => {
    for (;;) {
      const line = output
        .join("")
        .split("\n")
        .find((text) => text.startsWith(prefix));
      if (line) return line;
      if (child.exitCode !== null) throw new Error(`the ceiling's process exited:\n${output.join("")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  try {
    await lineStarting("ready");
    const meter = startCpuMeter(() => groupCpuMs(child.pid!));
    child.stdin?.write("go\n");
    const line = await lineStarting("result ");
    const { samples, elapsedMs, failures } = JSON.parse(line.slice("result ".length)) as {
      samples: Sample[];
      elapsedMs: number;
      failures: number;
    };
    return summarise(CEILING, samples, elapsedMs, failures, meter(samples.length));
  } finally {
    await stopProcess(child);
  }
}

async function runtimeWorkload(
  name: string,
  python: string,
  databaseUrl: string,
  redisPrefix?: string,
): Promise<Result> {
  const port = await freePort();
  const service = path.join(ROOT, "services/agent-runtime");
  const env = {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    LANGGRAPH_JSON: CONFIG,
    LANGGRAPH_PYTHON: python,
    CHECKPOINT_POOL_SIZE: "20",
    PYTHON_POOL_SIZE: "20",
    ...(redisPrefix ? { REDIS_URL: testRedisUrl(), REDIS_PREFIX: redisPrefix } : { REDIS_URL: "" }),
  };
  const workers = redisPrefix
    ? [
        startProcess(process.execPath, ["--import", "tsx", "src/worker.ts"], service, {
          ...env,
          WORKERS: String(WORKERS),
        }),
      ]
    : [];
  const { child, log: output } = startProcess(process.execPath, ["--import", "tsx", "src/main.ts"], service, {
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
    WORKERS: redisPrefix ? "0" : String(WORKERS),
  });
  try {
    await waitUntilUp(`http://127.0.0.1:${port}`, child, output);
    // Each process leads its own group, its Python graph host in it.
    const groups = [child, ...workers.map((worker) => worker.child)].map((process) => process.pid!);
    const serverCpuMs = () => groups.reduce((sum, pgid) => sum + groupCpuMs(pgid), 0);
    return await streamedRunsWorkload(name, `http://127.0.0.1:${port}`, serverCpuMs, SHAPE, {
      stores: { databaseUrl, redisUrl: redisPrefix ? testRedisUrl() : undefined },
    });
  } finally {
    await stopProcess(child);
    for (const worker of workers) await stopProcess(worker.child);
  }
}

async function referenceWorkload(python: string): Promise<Result> {
  const port = await freePort();
  const { child, log: output } = startProcess(
    python,
    [
      "-m",
      "langgraph_cli",
      "dev",
      "--no-browser",
      "--no-reload",
      "--port",
      String(port),
      "--config",
      CONFIG,
      "--n-jobs-per-worker",
      String(WORKERS),
      "--server-log-level",
      "WARNING",
    ],
    PROJECT,
    { LANGSMITH_TRACING: "false", LANGCHAIN_TRACING_V2: "false", LANGGRAPH_CLI_NO_ANALYTICS: "1" },
  );
  try {
    await waitUntilUp(`http://127.0.0.1:${port}`, child, output);
    return await streamedRunsWorkload(REFERENCE, `http://127.0.0.1:${port}`, () => groupCpuMs(child.pid!), SHAPE);
  } finally {
    await stopProcess(child);
  }
}

async function main(): Promise<void> {
  if (!existsSync(CONFIG)) throw new Error(`${CONFIG} is missing`);
  console.log(
    `workload: the Python echo graph, ${CLIENTS} concurrent clients, ${RUNS} streamed runs on ${THREADS} threads (+${SHAPE.warmup} warm-up)`,
  );
  console.log("Python environments (made once, then reused):");
  const pythons = await environments();
  const background = await measureBackground();
  console.log(`machine background load: ${format(background, 1)} CPU ms/s (taken out of "rest")`);
  const database = await createEmptyDatabase("bench_python");
  const prefix = `lgp-bench-py-${Date.now().toString(36)}`;
  const results: Result[] = [];
  const ceilings: Result[] = [];
  try {
    await migrate(database.url, path.join(ROOT, "prisma/agent-runtime/migrations"));
    ceilings.push(await pythonCeiling(pythons.runtime, database.url));
    const targets: [string, string | undefined][] = [];
    if (!SKIP.has("memory"))
      targets.push([`this runtime, Python graph (in-process queue, WORKERS=${WORKERS})`, undefined]);
    if (!SKIP.has("split"))
      targets.push([`this runtime, Python graph (API process + 1 worker process, Redis, WORKERS=${WORKERS})`, prefix]);
    for (const [name, redisPrefix] of targets) {
      const result = await runtimeWorkload(name, pythons.runtime, database.url, redisPrefix);
      result.ceilingBefore = ceilings.at(-1);
      result.adjacentCeiling = await pythonCeiling(pythons.runtime, database.url);
      ceilings.push(result.adjacentCeiling);
      results.push(result);
    }
    if (!SKIP.has("reference")) results.push(await referenceWorkload(pythons.reference));
  } finally {
    await deleteRedisKeys(testRedisUrl(), prefix).catch(() => undefined);
    await database.drop();
  }

  console.log("");
  const all = [...results, ...ceilings.map((c, i) => ({ ...c, name: `${CEILING} #${i + 1}` }))];
  printTable(
    ["target", "runs/s", "first p50 ms", "first p99 ms", "end p50 ms", "end p99 ms", "failed"],
    all.map((r) => [
      r.name,
      format(r.runsPerSecond),
      format(r.firstEvent.p50),
      format(r.firstEvent.p99),
      format(r.end.p50),
      format(r.end.p99),
      String(r.failures),
    ]),
  );
  const cores = availableParallelism();
  console.log(`\nCPU ms per run in the measured phase (${cores} cores; "rest" is PostgreSQL, Redis and the kernel):`);
  printTable(
    ["target", "server", "clients", "rest", "server + rest"],
    all.map((r) => [
      r.name,
      format(r.cpu.server, 2),
      format(r.cpu.clients, 2),
      format(r.cpu.rest, 2),
      format(r.cpu.server + r.cpu.rest, 2),
    ]),
  );
  const counted = results.filter((r) => r.counts);
  if (counted.length) {
    console.log("\nPer run, from PostgreSQL's and Redis's own statistics:");
    printTable(
      ["target", "PG transactions", "PG rows read", "PG rows written", "Redis commands"],
      counted.map((r) => [
        r.name,
        format(r.counts!.transactions, 2),
        format(r.counts!.rowsRead, 1),
        format(r.counts!.rowsWritten, 1),
        format(r.counts!.redisCommands ?? NaN, 1),
      ]),
    );
  }
  const reference = results.find((r) => r.name === REFERENCE);
  const cost = (r: Result) => r.cpu.server + r.cpu.rest;
  for (const ours of results.filter((r) => r.name.startsWith("this runtime"))) {
    console.log(`\n${ours.name}:`);
    if (reference) {
      const speedup = ours.runsPerSecond / reference.runsPerSecond;
      console.log(
        `  runs/s vs the official Python server: ${format(speedup, 2)}x (target >= 2x) ${speedup >= 2 ? "OK" : "MISSED"}`,
      );
    }
    const ceiling = (cost(ours.ceilingBefore!) + cost(ours.adjacentCeiling!)) / 2;
    const ratio = cost(ours) / ceiling;
    console.log(
      `  server + rest CPU vs the Python ceilings next to it: ${format(ratio, 2)}x (target <= 2x) ${ratio <= 2 ? "OK" : "MISSED"} ` +
        `(${format(cost(ours), 2)} / ${format(ceiling, 2)} ms)`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
