// The plans of the statements the runtime's repositories and checkpointer really send (issue 40):
// wrap the Prisma client a repository is given (its `$queryRaw` reads) or the checkpointer's pool
// (its SELECTs), and each statement is EXPLAINed (ANALYZE, FORMAT JSON) with its own values on a
// connection of its own, in a transaction rolled back, just before it runs. Each plan is summed up
// as the indexes it reads, the tables it scans sequentially and the rows its scans looked at per
// table. search-plans.test.ts asserts on these; the growth bench (bench/growth/search.ts) prints
// them beside each request's latency, so neither keeps a hand-written copy of a statement.
import pg from "pg";
import type { Db } from "../../src/db";
import { Prisma } from "../../src/generated/prisma/client";

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

export interface ExplainedStatement {
  /** The statement's start, whitespace collapsed (enough to tell statements apart). */
  statement: string;
  /** Indexes the plan reads, in plan order. */
  indexes: string[];
  /** Tables it scans sequentially. */
  sequential: string[];
  /** Sequential scans per table, every loop counted (a scan in a subquery runs once per outer row). */
  sequentialScans: Record<string, number>;
  /** Rows each table's scans looked at (kept or dropped by a filter, every loop). */
  rows: Record<string, number>;
}

export function summarise(statement: string, plan: PlanNode): ExplainedStatement {
  const found: ExplainedStatement = {
    statement: statement.replace(/\s+/g, " ").trim().slice(0, 70),
    indexes: [],
    sequential: [],
    sequentialScans: {},
    rows: {},
  };
  const walk = (node: PlanNode) => {
    if (node["Index Name"]) found.indexes.push(node["Index Name"]);
    if (node["Node Type"] === "Seq Scan") {
      const table = node["Relation Name"]!;
      found.sequential.push(table);
      found.sequentialScans[table] = (found.sequentialScans[table] ?? 0) + (node["Actual Loops"] ?? 1);
    }
    const table = node["Relation Name"];
    if (table && node["Node Type"] !== "ModifyTable") {
      const read =
        ((node["Actual Rows"] ?? 0) +
          (node["Rows Removed by Filter"] ?? 0) +
          (node["Rows Removed by Index Recheck"] ?? 0)) *
        (node["Actual Loops"] ?? 1);
      found.rows[table] = (found.rows[table] ?? 0) + read;
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  return found;
}

/** Explains statements on a connection of its own and keeps their summaries, in the order sent. */
export class StatementPlans {
  readonly plans: ExplainedStatement[] = [];
  // One statement at a time: a repository sends some in parallel (a page and its total), and
  // BEGIN, EXPLAIN and ROLLBACK of two of them must not interleave on the one connection.
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly client: pg.Client) {}

  /** `seqscan: false` prices sequential scans out, so a plan shows whether an index could serve it. */
  static async connect(databaseUrl: string, options: { seqscan?: boolean } = {}): Promise<StatementPlans> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    if (options.seqscan === false) await client.query("SET enable_seqscan = off");
    return new StatementPlans(client);
  }

  async end(): Promise<void> {
    await this.client.end();
  }

  /** The plans kept since the last call, which forgets them. */
  take(): ExplainedStatement[] {
    return this.plans.splice(0);
  }

  explain(text: string, values: unknown[]): Promise<void> {
    const run = async () => {
      await this.client.query("BEGIN");
      try {
        const { rows } = await this.client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
        this.plans.push(summarise(text, (rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan));
      } finally {
        await this.client.query("ROLLBACK");
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** A repository's Prisma client, with each read (`$queryRaw`) EXPLAINed on the side first. */
  db(db: Db): Db {
    return new Proxy(db, {
      get: (target, property, receiver) => {
        if (property !== "$queryRaw") return Reflect.get(target, property, receiver);
        return async (strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => {
          const sql = strings instanceof Prisma.Sql ? strings : Prisma.sql(strings, ...values);
          await this.explain(sql.text, sql.values as unknown[]);
          return target.$queryRaw(sql);
        };
      },
    });
  }

  /** The checkpointer's pool, with each read EXPLAINed on the side first. */
  pool(pool: pg.Pool): pg.Pool {
    return new Proxy(pool, {
      get: (target, property, receiver) => {
        if (property !== "query") return Reflect.get(target, property, receiver);
        return async (config: string | pg.QueryConfig, values?: unknown[]) => {
          const text = typeof config === "string" ? config : config.text;
          if (/^\s*select/i.test(text))
            await this.explain(text, (typeof config === "string" ? values : config.values) ?? []);
          return target.query(config as string, values);
        };
      },
    });
  }
}
