import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { GraphRegistry } from "../../src/graphs/registry";
import { Client, EXAMPLES_CONFIG, startRuntimeProcess } from "../support/harness";

const SERVICE_DIR = path.resolve(__dirname, "../..");
// Inside the repository, so graph files resolve @langchain/langgraph like a real project does.
const dir = mkdtempSync(path.join(__dirname, ".tmp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const EXAMPLES = path.dirname(EXAMPLES_CONFIG);

function project(graphs: Record<string, string>, files: Record<string, string> = {}): string {
  for (const [name, source] of Object.entries(files)) writeFileSync(path.join(dir, name), source);
  const config = path.join(dir, `langgraph-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(config, JSON.stringify({ graphs }));
  return config;
}

const builderSource = `
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";
const builder = new StateGraph(MessagesAnnotation).addNode("n", () => ({ messages: [] })).addEdge("__start__", "n");
export const uncompiled = builder;
export const compiled = builder.compile();
export const factory = () => builder;
export default builder.compile();
export const notAGraph = 42;
`;

describe("graph loading from langgraph.json", () => {
  test("a StateGraph, a compiled graph, a factory and a default export all load", async () => {
    const config = project(
      {
        uncompiled: "./graphs.ts:uncompiled",
        compiled: "./graphs.ts:compiled",
        factory: "./graphs.ts:factory",
        fallback: "./graphs.ts",
        examples: `${EXAMPLES}/src/agent.ts:graph`,
      },
      { "graphs.ts": builderSource },
    );
    const registry = await GraphRegistry.load(config, new MemorySaver());
    expect(registry.ids()).toEqual(["uncompiled", "compiled", "factory", "fallback", "examples"]);
    for (const graphId of registry.ids()) {
      const graph = await registry.get(graphId, {});
      expect(typeof graph.stream).toBe("function");
      expect(graph.checkpointer).toBeInstanceOf(MemorySaver);
    }
  });

  test.each([
    ["a missing file", { broken: "./nowhere.ts:graph" }, /graph "broken" \(.*nowhere\.ts:graph\): file not found/],
    [
      "a missing export",
      { broken: "./graphs.ts:missing" },
      /graph "broken" \(.*graphs\.ts:missing\): no export named "missing"/,
    ],
    ["an export that is no graph", { broken: "./graphs.ts:notAGraph" }, /graph "broken" .*not a graph/],
    ["a file that throws", { broken: "./throws.ts:graph" }, /graph "broken" \(.*throws\.ts:graph\): .*boom/],
  ])("%s stops a strict load with a message naming the graph and the file", async (_name, graphs, message) => {
    const config = project(graphs, {
      "graphs.ts": builderSource,
      "throws.ts": 'throw new Error("boom");\nexport const graph = 1;\n',
    });
    await expect(GraphRegistry.load(config, new MemorySaver(), { strict: true })).rejects.toThrow(message);
    // Not strict: the graph is declared, unusable, and the load goes on.
    const registry = await GraphRegistry.load(config, new MemorySaver());
    expect(registry.ids()).toEqual(["broken"]);
    expect(() => registry.assertLoaded("broken")).toThrow(/^Graph "broken" failed to load at start-up/);
  });

  test("an invalid langgraph.json is refused", async () => {
    const config = path.join(dir, "bad.json");
    writeFileSync(config, JSON.stringify({ graphs: {} }));
    await expect(GraphRegistry.load(config, new MemorySaver())).rejects.toThrow(
      /invalid graph config .*bad\.json: graphs declares no graph/,
    );
    writeFileSync(config, "{nope");
    await expect(GraphRegistry.load(config, new MemorySaver())).rejects.toThrow(/cannot read graph config/);
  });

  test("with LANGGRAPH_STRICT_GRAPHS the runtime process exits at start-up with that message", () => {
    const config = project({ agent: "./nowhere.ts:graph" });
    const result = spawnSync(path.resolve(SERVICE_DIR, "../../node_modules/.bin/tsx"), ["src/main.ts"], {
      cwd: SERVICE_DIR,
      env: {
        ...process.env,
        // Never reached: the graph config is checked before the database is touched.
        DATABASE_URL: "postgresql://postgres@127.0.0.1:1/unreachable",
        LANGGRAPH_JSON: config,
        LANGGRAPH_STRICT_GRAPHS: "true",
        LOG_LEVEL: "silent",
        PORT: "0",
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^cannot load graph "agent" \(.*nowhere\.ts:graph\): file not found$/);
  });

  test("a LANGGRAPH_CONFIG holding a path (its former meaning) stops start-up and names LANGGRAPH_JSON", () => {
    const result = spawnSync(path.resolve(SERVICE_DIR, "../../node_modules/.bin/tsx"), ["src/main.ts"], {
      cwd: SERVICE_DIR,
      env: {
        ...process.env,
        DATABASE_URL: "postgresql://postgres@127.0.0.1:1/unreachable",
        LANGGRAPH_CONFIG: EXAMPLES_CONFIG,
        LOG_LEVEL: "silent",
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^invalid LANGGRAPH_CONFIG: .*LANGGRAPH_JSON \(got ".*langgraph\.json"\)$/);
  });

  test("a runtime process loads an ES module graph with top-level await and serves despite a broken graph", async () => {
    const config = project(
      { esm: "./esm-graph.mts:graph", broken: "./throws.ts:graph" },
      {
        "esm-graph.mts": `
import { Annotation, StateGraph } from "@langchain/langgraph";
// Top-level await: require() cannot load this module, import() can.
const word = await new Promise<string>((resolve) => setTimeout(() => resolve("awaited"), 5));
const State = Annotation.Root({ out: Annotation<string> });
export const graph = (async () =>
  new StateGraph(State).addNode("say", () => ({ out: word })).addEdge("__start__", "say").compile())();
`,
        "throws.ts": 'throw new Error("boom");\nexport const graph = 1;\n',
      },
    );
    const runtime = await startRuntimeProcess("graph_loading", { LANGGRAPH_JSON: config, WORKERS: "1" });
    const { url, output } = runtime;
    try {
      const client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
      expect(await client.runs.wait(null, "esm", { input: {} })).toEqual({ out: "awaited" });
      await expect(client.runs.wait(null, "broken", { input: {} })).rejects.toThrow(/409/);
      expect(output.join("")).toMatch(/cannot load graph \\"broken\\" .*boom/);
    } finally {
      await runtime.stop();
    }
  });
});
