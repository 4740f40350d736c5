// langgraph.json: the graphs a deployment serves, and the `env` its graphs see.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { z } from "zod";
import { ConfigError } from "@lgp/server-kit";

/** Start-up failure in the graph configuration: the message names the graph and the file. */
export class GraphConfigError extends ConfigError {
  override name = "GraphConfigError";
}

const graphSpec = z.union([
  z.string().min(1),
  z.object({ path: z.string().min(1), description: z.string().optional() }).loose(),
]);

// Open schema: keys other capabilities read (e.g. `http.cors`) may be declared beside these.
const langgraphJson = z
  .object({
    graphs: z
      .record(z.string().min(1), graphSpec)
      .refine((graphs) => Object.keys(graphs).length > 0, "declares no graph"),
    env: z.union([z.string(), z.record(z.string(), z.string()), z.array(z.string())]).optional(),
  })
  .loose();

export type LanggraphJson = z.infer<typeof langgraphJson>;

export interface GraphEntry {
  graphId: string;
  /** Absolute path of the module (a Python graph given as a module path: that module's name). */
  file: string;
  exportName: string;
  description?: string;
  /** A `.py` file or a dotted module path is a Python graph, run by the Python graph host. */
  language: "js" | "python";
  /** A Python graph given as `package.module:attr`. */
  module?: string;
}

/** `agents.steps` in `agents.steps:make_graph`: a Python module path (no folder, no file extension). */
const PYTHON_MODULE = /^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/;
const JS_EXTENSIONS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Whether a path (a graph's, `auth.path`, `http.app`, `store.index.embed`) names Python, and which module when it is a module path. */
export function languageOf(file: string): { language: "js" | "python"; module?: string } {
  if (file.endsWith(".py")) return { language: "python" };
  if (PYTHON_MODULE.test(file) && !JS_EXTENSIONS.test(file)) return { language: "python", module: file };
  return { language: "js" };
}

/**
 * Keys of the official langgraph.json the runtime honours, or that only matter when an image is
 * built (so a runtime has nothing to do with them). Any other key is named in a start-up warning.
 */
const HANDLED_KEYS = new Set([
  "graphs",
  "env",
  "http.cors",
  "store.index",
  "store.ttl",
  "checkpointer.ttl",
  "http.app",
  "http.disable_assistants",
  "http.disable_threads",
  "http.disable_runs",
  "http.disable_store",
  "http.disable_meta",
  "http.disable_ui",
  "http.configurable_headers",
  "http.enable_custom_route_auth",
  "http.disable_mcp",
  "http.disable_a2a",
  "auth.path",
  "auth.disable_studio_auth",
  "ui",
  "ui_config",
  // Build-time keys (the CLI's image build), meaningless to a running server.
  "node_version",
  "python_version",
  "dependencies",
  "dockerfile_lines",
  "docker_compose_file",
  "pip_config_file",
  "pip_installer",
  "base_image",
  "image_distro",
  "api_version",
  "keep_pkg_tools",
  "node_loader",
  "_INTERNAL_docker_tag",
  "$schema",
]);
/** Objects whose keys are checked one by one (a runtime may honour some of them and not others). */
const SECTIONS = new Set(["http", "store", "checkpointer", "auth", "webhooks"]);

export interface GraphProject {
  /** Absolute path of langgraph.json. */
  configPath: string;
  json: LanggraphJson;
  entries: GraphEntry[];
  /** Keys of langgraph.json the runtime does not implement (e.g. `ui`, `http.app`). */
  unsupported: string[];
}

function unsupportedKeys(json: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (value === undefined || value === null) continue;
    // The list form (secrets of the hosted platform) is not one the runtime can resolve.
    if (key === "env" && Array.isArray(value) && value.length) keys.push("env (list form)");
    if (HANDLED_KEYS.has(key)) continue;
    if (SECTIONS.has(key) && typeof value === "object" && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value as object)) {
        // `false` flags (`disable_*`) ask for nothing the runtime lacks.
        if (
          !HANDLED_KEYS.has(`${key}.${inner}`) &&
          innerValue !== undefined &&
          innerValue !== null &&
          innerValue !== false
        )
          keys.push(`${key}.${inner}`);
      }
    } else keys.push(key);
  }
  return keys;
}

/** Reads langgraph.json: `{"graphs": {"agent": "./src/agent.ts:graph"}, "env": ".env"}`. */
export function readGraphProject(configPath: string): GraphProject {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, "utf8"));
  } catch (error) {
    throw new GraphConfigError(`cannot read graph config ${configPath}: ${(error as Error).message}`);
  }
  const parsed = langgraphJson.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GraphConfigError(
      `invalid graph config ${configPath}: ${issue.path.join(".") || "(root)"} ${issue.message}`,
    );
  }
  const baseDir = path.dirname(path.resolve(configPath));
  const entries = Object.entries(parsed.data.graphs).map(([graphId, spec]) => {
    const target = typeof spec === "string" ? spec : spec.path;
    const separator = target.lastIndexOf(":");
    const file = separator > 0 ? target.slice(0, separator) : target;
    const exportName = separator > 0 ? target.slice(separator + 1) : "default";
    const { language, module } = languageOf(file);
    return {
      graphId,
      file: module ?? path.resolve(baseDir, file),
      exportName: exportName || (language === "python" ? "graph" : "default"),
      description: typeof spec === "string" ? undefined : spec.description,
      language,
      ...(module ? { module } : {}),
    };
  });
  return {
    configPath: path.resolve(configPath),
    json: parsed.data,
    entries,
    unsupported: unsupportedKeys(parsed.data as Record<string, unknown>),
  };
}

/** Kept for callers that only need the graphs. */
export function readGraphConfig(configPath: string): GraphEntry[] {
  return readGraphProject(configPath).entries;
}

export interface ProjectEnv {
  /** The variables langgraph.json's `env` declares (its object, or its dotenv file's content). */
  values: Record<string, string>;
  /** The dotenv file `env` names, when it names one. */
  file?: string;
  /** Why the dotenv file could not be read (the official server goes on without it). */
  fileError?: string;
}

/** The variables of langgraph.json's `env`: an object, or a dotenv file relative to the json. */
export function readProjectEnv(project: GraphProject): ProjectEnv {
  const env = project.json.env;
  if (env === undefined || Array.isArray(env)) return { values: {} };
  if (typeof env !== "string") return { values: { ...env } };
  const file = path.resolve(path.dirname(project.configPath), env);
  if (!existsSync(file)) return { values: {}, file, fileError: "file not found" };
  try {
    const parsed = parseEnv(readFileSync(file, "utf8"));
    return {
      values: Object.fromEntries(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      ),
      file,
    };
  } catch (error) {
    return { values: {}, file, fileError: (error as Error).message };
  }
}

/**
 * Sets the project's `env` in `target` (the process environment by default), as the official
 * server does: a variable already set in the environment keeps its value. Returns what it read.
 */
export function applyProjectEnv(project: GraphProject, target: NodeJS.ProcessEnv = process.env): ProjectEnv {
  const env = readProjectEnv(project);
  for (const [key, value] of Object.entries(env.values)) if (target[key] === undefined) target[key] = value;
  return env;
}

/** Default config (and `context`) of each graph's default assistant, keyed by graph id. */
export type GraphDefaults = Record<string, Record<string, unknown>>;

/** LANGGRAPH_CONFIG's value as defaults, or why it is not (its former meaning was a file path). */
export function parseGraphDefaults(value: string): GraphDefaults | string {
  const hint =
    'must be a JSON object of per-graph defaults, e.g. {"agent": {"configurable": {"model": "x"}}}; ' +
    "the path of langgraph.json is set with LANGGRAPH_JSON";
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return hint;
  }
  const isObject = (item: unknown) => typeof item === "object" && item !== null && !Array.isArray(item);
  if (!isObject(parsed) || !Object.values(parsed as object).every(isObject)) return hint;
  return parsed as GraphDefaults;
}
