// The ceilings of the history part's `grow` rows (issue 40): the same compiled graph in this
// process, no HTTP, no queue, no thread rows, on threads given the same history as the runtime's
// (the same seed update, then the same SQL copies of its checkpoint chained before it), with
//   - official: the official PostgreSQL saver (@langchain/langgraph-checkpoint-postgres);
//   - runtime: the runtime's saver (its reads and writes, with LangGraph's serializer's reads, as
//     the official one: messages revived), so what is left over it is the server's: HTTP, the
//     service, the thread's rows, JSON;
// each with tables of its own in a schema of the bench's database. What LangGraph's checkpoint
// format costs at a depth (every version of the messages channel a blob of the whole list, a
// history page ten whole states) is in all of them.
// Measured one thing at a time while the runtime idles: CPU ms of this process per run
// (graph.invoke), per state read (graph.getState) and per history page (getStateHistory, limit 10),
// and their latencies. The reads' answers are LangChain objects, not yet written as JSON.
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { RuntimeCheckpointer } from "../../services/agent-runtime/src/graphs/checkpointer";
import { ownCpuMs } from "../cpu";
import { graph as growGraph } from "./graphs/grow";
import { deepenCheckpoints } from "./seed";

export type CeilingSaver = "official" | "runtime";

export const CEILING_LABELS: Record<CeilingSaver, string> = {
  official: "grow ceiling (same graph + PostgresSaver in process)",
  runtime: "grow ceiling (same graph + the runtime's saver in process)",
};

export interface CeilingCase {
  saver: CeilingSaver;
  depth: number;
  threadId: string;
  runs: number;
  runCpuMs: number;
  runMs: number[];
  stateMs: number[];
  stateCpuMs: number;
  historyMs: number[];
  historyCpuMs: number;
}

/** Latencies of `count` calls one after another (after `warmup` untimed), and their CPU ms each. */
export async function measured(count: number, warmup: number, cpuMs: () => number, call: () => Promise<unknown>) {
  for (let i = 0; i < warmup; i += 1) await call();
  const ms: number[] = [];
  const cpuBefore = cpuMs();
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await call();
    ms.push(performance.now() - started);
  }
  return { ms, cpuMs: (cpuMs() - cpuBefore) / count };
}

export interface Ceiling {
  /** A thread of `depth` checkpoints whose first is `messages` written as `asNode`. */
  prepare(depth: number, messages: unknown[], asNode: string): Promise<CeilingCase>;
  /** The graph's first runs (compiling and caching what later runs reuse), on a scratch thread. */
  warmUp(runs: number): Promise<void>;
  /** `runs` more runs on the case's thread, one after another. */
  run(item: CeilingCase, runs: number): Promise<void>;
  /** The case's state read and history page, each `count` times. */
  read(item: CeilingCase, count: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startCeiling(databaseUrl: string, kind: CeilingSaver): Promise<Ceiling> {
  const schema = `bench_growth_ceiling_${kind}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 5 });
  const client = new pg.Client({ connectionString: databaseUrl });
  const saver =
    kind === "official"
      ? new PostgresSaver(pool, undefined, { schema })
      : new RuntimeCheckpointer(pool, undefined, { schema });
  try {
    await client.connect();
    await saver.setup();
  } catch (error) {
    // Not started: its connections are closed here, since no caller holds them to stop.
    await client.end().catch(() => undefined);
    await pool.end().catch(() => undefined);
    throw error;
  }
  // The module's graph, compiled without a checkpointer, is the runtime's (which gives it its own).
  const graph = growGraph.builder.compile({ checkpointer: saver });
  const configOf = (threadId: string) => ({ configurable: { thread_id: threadId } });
  const invoke = (threadId: string) => graph.invoke({ messages: [] }, configOf(threadId));
  return {
    async prepare(depth, messages, asNode) {
      const threadId = crypto.randomUUID();
      await graph.updateState(configOf(threadId), { messages }, asNode);
      await deepenCheckpoints(client, schema, threadId, depth);
      return {
        saver: kind,
        depth,
        threadId,
        runs: 0,
        runCpuMs: 0,
        runMs: [],
        stateMs: [],
        stateCpuMs: 0,
        historyMs: [],
        historyCpuMs: 0,
      };
    },
    async warmUp(runs) {
      const scratch = crypto.randomUUID();
      for (let i = 0; i < runs; i += 1) await invoke(scratch);
    },
    async run(item, runs) {
      const { ms, cpuMs } = await measured(runs, 0, ownCpuMs, () => invoke(item.threadId));
      item.runMs.push(...ms);
      item.runCpuMs = (item.runCpuMs * item.runs + cpuMs * runs) / (item.runs + runs);
      item.runs += runs;
    },
    async read(item, count) {
      const config = configOf(item.threadId);
      const state = await measured(count, 2, ownCpuMs, () => graph.getState(config));
      const history = await measured(count, 2, ownCpuMs, async () => {
        const page = [];
        for await (const snapshot of graph.getStateHistory(config, { limit: 10 })) page.push(snapshot);
        if (!page.length) throw new Error("an empty history page");
      });
      Object.assign(item, {
        stateMs: state.ms,
        stateCpuMs: state.cpuMs,
        historyMs: history.ms,
        historyCpuMs: history.cpuMs,
      });
    },
    async stop() {
      await client.end();
      await pool.end();
    },
  };
}
