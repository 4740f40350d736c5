// Searches and lists against the row counts they serve: threads, assistants and store items at
// 10k, 100k and 1M rows each (seed.ts, by SQL, each size topped up to the next), and one thread's
// history of as many checkpoints read a page at a time. Each request is timed one after another
// (p50/p95), its rows read and sequential scans counted from the database's statistics (the
// runtime's own statements), and the plan of the same statement, as its repository writes it,
// shown from EXPLAIN ANALYZE: which scans and indexes serve it.
import pg from "pg";
import { format, percentile } from "../harness";
import { measureBackground, startMeter } from "./meter";
import { planScans } from "./plans";
import type { Panel, Table } from "./report";
import { analyse, deepenHistory, seedAssistants, seedStoreItems, seedThreads } from "./seed";
import { call, timed, type Target } from "./target";

interface Endpoint {
  name: string;
  request(url: string, context: Context): Promise<unknown>;
  /** The statement the repository sends (without auth filters), for its plan. */
  plan(context: Context): string;
}

interface Context {
  historyThread: string;
  /** A checkpoint in the middle of that thread's history: a page deep in it starts before this. */
  middleCheckpoint: string;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: "threads/search metadata",
    request: (url) => call(url, "POST", "/threads/search", { metadata: { user: "u42" }, limit: 10 }),
    plan: () =>
      `SELECT * FROM threads WHERE metadata @> '{"user":"u42"}'::jsonb ORDER BY created_at DESC, thread_id DESC LIMIT 10`,
  },
  {
    name: "threads/search status",
    request: (url) => call(url, "POST", "/threads/search", { status: "interrupted", limit: 10 }),
    plan: () => `SELECT * FROM threads WHERE status = 'interrupted' ORDER BY created_at DESC, thread_id DESC LIMIT 10`,
  },
  {
    name: "threads/search sort updated_at",
    request: (url) =>
      call(url, "POST", "/threads/search", { sort_by: "updated_at", sort_order: "desc", limit: 10, offset: 100 }),
    plan: () => `SELECT * FROM threads ORDER BY updated_at DESC, thread_id DESC LIMIT 10 OFFSET 100`,
  },
  {
    name: "threads/count metadata",
    request: (url) => call(url, "POST", "/threads/count", { metadata: { user: "u42" } }),
    plan: () => `SELECT count(*) FROM threads WHERE metadata @> '{"user":"u42"}'::jsonb`,
  },
  {
    name: "threads/count status",
    request: (url) => call(url, "POST", "/threads/count", { status: "error" }),
    plan: () => `SELECT count(*) FROM threads WHERE status = 'error'`,
  },
  {
    name: "assistants/search metadata",
    request: (url) => call(url, "POST", "/assistants/search", { metadata: { team: "t42" }, limit: 10 }),
    plan: () =>
      `SELECT * FROM assistants WHERE metadata @> '{"team":"t42"}'::jsonb ORDER BY created_at DESC, assistant_id DESC LIMIT 10`,
  },
  {
    name: "assistants/search graph_id",
    request: (url) => call(url, "POST", "/assistants/search", { graph_id: "agent", limit: 10, offset: 100 }),
    plan: () =>
      `SELECT * FROM assistants WHERE graph_id = 'agent' ORDER BY created_at DESC, assistant_id DESC LIMIT 10 OFFSET 100`,
  },
  {
    name: "store/items/search prefix",
    request: (url) => call(url, "POST", "/store/items/search", { namespace_prefix: ["users", "u42"], limit: 10 }),
    plan: () =>
      `SELECT namespace, key, value FROM store_items WHERE (expires_at IS NULL OR expires_at > now())
       AND (namespace = 'users.u42' OR starts_with(namespace, 'users.u42.')) ORDER BY updated_at DESC, namespace, key LIMIT 10`,
  },
  {
    name: "store/items/search filter",
    request: (url) =>
      call(url, "POST", "/store/items/search", { namespace_prefix: ["users"], filter: { kind: "task" }, limit: 10 }),
    plan: () =>
      `SELECT namespace, key, value FROM store_items WHERE (expires_at IS NULL OR expires_at > now())
       AND (namespace = 'users' OR starts_with(namespace, 'users.')) AND (value -> 'kind') = '"task"'::jsonb
       ORDER BY updated_at DESC, namespace, key LIMIT 10`,
  },
  {
    name: "threads/{id}/history first page",
    request: (url, context) => call(url, "POST", `/threads/${context.historyThread}/history`, { limit: 10 }),
    plan: (context) =>
      `SELECT checkpoint_id FROM langgraph.checkpoints WHERE thread_id = '${context.historyThread}' AND checkpoint_ns = ''
       ORDER BY checkpoint_id DESC LIMIT 10`,
  },
  {
    name: "threads/{id}/history deep page",
    request: (url, context) =>
      call(url, "POST", `/threads/${context.historyThread}/history`, {
        limit: 10,
        before: { configurable: { checkpoint_id: context.middleCheckpoint } },
      }),
    plan: (context) =>
      `SELECT checkpoint_id FROM langgraph.checkpoints WHERE thread_id = '${context.historyThread}' AND checkpoint_ns = ''
       AND checkpoint_id < '${context.middleCheckpoint}' ORDER BY checkpoint_id DESC LIMIT 10`,
  },
];

export async function searchSection(
  target: Target,
  databaseUrl: string,
  options: { sizes: number[]; requests: number },
): Promise<{ tables: Table[]; panels: Panel[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const rows: string[][] = [];
  const p95 = new Map<string, [number, number][]>();
  try {
    const { thread_id: historyThread } = await call<{ thread_id: string }>(target.url, "POST", "/threads", {});
    const [assistant] = await call<{ assistant_id: string }[]>(target.url, "POST", "/assistants/search", {
      graph_id: "agent",
      limit: 1,
    });
    await call(target.url, "POST", `/threads/${historyThread}/runs/wait`, {
      assistant_id: "agent",
      input: { messages: [{ role: "user", content: "hello" }] },
    });
    let seeded = 0;
    let copies = 0;
    for (const size of options.sizes) {
      const started = performance.now();
      // Bulk inserts a million rows at a time at most, so each statement's memory stays small.
      for (let from = seeded; from < size; from += 1_000_000) {
        const to = Math.min(size, from + 1_000_000);
        await seedThreads(client, from, to);
        await seedAssistants(client, from, to);
        await seedStoreItems(client, from, to);
      }
      await deepenHistory(client, historyThread, assistant!.assistant_id, size, copies);
      copies = size - 3;
      seeded = size;
      await analyse(client);
      console.log(
        `  ${size.toLocaleString("en-US")} rows each: seeded in ${format((performance.now() - started) / 1000)} s`,
      );
      const middle = await client.query<{ id: string }>(
        `SELECT checkpoint_id AS id FROM langgraph.checkpoints WHERE thread_id = $1 ORDER BY checkpoint_id OFFSET $2 LIMIT 1`,
        [historyThread, Math.floor(size / 2)],
      );
      const background = await measureBackground(databaseUrl);
      const context: Context = { historyThread, middleCheckpoint: middle.rows[0]!.id };
      for (const endpoint of ENDPOINTS) {
        const meter = await startMeter(databaseUrl, undefined, background);
        const ms = await timed(options.requests, 3, () => endpoint.request(target.url, context));
        const counts = await meter(options.requests + 3);
        const plan = await planScans(client, endpoint.plan(context));
        rows.push([
          endpoint.name,
          size.toLocaleString("en-US"),
          format(percentile(ms, 50), 1),
          format(percentile(ms, 95), 1),
          format(counts.rowsRead, 0),
          format(counts.seqScans, 2),
          plan,
        ]);
        p95.set(endpoint.name, [...(p95.get(endpoint.name) ?? []), [size, percentile(ms, 95)]]);
      }
    }
  } finally {
    await client.end();
  }
  const table: Table = {
    title: "Searches and lists against row counts (one request at a time)",
    header: [
      "request",
      "rows",
      "p50 ms",
      "p95 ms",
      "rows read",
      "seq scans",
      "plan of its statement (EXPLAIN ANALYZE)",
    ],
    rows,
    notes: [
      "Rows read and sequential scans per request come from the database's statistics (the runtime's own statements, a thread search's count included); the plan is of the same statement as its repository writes it.",
      "Threads, assistants and store items each number the row count; the history's thread has as many checkpoints.",
    ],
  };
  const panel = (title: string, pick: (name: string) => boolean): Panel => ({
    title,
    xLabel: "rows",
    yLabel: "p95 ms",
    series: [...p95].filter(([name]) => pick(name)).map(([name, points]) => ({ name, points })),
  });
  const threads = (name: string) => name.startsWith("threads/") && !name.includes("history");
  const panels = [panel("Thread searches vs rows", threads), panel("Other searches vs rows", (name) => !threads(name))];
  return { tables: [table], panels };
}
