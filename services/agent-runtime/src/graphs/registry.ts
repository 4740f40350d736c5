// The deployment's graphs, loaded once from langgraph.json. A graph export may be a StateGraph
// (compiled here), a compiled graph, or a factory `(config) => graph` called per use.
import { existsSync } from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import type { RunnableConfig } from "@langchain/core/runnables";
import { GraphConfigError, readGraphConfig, type GraphEntry } from "./config";

/** What the runtime uses of a compiled graph (a `Pregel` instance). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CompiledGraph = any;

type Factory = (config: RunnableConfig) => unknown;

interface LoadedGraph {
  entry: GraphEntry;
  compiled?: CompiledGraph;
  factory?: Factory;
}

function isCompiled(value: unknown): boolean {
  const candidate = value as { stream?: unknown; getState?: unknown; invoke?: unknown };
  return !!candidate && typeof candidate.stream === "function" && typeof candidate.getState === "function";
}

function isBuilder(value: unknown): boolean {
  const candidate = value as { compile?: unknown };
  return !!candidate && typeof candidate.compile === "function" && !isCompiled(value);
}

export class GraphRegistry {
  private readonly graphs = new Map<string, LoadedGraph>();
  private store: BaseStore | undefined;

  constructor(private readonly checkpointer: BaseCheckpointSaver) {}

  /** Loads every graph of the config; any failure names the graph and the file. */
  static async load(configPath: string, checkpointer: BaseCheckpointSaver): Promise<GraphRegistry> {
    const registry = new GraphRegistry(checkpointer);
    for (const entry of readGraphConfig(configPath)) await registry.add(entry);
    return registry;
  }

  private async add(entry: GraphEntry): Promise<void> {
    const where = `graph "${entry.graphId}" (${entry.file}:${entry.exportName})`;
    if (!existsSync(entry.file)) throw new GraphConfigError(`cannot load ${where}: file not found`);
    let module: Record<string, unknown>;
    try {
      // tsx (at run time) and swc (under jest) compile TypeScript graph files on require.
      module = require(path.resolve(entry.file)) as Record<string, unknown>;
    } catch (error) {
      throw new GraphConfigError(`cannot load ${where}: ${(error as Error).message}`);
    }
    const exported = module[entry.exportName] ?? (entry.exportName === "default" ? module : undefined);
    if (exported === undefined)
      throw new GraphConfigError(`cannot load ${where}: no export named "${entry.exportName}"`);
    const loaded: LoadedGraph = { entry };
    if (isBuilder(exported)) {
      loaded.compiled = (exported as { compile(options: unknown): CompiledGraph }).compile({
        checkpointer: this.checkpointer,
      });
    } else if (isCompiled(exported)) {
      loaded.compiled = exported;
      loaded.compiled.checkpointer = this.checkpointer;
    } else if (typeof exported === "function") {
      loaded.factory = exported as Factory;
    } else {
      throw new GraphConfigError(`cannot load ${where}: the export is not a graph, a compiled graph or a factory`);
    }
    this.graphs.set(entry.graphId, loaded);
  }

  /** Makes a store available to every graph (the store capability sets it). */
  setStore(store: BaseStore): void {
    this.store = store;
    for (const loaded of this.graphs.values()) if (loaded.compiled) loaded.compiled.store = store;
  }

  ids(): string[] {
    return [...this.graphs.keys()];
  }

  has(graphId: string): boolean {
    return this.graphs.has(graphId);
  }

  entry(graphId: string): GraphEntry | undefined {
    return this.graphs.get(graphId)?.entry;
  }

  /** The compiled graph with the checkpointer attached (a factory is called with the run config). */
  async get(graphId: string, config: RunnableConfig = {}): Promise<CompiledGraph> {
    const loaded = this.graphs.get(graphId);
    if (!loaded) throw new GraphConfigError(`graph "${graphId}" is not in this deployment`);
    if (loaded.compiled) return loaded.compiled;
    let made = await loaded.factory!(config);
    if (isBuilder(made))
      made = (made as { compile(options: unknown): CompiledGraph }).compile({ checkpointer: this.checkpointer });
    if (!isCompiled(made)) throw new GraphConfigError(`graph "${graphId}": the factory did not return a graph`);
    const graph = made as CompiledGraph;
    graph.checkpointer = this.checkpointer;
    if (this.store) graph.store = this.store;
    return graph;
  }
}
