// The deployment's graphs, loaded once from langgraph.json. An export may be what the official
// server accepts: a StateGraph (compiled here), a compiled graph, a factory `(config, runtime)`
// called per use (sync or async), or a Promise of any of these.
import { existsSync } from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import type { RunnableConfig } from "@langchain/core/runnables";
import { ConfigError, HttpError, createLogger, type Logger } from "@lgp/server-kit";
import {
  GraphConfigError,
  applyProjectEnv,
  parseGraphDefaults,
  readGraphProject,
  type GraphDefaults,
  type GraphEntry,
} from "./config";
import { loadModule } from "./modules";
import { registerSdkLogger } from "./sdk-logger";
import { PythonGraphs, pythonExportsOf, type PythonSettings } from "../python/graphs";
import type { PythonHost } from "../python/host";
import type { PrismaStore } from "../store/graph-store";

/** What the runtime uses of a compiled graph (a `Pregel` instance). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CompiledGraph = any;

import type { GraphAccess } from "./hosted";

export type { GraphAccess };

/** The second argument of a graph factory. */
export interface GraphFactoryRuntime {
  access_context: GraphAccess;
  store?: BaseStore;
  /** Only when the graph is built to execute a run: that run's context. */
  execution_runtime?: { context: Record<string, unknown> };
}

type Factory = (config: RunnableConfig, runtime: GraphFactoryRuntime) => unknown;

interface LoadedGraph {
  entry: GraphEntry;
  compiled?: CompiledGraph;
  factory?: Factory;
  /** Run by the Python graph host. */
  python?: boolean;
  /** Why the graph could not be loaded (it is declared, but nothing can use it). */
  failure?: string;
}

/** Using a graph that failed to load at start-up: 409, the cause in `detail`. */
export class GraphUnavailableError extends HttpError {
  constructor(detail: string) {
    super(409, detail);
  }
}

export interface GraphLoadOptions {
  logger?: Logger;
  /** LANGGRAPH_CONFIG; without it, the value langgraph.json's `env` gives, if any. */
  defaults?: GraphDefaults;
  /** A graph that fails to load stops the load (LANGGRAPH_STRICT_GRAPHS). */
  strict?: boolean;
  /** How Python graphs run here (without it, a project's Python graphs cannot load). */
  python?: PythonSettings;
}

function isCompiled(value: unknown): boolean {
  const candidate = value as { stream?: unknown; getState?: unknown };
  return !!candidate && typeof candidate.stream === "function" && typeof candidate.getState === "function";
}

function isBuilder(value: unknown): boolean {
  const candidate = value as { compile?: unknown };
  return !!candidate && typeof candidate.compile === "function" && !isCompiled(value);
}

function where(entry: GraphEntry): string {
  return `graph "${entry.graphId}" (${entry.file}:${entry.exportName})`;
}

export class GraphRegistry {
  private readonly graphs = new Map<string, LoadedGraph>();
  private readonly defaults = new Map<string, Record<string, unknown>>();
  private store: BaseStore | undefined;
  /** The project's Python graphs, run by this process's Python graph host. */
  private python?: PythonGraphs;

  constructor(private readonly checkpointer: BaseCheckpointSaver) {}

  /**
   * Loads the graphs of a langgraph.json after setting its `env`. A graph that fails is logged
   * with its id, file and cause and answers 409 when used; the others serve (unless `strict`).
   */
  static async load(
    configPath: string,
    checkpointer: BaseCheckpointSaver,
    options: GraphLoadOptions = {},
  ): Promise<GraphRegistry> {
    const { logger } = options;
    const project = readGraphProject(configPath);
    const env = applyProjectEnv(project);
    if (env.fileError)
      logger?.warn({ file: env.file }, `env file of langgraph.json not read (${env.fileError}); going on without it`);
    if (project.unsupported.length)
      logger?.warn(
        { keys: project.unsupported },
        `langgraph.json keys this runtime does not implement (ignored): ${project.unsupported.join(", ")}`,
      );
    if (logger) registerSdkLogger(logger);
    let defaults = options.defaults;
    if (!defaults && process.env.LANGGRAPH_CONFIG) {
      const parsed = parseGraphDefaults(process.env.LANGGRAPH_CONFIG);
      if (typeof parsed === "string") throw new GraphConfigError(`invalid LANGGRAPH_CONFIG: ${parsed}`);
      defaults = parsed;
    }

    const registry = new GraphRegistry(checkpointer);
    for (const [graphId, value] of Object.entries(defaults ?? {})) registry.defaults.set(graphId, value);
    const failed = (entry: GraphEntry, error: unknown) => {
      const cause = (error as Error)?.message ?? String(error);
      const message = `cannot load ${where(entry)}: ${cause}`;
      if (options.strict) throw new GraphConfigError(message);
      logger?.error(
        { graph_id: entry.graphId, file: entry.file, export: entry.exportName, err: error },
        `${message}; the other graphs still serve (LANGGRAPH_STRICT_GRAPHS=true stops start-up instead)`,
      );
      registry.graphs.set(entry.graphId, { entry, failure: cause.split("\n")[0] });
    };
    try {
      await registry.addPython(project, options, failed);
      for (const entry of project.entries) {
        if (entry.language !== "js") continue;
        try {
          await registry.add(entry);
        } catch (error) {
          failed(entry, error);
        }
      }
    } catch (error) {
      await registry.close();
      throw error;
    }
    return registry;
  }

  /** The project's Python graphs, in a Python graph host started for them. */
  private async addPython(
    project: ReturnType<typeof readGraphProject>,
    options: GraphLoadOptions,
    failed: (entry: GraphEntry, error: unknown) => void,
  ): Promise<void> {
    const entries = project.entries.filter((entry) => entry.language === "python");
    if (!entries.length && !pythonExportsOf(project).length) return;
    if (!options.python) {
      for (const entry of entries) failed(entry, new Error("Python graphs do not run in this process"));
      return;
    }
    try {
      this.python = await PythonGraphs.start(
        project,
        entries,
        options.python,
        options.logger ?? createLogger("graphs", "silent"),
      );
    } catch (error) {
      // No Python to run them with, or their dependencies cannot be installed: start-up stops,
      // saying what to do (a Python graph that fails to load is the graph's own failure).
      if (error instanceof ConfigError || !entries.length) throw error;
      for (const entry of entries) failed(entry, error);
      return;
    }
    for (const entry of entries) {
      const failure = this.python.failures.get(entry.graphId);
      if (failure) failed(entry, new Error(failure));
      else this.graphs.set(entry.graphId, { entry, python: true });
    }
  }

  /** langgraph.json's `auth.path` naming a Python `Auth`: its handlers, in the Python graph host. */
  hostedAuth(spec: string) {
    return this.python?.authHandlers(spec);
  }

  /** langgraph.json's `http.app` naming a Python ASGI app: its routes, in the Python graph host. */
  hostedApp(spec: string) {
    return this.python?.appHandler(spec);
  }

  /** `store.index.embed` naming a Python function: called in the Python graph host. */
  hostedEmbedder(spec: string): ((texts: string[]) => Promise<number[][]>) | undefined {
    return this.python?.embedder(spec);
  }

  /** This process's Python graph host, when the project has Python parts. */
  pythonHost(): PythonHost | undefined {
    return this.python?.host;
  }

  /** Stops what the graphs need beside this process (the Python graph host). */
  async close(): Promise<void> {
    await this.python?.close();
  }

  private async add(entry: GraphEntry): Promise<void> {
    if (!existsSync(entry.file)) throw new Error("file not found");
    const module = await loadModule(path.resolve(entry.file));
    // A Promise export (a graph built with top-level async work) is awaited once.
    const exported = await (module[entry.exportName] ?? (entry.exportName === "default" ? module : undefined));
    if (exported === undefined || exported === null) throw new Error(`no export named "${entry.exportName}"`);
    const loaded: LoadedGraph = { entry };
    if (typeof exported === "function" && !isCompiled(exported)) loaded.factory = exported as Factory;
    else {
      const graph = this.resolve(exported);
      if (!graph) throw new Error("the export is not a graph, a compiled graph or a factory");
      loaded.compiled = this.attach(graph);
    }
    this.graphs.set(entry.graphId, loaded);
  }

  /** A StateGraph compiled, a compiled graph as is, an agent wrapper (`createAgent`) unwrapped. */
  private resolve(value: unknown): CompiledGraph | undefined {
    if (isBuilder(value)) return (value as { compile(): CompiledGraph }).compile();
    if (!isCompiled(value)) return undefined;
    const inner = (value as { graph?: unknown }).graph;
    return isCompiled(inner) && (inner as { builder?: unknown }).builder ? inner : value;
  }

  private attach(graph: CompiledGraph): CompiledGraph {
    graph.checkpointer = this.checkpointer;
    if (this.store) graph.store = this.store;
    return graph;
  }

  /** Makes a store available to every graph (the store capability sets it). */
  setStore(store: BaseStore): void {
    this.store = store;
    const repository = (store as Partial<PrismaStore>).repository;
    if (repository) this.python?.setStore(repository);
    for (const loaded of this.graphs.values()) if (loaded.compiled) loaded.compiled.store = store;
  }

  /** Every declared graph, those that failed to load included. */
  ids(): string[] {
    return [...this.graphs.keys()];
  }

  has(graphId: string): boolean {
    return this.graphs.has(graphId);
  }

  entry(graphId: string): GraphEntry | undefined {
    return this.graphs.get(graphId)?.entry;
  }

  /** LANGGRAPH_CONFIG's entry for the graph: its default assistant's config, `context` apart. */
  defaultsOf(graphId: string): { config: Record<string, unknown>; context: Record<string, unknown> } {
    const { context, ...config } = this.defaults.get(graphId) ?? {};
    const isObject = typeof context === "object" && context !== null && !Array.isArray(context);
    return { config, context: isObject ? (context as Record<string, unknown>) : {} };
  }

  /** Why the graph failed to load at start-up, if it did. */
  failureOf(graphId: string): string | undefined {
    return this.graphs.get(graphId)?.failure;
  }

  /** Throws the 409 of a graph that failed to load. */
  assertLoaded(graphId: string): void {
    const loaded = this.graphs.get(graphId);
    if (loaded?.failure)
      throw new GraphUnavailableError(
        `Graph "${graphId}" failed to load at start-up (${loaded.entry.file}:${loaded.entry.exportName}): ${loaded.failure}`,
      );
  }

  /**
   * The compiled graph with the checkpointer and store attached. A factory is called with the
   * config and the runtime (why the graph is built; a run's context).
   */
  async get(
    graphId: string,
    config: RunnableConfig = {},
    runtime: { access?: GraphAccess; context?: Record<string, unknown> } = {},
  ): Promise<CompiledGraph> {
    const loaded = this.graphs.get(graphId);
    if (!loaded) throw new GraphConfigError(`graph "${graphId}" is not in this deployment`);
    this.assertLoaded(graphId);
    if (loaded.compiled) return loaded.compiled;
    const access = runtime.access ?? "threads.read";
    if (loaded.python)
      return this.python!.graph(graphId, {
        config,
        access,
        ...(access === "threads.create_run" ? { context: runtime.context ?? {} } : {}),
      });
    const made = await loaded.factory!(
      { ...config, configurable: { ...(config.configurable ?? {}) } },
      {
        access_context: access,
        store: this.store,
        ...(access === "threads.create_run" ? { execution_runtime: { context: runtime.context ?? {} } } : {}),
      },
    );
    const graph = this.resolve(made);
    if (!graph) throw new GraphConfigError(`graph "${graphId}": the factory did not return a graph`);
    return this.attach(graph);
  }
}
