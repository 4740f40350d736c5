// JSON Schemas of a graph's state, input, output and config, read from the compiled graph at run time,
// in the order the official server tries them: StateSchema, Zod with LangGraph's registry, plain Zod.
// A running graph keeps no TypeScript types: Annotation channels are described by what the channel
// objects tell (see annotationSchemas), and those parts are then read from the source (source-schemas).
import { messagesStateReducer } from "@langchain/langgraph";
import { schemaMetaRegistry } from "@langchain/langgraph/zod";
import {
  getConfigTypeSchema,
  getInputTypeSchema,
  getOutputTypeSchema,
  getUpdateTypeSchema,
} from "@langchain/langgraph/zod/schema";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { isZodSchemaV3, isZodSchemaV4 } from "@langchain/core/utils/types";
import { toJSONSchema } from "zod/v4/core";
import type { CompiledGraph } from "./registry";

type JsonSchema = Record<string, unknown>;

/** The schemas of one graph (undefined where the graph declares nothing). */
export interface GraphSchema {
  state?: JsonSchema;
  input?: JsonSchema;
  output?: JsonSchema;
  config?: JsonSchema;
  /** The run context's schema where it differs from the config's (a Python graph's); JS graphs have one. */
  context?: JsonSchema;
}

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
/** LangGraph's marker for "the input is the state, every key optional". */
const PARTIAL_STATE = Symbol.for("langgraph.state.partial");
/** Extras (`jsonSchemaExtra`) travel through Zod's conversion as a description with this prefix. */
const EXTRAS_PREFIX = "lg:";

/* eslint-disable @typescript-eslint/no-explicit-any */
interface MetaRegistry {
  getExtendedChannelSchemas(schema: unknown, options: object): unknown;
}

/**
 * The registry holding the graph's `withLangGraph` / `.register(registry, ...)` metadata: the one its
 * StateGraph used, which belongs to the graph's copy of @langchain/langgraph (maybe not ours, or
 * its ESM build where we load the CommonJS one).
 */
function metaRegistryOf(builder: any): MetaRegistry {
  const own = builder?._metaRegistry as MetaRegistry | undefined;
  return typeof own?.getExtendedChannelSchemas === "function" ? own : (schemaMetaRegistry as MetaRegistry);
}

function isStateSchemaLike(value: unknown): value is { getJsonSchema(): JsonSchema; getInputJsonSchema(): JsonSchema } {
  const candidate = value as { getJsonSchema?: unknown; getInputJsonSchema?: unknown } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.getJsonSchema === "function" &&
    typeof candidate.getInputJsonSchema === "function"
  );
}

function stateSchemaSchemas(builder: any): GraphSchema | undefined {
  const { _schemaRuntimeDefinition: state, _inputRuntimeDefinition: input, _outputRuntimeDefinition: output } = builder;
  if (!isStateSchemaLike(state) && !isStateSchemaLike(input) && !isStateSchemaLike(output)) return undefined;
  return {
    state: isStateSchemaLike(state) ? state.getJsonSchema() : undefined,
    input: isStateSchemaLike(input)
      ? input.getInputJsonSchema()
      : input === PARTIAL_STATE && isStateSchemaLike(state)
        ? state.getInputJsonSchema()
        : undefined,
    output: isStateSchemaLike(output) ? output.getJsonSchema() : undefined,
  };
}

/** Moves `lg:{...}` descriptions back into the schema as properties (`langgraph_type` and the like). */
function applyExtras(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(applyExtras);
  if (typeof schema !== "object" || schema === null) return schema;
  const output: JsonSchema = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, applyExtras(value)]),
  );
  if (typeof output.description === "string" && output.description.startsWith(EXTRAS_PREFIX)) {
    const extras = JSON.parse(output.description.slice(EXTRAS_PREFIX.length)) as JsonSchema;
    delete output.description;
    Object.assign(output, extras);
  }
  return output;
}

/** Zod to JSON Schema; a type JSON Schema cannot express (z.custom, functions) becomes `{}`. */
function zodToJsonSchema(schema: unknown): JsonSchema {
  try {
    return toJsonSchema(schema as never) as JsonSchema;
  } catch (error) {
    if (!isZodSchemaV4(schema)) throw error;
    return toJSONSchema(schema as never, { unrepresentable: "any" }) as JsonSchema;
  }
}

/**
 * Zod state with LangGraph's registry (reducers, defaults, `jsonSchemaExtra`). The state schema is
 * the update form (what a client may send), as the official server answers it.
 */
function registrySchemas(graph: CompiledGraph): GraphSchema | undefined {
  const builder = graph.builder;
  const registry = metaRegistryOf(builder);
  const isZod = (value: unknown) => isZodSchemaV3(value as never) || isZodSchemaV4(value as never);
  if (
    ![
      builder._schemaRuntimeDefinition,
      builder._inputRuntimeDefinition,
      builder._outputRuntimeDefinition,
      builder._configRuntimeSchema,
    ].some(isZod)
  )
    return undefined;
  const tolerant = (definition: unknown, options: object): JsonSchema | undefined =>
    isZod(definition)
      ? (applyExtras(
          zodToJsonSchema(
            registry.getExtendedChannelSchemas(definition, { withJsonSchemaExtrasAsDescription: true, ...options }),
          ),
        ) as JsonSchema)
      : undefined;
  // The library's getters first; a field they cannot convert (z.custom messages) retries tolerantly.
  const attempt = (get: () => JsonSchema | undefined, definition: unknown, options: object) => {
    try {
      return get();
    } catch {
      return tolerant(definition, options);
    }
  };
  const partial = { withReducerSchema: true, asPartial: true };
  const inputDefinition =
    builder._inputRuntimeDefinition === PARTIAL_STATE
      ? builder._schemaRuntimeDefinition
      : builder._inputRuntimeDefinition;
  const result: GraphSchema = {
    state: attempt(() => getUpdateTypeSchema(graph, registry as never), builder._schemaRuntimeDefinition, partial),
    input: attempt(() => getInputTypeSchema(graph, registry as never), inputDefinition, partial),
    output: attempt(() => getOutputTypeSchema(graph, registry as never), builder._outputRuntimeDefinition, {}),
    config: attempt(() => getConfigTypeSchema(graph, registry as never), builder._configRuntimeSchema, {}),
  };
  return Object.values(result).some((schema) => schema !== undefined) ? result : undefined;
}

const MESSAGE_DEFINITION = "BaseMessage";

/** A serialized chat message, as runs return them and clients send them. */
const messageDefinition: JsonSchema = {
  description: "A chat message (human, ai, system, tool...) as the API serializes it.",
  type: "object",
  properties: {
    type: { type: "string", enum: ["human", "ai", "system", "developer", "tool", "function", "remove", "generic"] },
    content: { anyOf: [{ type: "string" }, { type: "array", items: { type: "object" } }] },
    id: { type: "string" },
    name: { type: "string" },
    additional_kwargs: { type: "object" },
    response_metadata: { type: "object" },
    tool_calls: { type: "array", items: { type: "object" } },
    tool_call_id: { type: "string" },
  },
  required: ["content"],
};

function isMessagesChannel(channel: unknown): boolean {
  const reducer = (channel as { operator?: unknown } | null)?.operator;
  if (typeof reducer !== "function") return false;
  // A graph bundling its own @langchain/langgraph has its own copy of the reducer: match by name too.
  return reducer === messagesStateReducer || reducer.name === "messagesStateReducer";
}

/** An `Annotation.Root` (or its spec) as an object schema: messages channels typed, others open. */
function annotationSchema(definition: unknown): JsonSchema | undefined {
  if (!definition || typeof definition !== "object") return undefined;
  const spec = ((definition as { spec?: object }).spec ?? definition) as Record<string, unknown>;
  let hasMessages = false;
  const properties: JsonSchema = {};
  for (const [key, channel] of Object.entries(spec)) {
    if (key.startsWith("__")) continue;
    if (isMessagesChannel(channel)) {
      hasMessages = true;
      properties[key] = {
        type: "array",
        items: { $ref: `#/definitions/${MESSAGE_DEFINITION}` },
        langgraph_type: "messages",
        description: "A list of chat messages",
      };
    } else {
      properties[key] = {};
    }
  }
  return {
    type: "object",
    properties,
    ...(hasMessages ? { definitions: { [MESSAGE_DEFINITION]: messageDefinition } } : {}),
    $schema: DRAFT_07,
  };
}

function annotationSchemas(graph: CompiledGraph): GraphSchema {
  const builder = graph.builder ?? {};
  const state =
    annotationSchema(builder._schemaDefinition) ??
    annotationSchema(
      Object.fromEntries(Object.entries(graph.channels ?? {}).filter(([key]) => !key.startsWith("branch:"))),
    );
  return {
    state,
    input: annotationSchema(builder._inputDefinition) ?? state,
    output: annotationSchema(builder._outputDefinition) ?? state,
    // LangGraph keeps a context given as Annotation nowhere at run time (older versions: _configSchema).
    config: annotationSchema(builder._configSchema) ?? { type: "object", $schema: DRAFT_07 },
  };
}

/** What the running graph tells of its schemas, and which parts it could only describe by channel names. */
export interface RuntimeGraphSchema {
  schema: GraphSchema;
  /** Parts given as Annotation (or not at all): their types live in the source only (see source-schemas). */
  untyped: ("state" | "input" | "output" | "config")[];
}

const cache = new WeakMap<object, RuntimeGraphSchema>();

/** The schemas of a compiled graph (computed once per graph object). */
export function extractGraphSchema(graph: CompiledGraph): RuntimeGraphSchema {
  const hit = cache.get(graph);
  if (hit) return hit;
  const builder = graph?.builder;
  const fallback = annotationSchemas(graph);
  const found = builder ? (stateSchemaSchemas(builder) ?? registrySchemas(graph)) : undefined;
  // Zod or StateSchema for some parts only (an Annotation state with a Zod context): the channels fill the rest.
  const result: RuntimeGraphSchema = found
    ? {
        schema: {
          state: found.state ?? fallback.state,
          input: found.input ?? fallback.input,
          output: found.output ?? fallback.output,
          config: found.config,
        },
        untyped: [
          ...(["state", "input", "output"] as const).filter((part) => found[part] === undefined),
          ...(found.config === undefined && builder?._configSchema ? (["config"] as const) : []),
        ],
      }
    : { schema: fallback, untyped: ["state", "input", "output", "config"] };
  cache.set(graph, result);
  return result;
}
