// Which scans and indexes serve a statement, from its plan (EXPLAIN ANALYZE): the growth bench
// prints it beside each search's latency.
import type pg from "pg";

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  Plans?: PlanNode[];
}

/** The plan's scans, as "Index Scan threads_pkey", "Seq Scan threads" (with the rows each gave). */
export async function planScans(client: pg.Client, statement: string): Promise<string> {
  const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`,
  );
  const scans: string[] = [];
  const walk = (node: PlanNode) => {
    if (/Scan/.test(node["Node Type"]))
      scans.push(`${node["Node Type"]} ${node["Index Name"] ?? node["Relation Name"]} (${node["Actual Rows"]} rows)`);
    node.Plans?.forEach(walk);
  };
  walk(rows[0]!["QUERY PLAN"][0].Plan);
  return scans.join(", ");
}
