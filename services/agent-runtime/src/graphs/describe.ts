// The graph, schema and subgraph views of GET /assistants/{id}/graph, /schemas and /subgraphs.
import { isHostedGraph } from "./hosted";
import type { CompiledGraph } from "./registry";
import { extractGraphSchema, type GraphSchema } from "./schemas";
import type { SourceGraphSchema, SourceSchemas } from "./source-schemas/reader";

/** The graph's schemas read from its source, by namespace; asked only when a graph needs them. */
export type SourceSchemasOf = () => Promise<SourceSchemas | undefined>;

export async function drawGraph(
  graph: CompiledGraph,
  xray?: boolean | number,
): Promise<{ nodes: object[]; edges: object[] }> {
  const drawable = await graph.getGraphAsync({ xray });
  // A hosted graph's drawing is as its own language's official server answers it.
  if (isHostedGraph(graph)) return drawable.toJSON();
  const json = drawable.toJSON() as { nodes: { id: string; type?: string; data?: unknown }[]; edges: object[] };
  return {
    nodes: json.nodes.map((node) => ({
      id: node.id,
      type: node.type ?? "runnable",
      data: typeof node.data === "object" && node.data !== null ? node.data : { name: String(node.data ?? node.id) },
    })),
    edges: json.edges,
  };
}

/** The fields of GET /assistants/{id}/schemas (and of each subgraph); JS graphs have one config/context schema. */
function schemaFields(schema: GraphSchema): Record<string, unknown> {
  return {
    input_schema: schema.input,
    output_schema: schema.output,
    state_schema: schema.state,
    config_schema: schema.config,
    context_schema: schema.context ?? schema.config,
  };
}

/** The run-time schemas, with the parts the running graph could not type taken from the source when it could. */
async function schemaOf(graph: CompiledGraph, namespace: string, source?: SourceSchemasOf): Promise<GraphSchema> {
  // A hosted graph (and each of its subgraphs) describes itself.
  if (typeof graph?.schemas === "function") return graph.schemas();
  const { schema, untyped } = extractGraphSchema(graph);
  if (!untyped.length || !source) return schema;
  const typed: SourceGraphSchema | undefined = (await source())?.[namespace];
  if (!typed) return schema;
  const merged = { ...schema };
  for (const part of untyped) if (typed[part]) merged[part] = typed[part];
  return merged;
}

export async function graphSchemas(
  graphId: string,
  graph: CompiledGraph,
  source?: SourceSchemasOf,
): Promise<Record<string, unknown>> {
  return { graph_id: graphId, ...schemaFields(await schemaOf(graph, "", source)) };
}

/**
 * Schemas of the graph's subgraphs keyed by namespace (`node` or `node|child` when recursing).
 * Each carries the official JS server's keys (state, input, output, config) and the Python server's
 * (`*_schema`), so either SDK finds what it reads.
 */
export async function subgraphSchemas(
  graph: CompiledGraph,
  options: { namespace?: string; recurse?: boolean },
  source?: SourceSchemasOf,
): Promise<Record<string, Record<string, unknown>>> {
  const result: Record<string, Record<string, unknown>> = {};
  for await (const [namespace, subgraph] of graph.getSubgraphsAsync(options.namespace, options.recurse)) {
    const schema = await schemaOf(subgraph, namespace, source);
    result[namespace] = { ...schema, ...schemaFields(schema) };
  }
  return result;
}
