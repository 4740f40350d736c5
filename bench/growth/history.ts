// A run's cost against its thread's history depth: threads of 1 to 10,000 checkpoints, made by
// one update of the state (one checkpoint) and SQL copies of it chained before it (seed.ts), then
// runs on each measured side by side: the server's CPU, the database's backends' CPU, transactions
// and rows read per run, and the latency of reading the thread's state and a page of its history.
// Two graphs: the echo agent on the same two-message state at every depth (only the depth
// differs), and `grow`, whose state has a message for every turn of its history (a turn is three
// checkpoints), as a long chat's does. `grow` has two ceiling rows per depth (history-ceiling.ts):
// the same graph in process with the official saver, and with the runtime's, on a thread of the
// same history, so each of its rows shows the runtime's cost over what LangGraph's checkpoint
// format costs by itself.
import pg from "pg";
import { format, percentile } from "../harness";
import { measureBackground, startMeter, type PhaseCounts } from "./meter";
import { CEILING_LABELS, measured, startCeiling, type CeilingCase, type CeilingSaver } from "./history-ceiling";
import type { Panel, Table } from "./report";
import { deepenHistory } from "./seed";
import { call, timed, type Target } from "./target";

const READS = 20;

export interface HistoryOptions {
  depths: number[];
  runs: number;
  rounds: number;
}

interface Case {
  graph: "agent" | "grow";
  depth: number;
  threadId: string;
  runs: number;
  apiCpuMs: number;
  counts: PhaseCounts[];
  runMs: number[];
  stateMs: number[];
  historyMs: number[];
  /** Server CPU ms per state read and per history page. */
  stateCpuMs: number;
  historyCpuMs: number;
}

const message = (type: "human" | "ai", content: string) => ({ type, content });

/** The state a thread of `depth` checkpoints starts from: `grow`'s has a message per turn. */
function seedMessages(graph: "agent" | "grow", depth: number) {
  if (graph === "agent") return [message("human", "hello 0"), message("ai", "echo: hello 0")];
  return Array.from({ length: Math.max(1, Math.round(depth / 3)) }, (_, i) =>
    message("ai", `turn ${i + 1}: an answer of about a hundred characters, as a short chat message would be.`),
  );
}

const inputOf = (graph: "agent" | "grow", index: number) =>
  graph === "agent" ? { messages: [{ role: "user", content: `hello ${index}` }] } : { messages: [] };

async function prepare(target: Target, client: pg.Client, graph: "agent" | "grow", depth: number): Promise<Case> {
  const { thread_id: threadId } = await call<{ thread_id: string }>(target.url, "POST", "/threads", {
    metadata: { graph_id: graph },
  });
  await call(target.url, "POST", `/threads/${threadId}/state`, {
    values: { messages: seedMessages(graph, depth) },
    as_node: graph === "agent" ? "agent" : "turn",
  });
  const [assistant] = await call<{ assistant_id: string }[]>(target.url, "POST", "/assistants/search", {
    graph_id: graph,
    limit: 1,
  });
  await deepenHistory(client, threadId, assistant!.assistant_id, depth);
  return {
    ...{ graph, depth, threadId, runs: 0, apiCpuMs: 0, counts: [], runMs: [], stateMs: [], historyMs: [] },
    ...{ stateCpuMs: NaN, historyCpuMs: NaN },
  };
}

export async function historySection(
  target: Target,
  databaseUrl: string,
  options: HistoryOptions,
): Promise<{ tables: Table[]; panels: Panel[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const cases: Case[] = [];
  const savers: CeilingSaver[] = ["official", "runtime"];
  const ceiling = Object.fromEntries(
    await Promise.all(savers.map(async (saver) => [saver, await startCeiling(databaseUrl, saver)] as const)),
  ) as Record<CeilingSaver, Awaited<ReturnType<typeof startCeiling>>>;
  const ceilings: CeilingCase[] = [];
  try {
    for (const graph of ["agent", "grow"] as const)
      for (const depth of options.depths) cases.push(await prepare(target, client, graph, depth));
    for (const saver of savers)
      for (const depth of options.depths)
        ceilings.push(await ceiling[saver].prepare(depth, seedMessages("grow", depth), "turn"));
    // Warm-up: each graph's first runs compile and cache what every later run reuses.
    for (const graph of ["agent", "grow"] as const) {
      const { thread_id: scratch } = await call<{ thread_id: string }>(target.url, "POST", "/threads", {});
      for (let i = 0; i < 10; i += 1)
        await call(target.url, "POST", `/threads/${scratch}/runs/wait`, {
          assistant_id: graph,
          input: inputOf(graph, i),
        });
    }
    for (const saver of savers) await ceiling[saver].warmUp(10);
    await client.query("VACUUM (ANALYZE)");
    const background = await measureBackground(databaseUrl);
    // Rounds over every case, so the machine's drift spreads over all of them alike.
    const perRound = Math.max(1, Math.round(options.runs / options.rounds));
    for (let round = 0; round < options.rounds; round += 1) {
      for (const item of cases) {
        const meter = await startMeter(databaseUrl, undefined, background);
        const cpuBefore = target.apiCpuMs();
        item.runMs.push(
          ...(await timed(perRound, 0, (i) =>
            call(target.url, "POST", `/threads/${item.threadId}/runs/wait`, {
              assistant_id: item.graph,
              input: inputOf(item.graph, item.runs + i),
            }),
          )),
        );
        item.apiCpuMs += target.apiCpuMs() - cpuBefore;
        item.runs += perRound;
        item.counts.push(await meter(perRound));
      }
      for (const item of ceilings) await ceiling[item.saver].run(item, perRound);
    }
    for (const item of cases) {
      const state = await measured(READS, 2, target.apiCpuMs, () =>
        call(target.url, "GET", `/threads/${item.threadId}/state`),
      );
      const history = await measured(READS, 2, target.apiCpuMs, () =>
        call(target.url, "POST", `/threads/${item.threadId}/history`, { limit: 10 }),
      );
      Object.assign(item, {
        stateMs: state.ms,
        stateCpuMs: state.cpuMs,
        historyMs: history.ms,
        historyCpuMs: history.cpuMs,
      });
    }
    for (const item of ceilings) await ceiling[item.saver].read(item, READS);
  } finally {
    await client.end();
    for (const saver of savers) await ceiling[saver].stop();
  }
  const mean = (item: Case, pick: (counts: PhaseCounts) => number) =>
    item.counts.reduce((sum, counts) => sum + pick(counts), 0) / item.counts.length;
  const base = (item: Case) => cases.find((other) => other.graph === item.graph)!;
  const serverCpu = (item: Case) => item.apiCpuMs / item.runs;
  const table: Table = {
    title: "Run cost against the thread's history depth (per run; in-process queue, runs one after another)",
    header: [
      "graph",
      "checkpoints",
      "server CPU ms",
      "× first",
      "PG CPU ms",
      "PG transactions",
      "PG rows read",
      "run p50 ms",
      "state read p50 ms",
      "history (limit 10) p50 ms",
    ],
    rows: cases.map((item) => [
      item.graph === "agent" ? "echo agent (same state)" : "grow (a message a turn)",
      item.depth.toLocaleString("en-US"),
      format(serverCpu(item), 2),
      format(serverCpu(item) / serverCpu(base(item)), 2),
      format(
        mean(item, (c) => c.postgresCpuMs),
        2,
      ),
      format(
        mean(item, (c) => c.transactions),
        2,
      ),
      format(
        mean(item, (c) => c.rowsRead),
        1,
      ),
      format(percentile(item.runMs, 50), 1),
      format(percentile(item.stateMs, 50), 1),
      format(percentile(item.historyMs, 50), 1),
    ]),
  };
  const dash = "–";
  for (const item of ceilings)
    table.rows.push([
      CEILING_LABELS[item.saver],
      item.depth.toLocaleString("en-US"),
      format(item.runCpuMs, 2),
      format(item.runCpuMs / ceilings.find((other) => other.saver === item.saver)!.runCpuMs, 2),
      ...[dash, dash, dash],
      format(percentile(item.runMs, 50), 1),
      format(percentile(item.stateMs, 50), 1),
      format(percentile(item.historyMs, 50), 1),
    ]);
  const grown = cases.filter((item) => item.graph === "grow");
  const against = (runtime: number, ceilingValue: number, digits: number) =>
    `${format(runtime, digits)} / ${format(ceilingValue, digits)} (${format(runtime / ceilingValue, 1)}×)`;
  const overCeiling: Table = {
    title: "`grow` against its ceilings (the same graph in process, no HTTP): runtime / ceiling (×)",
    header: [
      "checkpoints",
      "ceiling's saver",
      "run CPU ms",
      "state read CPU ms",
      "state read p50 ms",
      "history page CPU ms",
      "history page p50 ms",
    ],
    rows: ceilings.map((top) => {
      const item = grown.find((other) => other.depth === top.depth)!;
      return [
        item.depth.toLocaleString("en-US"),
        top.saver === "official" ? "PostgresSaver" : "the runtime's",
        against(serverCpu(item), top.runCpuMs, 2),
        against(item.stateCpuMs, top.stateCpuMs, 2),
        against(percentile(item.stateMs, 50), percentile(top.stateMs, 50), 1),
        against(item.historyCpuMs, top.historyCpuMs, 1),
        against(percentile(item.historyMs, 50), percentile(top.historyMs, 50), 1),
      ];
    }),
    notes: [
      "The runtime's saver reads blobs as JSON, each by its key (checkpoint-read.ts), where PostgresSaver's bytea arrays are parsed in JavaScript;",
      "CPU: the runtime's server process (from /proc, 10 ms ticks) against the ceiling's own (process.cpuUsage);",
      `reads ${READS} of each after 2 untimed. The ceiling's reads answer LangChain objects, not yet written as JSON.`,
    ],
  };
  const series = (graph: "agent" | "grow", label: string, pick: (item: Case) => number) => ({
    name: label,
    points: cases.filter((item) => item.graph === graph).map((item) => [item.depth, pick(item)] as [number, number]),
  });
  const panels: Panel[] = [
    {
      title: "Run cost vs history depth",
      xLabel: "checkpoints in the thread",
      yLabel: "server CPU ms per run",
      series: [series("agent", "echo agent", serverCpu), series("grow", "grow", serverCpu)],
    },
    {
      title: "Reads vs history depth",
      xLabel: "checkpoints in the thread",
      yLabel: "p50 ms",
      series: [
        series("agent", "state (echo)", (item) => percentile(item.stateMs, 50)),
        series("agent", "history page (echo)", (item) => percentile(item.historyMs, 50)),
        series("grow", "history page (grow)", (item) => percentile(item.historyMs, 50)),
      ],
    },
    {
      title: "grow against its in-process ceiling",
      xLabel: "checkpoints in the thread",
      yLabel: "CPU ms",
      series: [
        series("grow", "run (runtime)", serverCpu),
        ...savers.map((saver) => ({
          name: `run (ceiling, ${saver} saver)`,
          points: ceilings
            .filter((item) => item.saver === saver)
            .map((item): [number, number] => [item.depth, item.runCpuMs]),
        })),
        series("grow", "history page (runtime)", (item) => item.historyCpuMs),
        ...savers.map((saver) => ({
          name: `history page (ceiling, ${saver} saver)`,
          points: ceilings
            .filter((item) => item.saver === saver)
            .map((item): [number, number] => [item.depth, item.historyCpuMs]),
        })),
      ],
    },
  ];
  return { tables: [table, overCeiling], panels };
}
