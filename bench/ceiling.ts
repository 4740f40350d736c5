// The ceilings a target's CPU per run is judged against: the same echo graph run in-process with
// the same PostgreSQL checkpointer, no HTTP, no queue.
//   - plain: `graph.stream()` in `updates` mode, what the run API's targets stream;
//   - protocol: `graph.streamEvents(..., {version: "v3"})`, LangGraph's own thread-centric protocol
//     events, each serialised once as any server must (the protocol target's ceiling: what is left
//     is the project's share, the thread's event log, its stream and HTTP).
// Each ceiling runs in a fresh process of its own (this file run as a script), started as cold as a
// target's server is, with the same warm-up.
import path from "node:path";
import pg from "pg";
import { RuntimeCheckpointer } from "../services/agent-runtime/src/graphs/checkpointer";
import { startCountMeter, settleDatabase } from "./counts";
import { ownCpuMs, startCpuMeter, useBackground } from "./cpu";
import { drive, input, shapeFromEnv, startProcess, summarise, type Result, type Sample } from "./harness";

export type CeilingKind = "plain" | "protocol";

const ROOT = path.resolve(__dirname, "..");
const RESULT_LINE = "ceiling result: ";

export const CEILING_NAMES: Record<CeilingKind, string> = {
  plain: "in-process ceiling (same graph + PostgresSaver)",
  protocol: "in-process protocol ceiling (same graph + PostgresSaver, LangGraph's v3 protocol events)",
};

interface CompiledEcho {
  checkpointer: unknown;
  stream(input: unknown, options: unknown): Promise<AsyncIterable<unknown>>;
  streamEvents(input: unknown, options: unknown): AsyncIterable<unknown>;
}

async function inProcessWorkload(databaseUrl: string, kind: CeilingKind, count: boolean): Promise<Result> {
  // The warm-up is the bench's, given in BENCH_WARMUP (see `freshCeiling`).
  const shape = shapeFromEnv();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  const checkpointer = new RuntimeCheckpointer(pool, undefined, { schema: `bench_ceiling_${kind}` });
  await checkpointer.setup();
  const { graph: compiled } = require(path.join(ROOT, "examples/src/agent.ts")) as { graph: CompiledEcho };
  compiled.checkpointer = checkpointer;
  const threads = Array.from({ length: shape.threads }, () => crypto.randomUUID());
  const events = async (index: number): Promise<AsyncIterable<unknown>> => {
    const configurable = { thread_id: threads[index % shape.threads] };
    if (kind === "plain") return compiled.stream(input(index), { configurable, streamMode: ["updates"] });
    return compiled.streamEvents(input(index), { configurable, version: "v3" });
  };
  const job = async (index: number): Promise<Sample> => {
    const started = performance.now();
    let firstEventMs = NaN;
    let bytes = 0;
    for await (const event of await events(index)) {
      if (Number.isNaN(firstEventMs)) firstEventMs = performance.now() - started;
      if (kind === "protocol") bytes += JSON.stringify(event).length;
    }
    if (kind === "protocol" && bytes === 0) throw new Error("the protocol stream was empty");
    return { firstEventMs, endMs: performance.now() - started };
  };
  await drive(shape.warmup, shape.clients, job);
  await settleDatabase(databaseUrl);
  const counter = count ? await startCountMeter(databaseUrl) : undefined;
  const meter = startCpuMeter(ownCpuMs);
  const { samples, elapsedMs, failures } = await drive(shape.runs, shape.clients, job);
  const cpu = meter(samples.length);
  const result = summarise(CEILING_NAMES[kind], samples, elapsedMs, failures, cpu);
  if (counter) result.counts = await counter(samples.length);
  await pool.end();
  return result;
}

/** A ceiling measured in a fresh process; `backgroundLoad` is the machine's, in CPU ms/s. */
export async function freshCeiling(
  databaseUrl: string,
  kind: CeilingKind,
  options: { count: boolean; backgroundLoad: number; warmup: number },
): Promise<Result> {
  const { child, log } = startProcess(process.execPath, ["--import", "tsx", __filename], ROOT, {
    BENCH_CEILING_DATABASE_URL: databaseUrl,
    BENCH_CEILING_KIND: kind,
    BENCH_BACKGROUND: String(options.backgroundLoad),
    BENCH_CEILING_COUNTS: String(options.count),
    // As many unmeasured runs as the target it is compared with had.
    BENCH_WARMUP: String(options.warmup),
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const line = log
    .join("")
    .split("\n")
    .find((text) => text.startsWith(RESULT_LINE));
  if (code !== 0 || !line) throw new Error(`the ${kind} ceiling's process failed (exit ${code}):\n${log.join("")}`);
  return JSON.parse(line.slice(RESULT_LINE.length)) as Result;
}

if (require.main === module) {
  const kind = process.env.BENCH_CEILING_KIND === "protocol" ? "protocol" : "plain";
  useBackground(Number(process.env.BENCH_BACKGROUND ?? 0));
  inProcessWorkload(process.env.BENCH_CEILING_DATABASE_URL!, kind, process.env.BENCH_CEILING_COUNTS === "true")
    .then((result) => console.log(RESULT_LINE + JSON.stringify(result)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
