// Loading langgraph.json as the official server does: every export form, `env`, getLogger(), a
// graph that fails to load, keys the runtime does not implement.
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { MemorySaver } from "@langchain/langgraph";
import { GraphConfigError } from "../../src/graphs/config";
import { registerSdkLogger } from "../../src/graphs/sdk-logger";
import { GraphRegistry, GraphUnavailableError } from "../../src/graphs/registry";
import { loadAgentRuntimeConfig } from "../../src/config";

const FIXTURES = path.join(__dirname, "fixtures/forms");
const FORMS = path.join(FIXTURES, "langgraph.json");

/** A pino logger whose lines land in `lines`. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines };
}

async function out(
  registry: GraphRegistry,
  graphId: string,
  ...args: Parameters<GraphRegistry["get"]> extends [string, ...infer R] ? R : never
) {
  const graph = await registry.get(graphId, ...args);
  const result = await graph.invoke({}, { configurable: { thread_id: crypto.randomUUID() } });
  return result.out as string;
}

describe("langgraph.json loading (official forms)", () => {
  let registry: GraphRegistry;
  const captured = capturingLogger();

  beforeAll(async () => {
    process.env.LGP_TEST_FORMS_B = "from the environment";
    registry = await GraphRegistry.load(FORMS, new MemorySaver(), { logger: captured.logger });
  });
  afterAll(() => {
    delete process.env.LGP_TEST_FORMS_A;
    delete process.env.LGP_TEST_FORMS_B;
  });

  test("a Promise of a compiled graph and a Promise of a StateGraph", async () => {
    expect(await out(registry, "promised")).toBe("promised");
    expect(await out(registry, "promised_builder")).toBe("builder");
  });

  test("an async factory is called with the config each time", async () => {
    expect(await out(registry, "async_factory", { configurable: { label: "one" } })).toBe("label=one");
    expect(await out(registry, "async_factory", { configurable: { label: "two" } })).toBe("label=two");
  });

  test("a factory gets the runtime: why the graph is built and, for a run, its context", async () => {
    expect(
      await out(
        registry,
        "runtime_factory",
        { configurable: { label: "x" } },
        { access: "threads.create_run", context: { who: "ctx" } },
      ),
    ).toBe("threads.create_run who=ctx label=x");
    expect(await out(registry, "runtime_factory", {}, { access: "threads.update" })).toBe(
      "threads.update who=undefined label=undefined",
    );
  });

  test("env (an object) is set before graphs load; a variable already set keeps its value", async () => {
    expect(await out(registry, "from_env")).toBe("from json|from the environment");
  });

  test("getLogger() of the SDK writes to the runtime's logger", async () => {
    expect(await out(registry, "logging")).toBe("logged");
    expect(captured.lines).toContainEqual(
      expect.objectContaining({ msg: "hello from a graph", answer: 42, component: "graph", level: 30 }),
    );
  });

  test("a logger a graph module took at import writes to the logger registered last", async () => {
    // Start-up checks load the graphs with a quiet logger before the runtime's own exists.
    const later = capturingLogger();
    registerSdkLogger(later.logger);
    try {
      expect(await out(registry, "logging")).toBe("logged");
      expect(later.lines).toContainEqual(
        expect.objectContaining({ msg: "hello from the module's logger", component: "graph" }),
      );
    } finally {
      registerSdkLogger(captured.logger);
    }
  });

  test("a graph that fails to load is logged with its id, file and cause; the others serve", () => {
    const errors = captured.lines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ graph_id: "broken", file: path.join(FIXTURES, "broken.ts") });
    expect(errors[0].msg).toMatch(/cannot load graph "broken" \(.*broken\.ts:graph\): boom while importing/);
    expect(errors[1].msg).toMatch(/cannot load graph "no_export" .*no export named "nothing"/);
    expect(registry.ids()).toContain("broken");
    expect(registry.failureOf("broken")).toBe("boom while importing");
    expect(registry.failureOf("promised")).toBeUndefined();
    let thrown: unknown;
    try {
      registry.assertLoaded("broken");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GraphUnavailableError);
    expect(thrown).toMatchObject({ status: 409 });
    expect((thrown as Error).message).toMatch(
      /^Graph "broken" failed to load at start-up \(.*broken\.ts:graph\): boom/,
    );
    return expect(registry.get("broken")).rejects.toBeInstanceOf(GraphUnavailableError);
  });

  test("keys the runtime does not implement are named in one warning", () => {
    const warnings = captured.lines.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    // `ui` (generative UI), `http.app` (custom routes), `store.index` (semantic search) and
    // `checkpointer.ttl` are served: no longer among them.
    expect(warnings[0].keys).toEqual(["http.mount_prefix"]);
    expect(warnings[0].msg).toMatch(/: http\.mount_prefix$/);
  });

  test("LANGGRAPH_STRICT_GRAPHS: a graph that fails to load stops the load", async () => {
    await expect(GraphRegistry.load(FORMS, new MemorySaver(), { strict: true })).rejects.toThrow(
      new GraphConfigError(
        `cannot load graph "broken" (${path.join(FIXTURES, "broken.ts")}:graph): boom while importing`,
      ),
    );
  });
});

describe("langgraph.json env as a dotenv file", () => {
  afterAll(() => {
    delete process.env.LGP_TEST_FILE_A;
    delete process.env.LGP_TEST_FILE_B;
  });

  test("is read relative to the json, without overriding the environment", async () => {
    process.env.LGP_TEST_FILE_B = "kept";
    await GraphRegistry.load(path.join(FIXTURES, "env-file.json"), new MemorySaver());
    expect(process.env.LGP_TEST_FILE_A).toBe("from the file");
    expect(process.env.LGP_TEST_FILE_B).toBe("kept");
  });

  test("a missing one is a warning, as on the official server", async () => {
    const captured = capturingLogger();
    const registry = await GraphRegistry.load(path.join(FIXTURES, "missing-env-file.json"), new MemorySaver(), {
      logger: captured.logger,
    });
    expect(registry.ids()).toEqual(["promised"]);
    expect(captured.lines).toContainEqual(
      expect.objectContaining({ level: 40, file: path.join(FIXTURES, "nowhere.env") }),
    );
  });
});

describe("LANGGRAPH_CONFIG", () => {
  test("is the official per-graph defaults object", () => {
    const config = loadAgentRuntimeConfig({
      DATABASE_URL: "postgresql://postgres@127.0.0.1/x",
      LANGGRAPH_CONFIG: '{"agent": {"configurable": {"model_name": "openai"}, "context": {"model": "x"}}}',
    });
    expect(config.LANGGRAPH_CONFIG).toEqual({
      agent: { configurable: { model_name: "openai" }, context: { model: "x" } },
    });
  });

  test.each(["/app/examples/langgraph.json", "[1]", '{"agent": 1}'])(
    "a value that is not such an object (%s) stops start-up and names LANGGRAPH_JSON",
    (value) => {
      expect(() =>
        loadAgentRuntimeConfig({ DATABASE_URL: "postgresql://postgres@127.0.0.1/x", LANGGRAPH_CONFIG: value }),
      ).toThrow(/^invalid LANGGRAPH_CONFIG: must be a JSON object of per-graph defaults.*set with LANGGRAPH_JSON/);
    },
  );
});
