// The official Python client (`langgraph-sdk`, from the test clients' environment: see
// test/support/python.ts) against a live runtime serving the JS examples, then one serving their
// Python twins: sdk_calls.py makes the calls a Python user makes and reports each one.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { graphsOf, startTestRuntime, type GraphLanguage, type RunningRuntime } from "../support/harness";
import { testClientsEnvironment } from "../support/python";

describe.each<GraphLanguage>(["js", "python"])("the official Python client (%s graphs)", (language) => {
  let runtime: RunningRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime({ env: graphsOf(language) });
  });

  afterAll(async () => {
    await runtime?.close();
  });

  test("its calls succeed: assistants, subgraphs, supersteps, streamed, waited and joined runs, thread stream", async () => {
    const { python } = await testClientsEnvironment();
    const script = path.join(__dirname, "sdk_calls.py");
    const { stdout } = await promisify(execFile)(python, [script, runtime.url], { timeout: 50_000 });
    const results = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, string>;
    const failed = Object.fromEntries(Object.entries(results).filter(([, outcome]) => outcome !== "ok"));
    expect(failed).toEqual({});
    expect(Object.keys(results)).toHaveLength(7);
  });
});
