// The graph and schema views of GET /assistants/{id}/graph and /schemas.
import { toJSONSchema } from "zod";
import type { CompiledGraph } from "./registry";

export async function drawGraph(
  graph: CompiledGraph,
  xray?: boolean | number,
): Promise<{ nodes: object[]; edges: object[] }> {
  const drawable = await graph.getGraphAsync({ xray });
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

function objectSchema(title: string, keys: string[]): object {
  return { title, type: "object", properties: Object.fromEntries(keys.map((key) => [key, {}])) };
}

function keysOf(definition: unknown): string[] {
  if (!definition || typeof definition !== "object") return [];
  const spec = (definition as { spec?: object }).spec ?? (definition as { shape?: object }).shape ?? definition;
  return Object.keys(spec).filter((key) => !key.startsWith("__"));
}

/** Field-level JSON schemas derived from the graph's state and context definitions. */
export function graphSchemas(graphId: string, graph: CompiledGraph): Record<string, unknown> {
  const builder = graph.builder ?? {};
  const stateKeys = keysOf(builder._schemaDefinition).length
    ? keysOf(builder._schemaDefinition)
    : Object.keys(graph.channels ?? {}).filter((key) => !key.startsWith("__") && !key.startsWith("branch:"));
  const inputKeys = keysOf(builder._inputDefinition);
  const outputKeys = keysOf(builder._outputDefinition);
  const contextKeys = keysOf(builder._configSchema ?? builder._configRuntimeSchema);
  let contextSchema: object = objectSchema(`${graphId}_context`, contextKeys);
  if (builder._configRuntimeSchema) {
    try {
      contextSchema = {
        title: `${graphId}_context`,
        ...toJSONSchema(builder._configRuntimeSchema, { unrepresentable: "any" }),
      };
    } catch {
      // A schema zod cannot express as JSON Schema keeps the field-level view.
    }
  }
  return {
    graph_id: graphId,
    state_schema: objectSchema(graphId, stateKeys),
    input_schema: objectSchema(`${graphId}_input`, inputKeys.length ? inputKeys : stateKeys),
    output_schema: objectSchema(`${graphId}_output`, outputKeys.length ? outputKeys : stateKeys),
    config_schema: objectSchema(`${graphId}_config`, []),
    context_schema: contextSchema,
  };
}
