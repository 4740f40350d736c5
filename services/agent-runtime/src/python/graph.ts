// A Python graph as the runtime uses a compiled LangGraph JS graph (the graph host seam): state
// reads and updates, drawings, schemas and subgraphs answered by the Python graph host, and a run
// executed there with its events already shaped as the official Python server shapes them.
import type { RunnableConfig } from "@langchain/core/runnables";
import { toPlain } from "../common/serde";
import type { GraphAccess, GraphRunOptions, GraphRunSink, HostedGraph } from "../graphs/hosted";
import type { GraphSchema } from "../graphs/schemas";
import type { PythonHost } from "./host";

/** How the host builds a factory graph for an operation (a compiled graph ignores it). */
export interface GraphBuild {
  config: RunnableConfig;
  access: GraphAccess;
  context?: Record<string, unknown>;
}

/* eslint-disable @typescript-eslint/no-explicit-any */

/** What the host's schemas give: one part each, null where the graph could not say. */
interface PythonSchemas {
  input: object | null;
  output: object | null;
  state: object | null;
  config: object | null;
  context: object | null;
}

/** Checkpoint keys that LangGraph Python reads as given when present (a `null` one as a value, not as absent). */
const CHECKPOINT_KEYS = ["checkpoint_id", "checkpoint_ns", "checkpoint_map"];

/** A config as JSON: what LangGraph Python reads of it (its callbacks, signals and objects stay here). */
function plainConfig(config: Record<string, any> | undefined): Record<string, any> {
  if (!config) return {};
  const { callbacks: _callbacks, signal: _signal, store: _store, ...rest } = config;
  const plain = toPlain<Record<string, any>>(rest);
  const configurable = plain.configurable as Record<string, unknown> | undefined;
  if (configurable) for (const key of CHECKPOINT_KEYS) if (configurable[key] === null) delete configurable[key];
  return plain;
}

/** A LangGraph JS `Command` (or its plain form) as the API's `{resume, update, goto}`. */
function commandOf(input: unknown): Record<string, unknown> | undefined {
  const candidate = input as { lg_name?: string; resume?: unknown; update?: unknown; goto?: unknown } | null;
  if (!candidate || typeof candidate !== "object" || candidate.lg_name !== "Command") return undefined;
  const command: Record<string, unknown> = {};
  if (candidate.resume !== undefined) command.resume = candidate.resume;
  if (candidate.update !== undefined && candidate.update !== null) command.update = candidate.update;
  const goto = candidate.goto as unknown;
  if (goto !== undefined && !(Array.isArray(goto) && goto.length === 0)) command.goto = toPlain(goto);
  return toPlain(command);
}

export class PythonGraph implements HostedGraph {
  /** Python graphs keep their checkpoints in the host's own saver (none of the runtime's). */
  readonly checkpointer = undefined;

  constructor(
    private readonly host: PythonHost,
    readonly graphId: string,
    private readonly build: GraphBuild,
  ) {}

  private args(extra: Record<string, unknown>): Record<string, unknown> {
    return {
      graph_id: this.graphId,
      build: { config: plainConfig(this.build.config), access: this.build.access, context: this.build.context },
      ...extra,
    };
  }

  async runStream(input: unknown, options: GraphRunOptions, sink: GraphRunSink): Promise<void> {
    const command = commandOf(input);
    const args = this.args({
      kind: options.protocol ? "protocol" : "stream",
      input: command ? null : toPlain(input ?? null),
      command,
      config: plainConfig({
        ...options.config,
        configurable: options.configurable,
        metadata: options.metadata,
        recursion_limit: options.recursionLimit,
        run_id: options.runId,
      }),
      context: options.context ?? null,
      stream_mode: options.streamMode,
      subgraphs: options.subgraphs,
      interrupt_before: options.interruptBefore ?? null,
      interrupt_after: options.interruptAfter ?? null,
      durability: options.durability ?? null,
      ...(options.nodes ? { trace_nodes: true } : {}),
    });
    for await (const { header, data } of this.host.stream("run", args, options.signal)) {
      if (header.s) sink.valuesJson(data);
      if (header.i) sink.interrupted();
      if (typeof header.e === "string") await sink.event(header.e, data);
      if (header.p) await sink.protocol(JSON.parse(data));
      if (header.n) options.nodes?.(JSON.parse(data));
    }
    // A cancel makes the host stop the run with an error; its reason is the signal's.
    if (options.signal?.aborted) throw options.signal.reason;
  }

  async getState(config: RunnableConfig, options: { subgraphs?: boolean } = {}): Promise<any> {
    return this.host.call("state.get", this.args({ config: plainConfig(config), subgraphs: !!options.subgraphs }));
  }

  async *getStateHistory(
    config: RunnableConfig,
    options: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> } = {},
  ): AsyncIterable<any> {
    const snapshots = await this.host.call<any[]>(
      "state.history",
      this.args({
        config: plainConfig(config),
        limit: options.limit ?? null,
        before: options.before ? plainConfig(options.before) : null,
        filter: options.filter ?? null,
      }),
    );
    yield* snapshots;
  }

  async updateState(config: RunnableConfig, values: unknown, asNode?: string): Promise<RunnableConfig> {
    const command = commandOf(values);
    return this.host.call(
      "state.update",
      this.args({
        config: plainConfig(config),
        values: command ? null : toPlain(values ?? null),
        command,
        as_node: asNode ?? null,
      }),
    );
  }

  async bulkUpdateState(
    config: RunnableConfig,
    supersteps: { updates: { values?: unknown; asNode?: string; command?: unknown }[] }[],
  ): Promise<RunnableConfig> {
    return this.host.call(
      "state.bulk_update",
      this.args({
        config: plainConfig(config),
        supersteps: supersteps.map((step) => ({
          updates: step.updates.map((update) => ({
            values: toPlain(update.values ?? null),
            as_node: update.asNode ?? null,
            command: update.command ? toPlain(update.command) : null,
          })),
        })),
      }),
    );
  }

  async getGraphAsync(options: { xray?: boolean | number } = {}): Promise<{ toJSON(): unknown }> {
    const json = await this.host.call("graph.draw", this.args({ xray: options.xray ?? false }));
    return { toJSON: () => json };
  }

  async schemas(): Promise<GraphSchema> {
    const schemas = await this.host.call<PythonSchemas>("graph.schemas", this.args({}));
    return toGraphSchema(schemas);
  }

  async *getSubgraphsAsync(
    namespace?: string,
    recurse?: boolean,
  ): AsyncIterable<[string, { schemas(): Promise<GraphSchema> }]> {
    const found = await this.host.call<Record<string, PythonSchemas>>(
      "graph.subgraphs",
      this.args({ namespace: namespace ?? null, recurse: !!recurse }),
    );
    for (const [name, schemas] of Object.entries(found)) yield [name, { schemas: async () => toGraphSchema(schemas) }];
  }
}

function toGraphSchema(schemas: PythonSchemas): GraphSchema {
  return {
    input: schemas.input ?? undefined,
    output: schemas.output ?? undefined,
    state: schemas.state ?? undefined,
    config: schemas.config ?? undefined,
    context: schemas.context ?? undefined,
  } as GraphSchema;
}
