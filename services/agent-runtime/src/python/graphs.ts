// A project's Python graphs in this process: their environment made (or the one given), their host
// started with them, what it loaded, and a graph object per use (see PythonGraph).
import { ConfigError, type Logger } from "@lgp/server-kit";
import type { RequestHandler } from "express";
import type { AgentRuntimeConfig } from "../config";
import { languageOf, type GraphEntry, type GraphProject } from "../graphs/config";
import type { StoreRepository } from "../store/repository";
import { preparePythonEnvironment, pythonProjectOf, localPythonPath, type PythonEnvironment } from "./environment";
import { PythonGraph, type GraphBuild } from "./graph";
import { PythonHost } from "./host";
import { hostedApp, hostedAuth, type HostedAuthHandlers } from "./parts";
import { answerStoreBatch } from "./store-bridge";

/** How this process runs Python graphs (the runtime's configuration). */
export interface PythonSettings {
  /** LANGGRAPH_PYTHON: an environment's interpreter, made already (nothing is installed then). */
  interpreter?: string;
  /** PYTHON: the interpreter environments are made with. */
  basePython?: string;
  /** PYTHON_ENVIRONMENTS_DIR. */
  environmentsDir: string;
  databaseUrl: string;
  /** PYTHON_POOL_SIZE: the host's PostgreSQL connections. */
  poolSize: number;
  logLevel: string;
}

/** This process's Python settings, from the runtime's configuration. */
export function pythonSettingsOf(
  config: Pick<
    AgentRuntimeConfig,
    "LANGGRAPH_PYTHON" | "PYTHON" | "PYTHON_ENVIRONMENTS_DIR" | "PYTHON_POOL_SIZE" | "DATABASE_URL" | "LOG_LEVEL"
  >,
): PythonSettings {
  return {
    interpreter: config.LANGGRAPH_PYTHON,
    basePython: config.PYTHON,
    environmentsDir: config.PYTHON_ENVIRONMENTS_DIR,
    databaseUrl: config.DATABASE_URL,
    poolSize: config.PYTHON_POOL_SIZE,
    logLevel: config.LOG_LEVEL,
  };
}

/** Parameters of a database URL that are Prisma's, not libpq's (psycopg refuses them). */
const PRISMA_PARAMS = [
  "schema",
  "connection_limit",
  "pool_timeout",
  "pgbouncer",
  "socket_timeout",
  "statement_cache_size",
];

/** The deployment's database URL as libpq (psycopg) reads it. */
export function libpqUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  for (const param of PRISMA_PARAMS) url.searchParams.delete(param);
  return url.toString();
}

/** Whether a `path:attr` of langgraph.json (other than a graph's) names Python. */
export function isPythonExport(spec: string): boolean {
  const separator = spec.lastIndexOf(":");
  const target = separator > 0 ? spec.slice(0, separator) : spec;
  // `openai:text-embedding-3-small` is a provider and a model, not a module.
  return /[./]/.test(target) && languageOf(target).language === "python";
}

/** langgraph.json's parts other than graphs that name Python (`auth.path`, `http.app`, `store.index.embed`). */
export function pythonPartsOf(project: GraphProject): { auth?: string; app?: string; embed?: string } {
  const json = project.json as {
    store?: { index?: { embed?: unknown } };
    auth?: { path?: unknown };
    http?: { app?: unknown };
  };
  const python = (spec: unknown) => (typeof spec === "string" && isPythonExport(spec) ? spec : undefined);
  return { auth: python(json.auth?.path), app: python(json.http?.app), embed: python(json.store?.index?.embed) };
}

/** The project's parts in Python beside its graphs: they need the host too. */
export function pythonExportsOf(project: GraphProject): string[] {
  return Object.values(pythonPartsOf(project)).filter((spec): spec is string => !!spec);
}

export class PythonGraphs {
  private constructor(
    readonly host: PythonHost,
    /** Why each graph that did not load failed (by graph id). */
    readonly failures: Map<string, string>,
    private readonly store: { repository?: StoreRepository },
  ) {}

  /** Makes (or reuses) the environment, starts the host and loads the graphs in it. */
  static async start(
    project: GraphProject,
    entries: GraphEntry[],
    settings: PythonSettings,
    logger: Logger,
  ): Promise<PythonGraphs> {
    const projectSettings = pythonProjectOf(project);
    const environment: PythonEnvironment = settings.interpreter
      ? { python: settings.interpreter, pythonPath: localPythonPath(projectSettings) }
      : await preparePythonEnvironment(projectSettings, {
          basePython: settings.basePython,
          environmentsDir: settings.environmentsDir,
          log: (line) => logger.info({ python: "environment" }, line),
        });
    // The store arrives after the graphs load (setStore); the host's calls find it here.
    const store: { repository?: StoreRepository } = {};
    const parts = pythonPartsOf(project);
    const host = await PythonHost.start({
      python: environment.python,
      auth: parts.auth,
      app: parts.app,
      pythonPath: environment.pythonPath,
      cwd: projectSettings.dir,
      graphs: entries.map((entry) => ({
        graph_id: entry.graphId,
        attr: entry.exportName,
        ...(entry.module ? { module: entry.module } : { file: entry.file }),
      })),
      databaseUrl: libpqUrl(settings.databaseUrl),
      poolSize: settings.poolSize,
      logLevel: settings.logLevel,
      logger: logger.child({ component: "python" }),
      onCall: async (op, args) => {
        if (op !== "store") throw new Error(`unknown call ${op}`);
        if (!store.repository) throw new Error("this deployment has no store");
        return answerStoreBatch(store.repository, args as Parameters<typeof answerStoreBatch>[1]);
      },
    });
    const failures = new Map<string, string>();
    for (const [graphId, outcome] of Object.entries(host.report.graphs))
      if ("error" in outcome) failures.set(graphId, outcome.error);
    return new PythonGraphs(host, failures, store);
  }

  setStore(repository: StoreRepository): void {
    this.store.repository = repository;
  }

  /** `store.index.embed` naming a Python function: called in the host (undefined for any other). */
  embedder(spec: string): ((texts: string[]) => Promise<number[][]>) | undefined {
    if (!isPythonExport(spec)) return undefined;
    return (texts) => this.host.call<number[][]>("embed", { spec, texts });
  }

  /** `auth.path` naming a Python `Auth`: its handlers, answered by the host (undefined for any other). */
  authHandlers(spec: string): HostedAuthHandlers | undefined {
    const described = this.host.report.auth;
    if (!isPythonExport(spec) || !described) return undefined;
    if ("error" in described) throw new ConfigError(`cannot load auth.path ${spec}: ${described.error}`);
    return hostedAuth(this.host, described);
  }

  /** `http.app` naming a Python ASGI app: the requests of its routes, answered by the host. */
  appHandler(spec: string): RequestHandler | undefined {
    const described = this.host.report.app;
    if (!isPythonExport(spec) || !described) return undefined;
    if ("error" in described) throw new ConfigError(`cannot load http.app ${spec}: ${described.error}`);
    return hostedApp(this.host, described);
  }

  graph(graphId: string, build: GraphBuild): PythonGraph {
    return new PythonGraph(this.host, graphId, build);
  }

  close(): Promise<void> {
    return this.host.close();
  }
}
