import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DeployerError } from "../deployer";

/**
 * Checks that a revision's langgraph.json loads before anything is started: it parses, names at
 * least one graph, and every graph's file exists inside the checkout. Answers its absolute path.
 */
/** `agents.steps` of `agents.steps:make_graph`: a Python module path (no folder, no file extension). */
const MODULE_PATH = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/;
const JS_EXTENSION = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/**
 * Checks a source's langgraph.json: it parses, names graphs, and each graph's file is in the
 * source (a Python module path is checked when its environment is made). Says whether the project
 * has Python graphs (which need a Python environment).
 */
export function verifyGraphConfig(
  rootDir: string,
  configPath: string,
): { path: string; graphs: string[]; python: boolean } {
  const root = path.resolve(rootDir);
  const file = path.resolve(root, configPath);
  if (file !== root && !file.startsWith(root + path.sep)) {
    throw new DeployerError(`langgraph_config_path ${configPath} points outside the source`);
  }
  if (!existsSync(file)) throw new DeployerError(`langgraph_config_path ${configPath} does not exist in the source`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new DeployerError(`${configPath} is not valid JSON: ${(error as Error).message}`);
  }
  const graphs = (parsed as { graphs?: unknown })?.graphs;
  if (!graphs || typeof graphs !== "object" || Array.isArray(graphs) || !Object.keys(graphs).length) {
    throw new DeployerError(`${configPath} names no graphs (expected "graphs": {"<id>": "./file.ts:export"})`);
  }
  let python = false;
  for (const [id, spec] of Object.entries(graphs as Record<string, unknown>)) {
    const location = typeof spec === "string" ? spec : (spec as { path?: unknown })?.path;
    if (typeof location !== "string" || !location.includes(":")) {
      throw new DeployerError(`graph ${id} in ${configPath} must be "<file>:<export>"`);
    }
    const target = location.slice(0, location.lastIndexOf(":"));
    if (target.endsWith(".py") || (MODULE_PATH.test(target) && !JS_EXTENSION.test(target))) python = true;
    if (MODULE_PATH.test(target) && !JS_EXTENSION.test(target)) continue;
    const graphFile = path.resolve(path.dirname(file), target);
    if (!existsSync(graphFile)) throw new DeployerError(`graph ${id}: ${location} does not exist`);
  }
  return { path: file, graphs: Object.keys(graphs), python };
}
