// The plans of what a search request really sends, for the growth bench: the runtime's own
// services (threads, assistants, store) built in this process as the runtime builds them, on
// repositories and a checkpointer whose every read is EXPLAINed (ANALYZE, in a transaction rolled
// back) before it runs (services/agent-runtime/test/support/statement-plans.ts, shared with
// search-plans.test.ts). The bench hands a service the body it posted over HTTP, so the plans are
// of the statements, and the values, that request made the runtime send; no hand-written copy of
// a statement to drift from the repositories.
import pg from "pg";
import { createDb } from "../../services/agent-runtime/src/db";
import { AssistantRepository } from "../../services/agent-runtime/src/assistants/repository";
import { AssistantService } from "../../services/agent-runtime/src/assistants/service";
import { RuntimeCheckpointer } from "../../services/agent-runtime/src/graphs/checkpointer";
import { readGraphProject } from "../../services/agent-runtime/src/graphs/config";
import { GraphRegistry } from "../../services/agent-runtime/src/graphs/registry";
import { StoreRepository } from "../../services/agent-runtime/src/store/repository";
import { StoreService } from "../../services/agent-runtime/src/store/service";
import { CHECKPOINT_SCHEMA, CheckpointTables } from "../../services/agent-runtime/src/threads/checkpoints";
import { ThreadRepository } from "../../services/agent-runtime/src/threads/repository";
import { ThreadService } from "../../services/agent-runtime/src/threads/service";
import { checkpointerTtlOf, storeTtlOf } from "../../services/agent-runtime/src/ttl/settings";
import { StatementPlans, type ExplainedStatement } from "../../services/agent-runtime/test/support/statement-plans";

export interface ExplainingServices {
  threads: ThreadService;
  assistants: AssistantService;
  store: StoreService;
  /** The plans of the statements sent since the last call (which forgets them). */
  take(): ExplainedStatement[];
  close(): Promise<void>;
}

/** The services a runtime serving `configPath` on `databaseUrl` answers searches with, explaining each read. */
export async function explainingServices(databaseUrl: string, configPath: string): Promise<ExplainingServices> {
  const plans = await StatementPlans.connect(databaseUrl);
  const db = createDb(databaseUrl, 2);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const checkpointer = new RuntimeCheckpointer(plans.pool(pool), undefined, { schema: CHECKPOINT_SCHEMA });
  const graphs = await GraphRegistry.load(configPath, checkpointer);
  const project = readGraphProject(configPath);
  const explaining = plans.db(db);
  return {
    threads: new ThreadService(
      new ThreadRepository(explaining, checkpointerTtlOf(project)),
      graphs,
      new CheckpointTables(explaining),
    ),
    assistants: new AssistantService(new AssistantRepository(explaining), graphs),
    store: new StoreService(new StoreRepository(explaining, undefined, storeTtlOf(project))),
    take: () => plans.take(),
    close: async () => {
      await graphs.close();
      await pool.end();
      await db.$disconnect();
      await plans.end();
    },
  };
}

/** A request's plans as report cells: statements, indexes, sequential scans and rows read per table. */
export function planCells(plans: ExplainedStatement[]): string[] {
  const indexes = [...new Set(plans.flatMap((plan) => plan.indexes))];
  const perTable = (pick: (plan: ExplainedStatement) => Record<string, number>) => {
    const sums = new Map<string, number>();
    for (const plan of plans)
      for (const [table, count] of Object.entries(pick(plan))) sums.set(table, (sums.get(table) ?? 0) + count);
    return [...sums].map(([table, count]) => `${table} ${Math.round(count).toLocaleString("en-US")}`).join(", ");
  };
  return [
    String(plans.length),
    indexes.join(", ") || "none",
    perTable((plan) => plan.sequentialScans) || "none",
    perTable((plan) => plan.rows) || "none",
  ];
}
