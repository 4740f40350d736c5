// A run's cost against its thread's state size: threads whose state is 10 KB, 1 MB or 10 MB of
// messages (1 KB each, written by updates of the state, a thousand a request), then runs of the
// echo agent on each: the server's and the database's CPU per run, and the bytes each run made
// the database's tables grow by (its checkpoints, with their blobs) and the WAL it wrote.
import { format, percentile } from "../harness";
import { measureBackground, startMeter, type PhaseCounts } from "./meter";
import type { Panel, Table } from "./report";
import { call, timed, type Target } from "./target";

const MESSAGE_BYTES = 1_000;

export async function stateSizeSection(
  target: Target,
  databaseUrl: string,
  options: { sizes: number[]; runs: number },
): Promise<{ tables: Table[]; panels: Panel[] }> {
  const results: { size: number; apiCpuMs: number; counts: PhaseCounts; runMs: number[] }[] = [];
  // Warm-up: the graph's first runs compile and cache what every later run reuses.
  const { thread_id: scratch } = await call<{ thread_id: string }>(target.url, "POST", "/threads", {});
  for (let i = 0; i < 10; i += 1)
    await call(target.url, "POST", `/threads/${scratch}/runs/wait`, {
      assistant_id: "agent",
      input: { messages: [{ role: "user", content: `hello ${i}` }] },
    });
  const background = await measureBackground(databaseUrl);
  for (const size of options.sizes) {
    const { thread_id: threadId } = await call<{ thread_id: string }>(target.url, "POST", "/threads", {
      metadata: { graph_id: "agent" },
    });
    const messages = Math.max(1, Math.round(size / MESSAGE_BYTES));
    for (let from = 0; from < messages; from += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, messages - from) }, (_, i) => ({
        type: i % 2 ? "ai" : "human",
        content: `${from + i} `.padEnd(MESSAGE_BYTES - 60, "lorem ipsum "),
      }));
      await call(target.url, "POST", `/threads/${threadId}/state`, { values: { messages: batch }, as_node: "agent" });
    }
    const meter = await startMeter(databaseUrl, undefined, background);
    const cpuBefore = target.apiCpuMs();
    const runMs = await timed(options.runs, 0, (i) =>
      call(target.url, "POST", `/threads/${threadId}/runs/wait`, {
        assistant_id: "agent",
        input: { messages: [{ role: "user", content: `hello ${i}` }] },
      }),
    );
    const apiCpuMs = (target.apiCpuMs() - cpuBefore) / options.runs;
    results.push({ size, apiCpuMs, counts: await meter(options.runs), runMs });
  }
  const label = (size: number) => (size >= 1e6 ? `${size / 1e6} MB` : `${size / 1e3} KB`);
  const table: Table = {
    title: "Run cost against the thread's state size (echo agent, per run, runs one after another)",
    header: [
      "state",
      "server CPU ms",
      "PG CPU ms",
      "tables grew KB",
      "WAL KB (whole server)",
      "PG rows written",
      "run p50 ms",
    ],
    rows: results.map((r) => [
      label(r.size),
      format(r.apiCpuMs, 2),
      format(r.counts.postgresCpuMs, 2),
      format(r.counts.bytesGrown / 1024, 0),
      format(r.counts.walBytes / 1024, 0),
      format(r.counts.rowsWritten, 1),
      format(percentile(r.runMs, 50), 1),
    ]),
    notes: [
      "A run writes its checkpoints with the state's channels whole (LangGraph's checkpoint format: each new version of a channel is a blob of its full value).",
    ],
  };
  const points = (pick: (r: (typeof results)[number]) => number) =>
    results.map((r) => [r.size, pick(r)] as [number, number]);
  const panels: Panel[] = [
    {
      title: "Run cost vs state size",
      xLabel: "state bytes (messages)",
      yLabel: "CPU ms per run",
      series: [
        { name: "server", points: points((r) => r.apiCpuMs) },
        { name: "PostgreSQL", points: points((r) => r.counts.postgresCpuMs) },
      ],
    },
  ];
  return { tables: [table], panels };
}
