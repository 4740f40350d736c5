// Searches and lists against the row counts they serve: threads, assistants and store items at
// 10k, 100k and 1M rows each (seed.ts, by SQL, each size topped up to the next), and one thread's
// history of as many checkpoints read a page at a time. Each request is timed one after another
// (p50/p95), its rows read and sequential scans counted from the database's statistics (the
// runtime's own statements), and then made once more through the runtime's own service in this
// process with the same body (plans.ts), each statement its repositories send EXPLAINed (ANALYZE):
// which indexes serve it, which tables it scans whole, how many rows of each it reads.
import type { AgentRuntime } from "@lgp/contracts";
import pg from "pg";
import { format, percentile } from "../harness";
import { measureBackground, startMeter } from "./meter";
import { explainingServices, planCells, type ExplainingServices } from "./plans";
import type { Panel, Table } from "./report";
import { analyse, deepenHistory, seedAssistants, seedStoreItems, seedThreads } from "./seed";
import { call, GROWTH_CONFIG, timed, type Target } from "./target";

type Schemas = AgentRuntime.components["schemas"];

interface Context {
  historyThread: string;
  /** A checkpoint in the middle of that thread's history: a page deep in it starts before this. */
  middleCheckpoint: string;
}

interface Endpoint {
  name: string;
  route(context: Context): string;
  body(context: Context): object;
  /** The same request through the runtime's service, for the plans of what it sends. */
  serve(services: ExplainingServices, context: Context): Promise<unknown>;
}

/** An endpoint whose body goes both to the HTTP route and, as the route passes it, to its service. */
function endpoint<Body extends object>(
  name: string,
  route: (context: Context) => string,
  body: (context: Context) => Body,
  serve: (services: ExplainingServices, body: Body, context: Context) => Promise<unknown>,
): Endpoint {
  return { name, route, body, serve: (services, context) => serve(services, body(context), context) };
}

const threadSearch = (name: string, body: Schemas["ThreadSearch"]) =>
  endpoint(
    name,
    () => "/threads/search",
    () => body,
    (services, sent) => services.threads.search(sent),
  );
const threadCount = (name: string, body: Schemas["ThreadCount"]) =>
  endpoint(
    name,
    () => "/threads/count",
    () => body,
    (services, sent) => services.threads.count(sent),
  );
const assistantSearch = (name: string, body: Schemas["AssistantSearch"]) =>
  endpoint(
    name,
    () => "/assistants/search",
    () => body,
    (services, sent) => services.assistants.search(sent),
  );
const storeSearch = (name: string, body: Schemas["StoreSearchItems"]) =>
  endpoint(
    name,
    () => "/store/items/search",
    () => body,
    (services, sent) => services.store.search(sent),
  );
const history = (name: string, body: (context: Context) => Schemas["ThreadHistoryQuery"]) =>
  endpoint(
    name,
    (context) => `/threads/${context.historyThread}/history`,
    body,
    (services, sent, context) => services.threads.history(context.historyThread, sent),
  );

const ENDPOINTS: Endpoint[] = [
  threadSearch("threads/search metadata", { metadata: { user: "u42" }, limit: 10, offset: 0 }),
  threadSearch("threads/search status", { status: "interrupted", limit: 10, offset: 0 }),
  threadSearch("threads/search sort updated_at", { sort_by: "updated_at", sort_order: "desc", limit: 10, offset: 100 }),
  threadCount("threads/count metadata", { metadata: { user: "u42" } }),
  // Counts of many rows (their totals kept in row_counts): ~99% of the seeded threads are idle,
  // every seeded assistant is the agent's (seed.ts).
  threadCount("threads/count status", { status: "idle" }),
  assistantSearch("assistants/search metadata", { metadata: { team: "t42" }, limit: 10, offset: 0 }),
  assistantSearch("assistants/search graph_id", { graph_id: "agent", limit: 10, offset: 100 }),
  storeSearch("store/items/search prefix", { namespace_prefix: ["users", "u42"], limit: 10, offset: 0 }),
  storeSearch("store/items/search filter", {
    namespace_prefix: ["users"],
    filter: { kind: "task" },
    limit: 10,
    offset: 0,
  }),
  history("threads/{id}/history first page", () => ({ limit: 10 })),
  history("threads/{id}/history deep page", (context) => ({
    limit: 10,
    before: { configurable: { checkpoint_id: context.middleCheckpoint } },
  })),
];

export async function searchSection(
  target: Target,
  databaseUrl: string,
  options: { sizes: number[]; requests: number },
): Promise<{ tables: Table[]; panels: Panel[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const services = await explainingServices(databaseUrl, GROWTH_CONFIG).catch(async (error: unknown) => {
    await client.end();
    throw error;
  });
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
        const request = () => call(target.url, "POST", endpoint.route(context), endpoint.body(context));
        const ms = await timed(options.requests, 3, request);
        const counts = await meter(options.requests + 3);
        services.take();
        await endpoint.serve(services, context);
        const plans = services.take();
        rows.push([
          endpoint.name,
          size.toLocaleString("en-US"),
          format(percentile(ms, 50), 1),
          format(percentile(ms, 95), 1),
          format(counts.rowsRead, 0),
          format(counts.seqScans, 2),
          ...planCells(plans),
        ]);
        p95.set(endpoint.name, [...(p95.get(endpoint.name) ?? []), [size, percentile(ms, 95)]]);
      }
    }
  } finally {
    await services.close();
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
      "statements",
      "plan: indexes",
      "plan: seq scans per table",
      "plan: rows read per table",
    ],
    rows,
    notes: [
      "Rows read and sequential scans per request come from the database's statistics (the runtime's own statements, a thread search's count included, and its background less what it does idle).",
      "The plan columns are from EXPLAIN ANALYZE of each statement the runtime's repositories and checkpointer send for the request (its body handed to the runtime's own service in the bench's process, each read explained in a transaction rolled back): how many statements, the indexes they read, their sequential scans per table (each loop of a scan in a subquery counted, as the statistics count them), the rows their scans looked at per table (kept or filtered out).",
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
