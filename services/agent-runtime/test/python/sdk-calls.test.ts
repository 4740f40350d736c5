// The official Python client (`langgraph-sdk`) against a live runtime: sdk_calls.py makes the
// calls a Python user makes and reports each one. Skipped, saying why, when the interpreter
// (`PYTHON`, default python3) cannot import langgraph_sdk (.ci/run installs it when it can).
import { execFile, spawnSync } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { startTestRuntime, type RunningRuntime } from "../support/harness";

const PYTHON = process.env.PYTHON ?? "python3";
const probe = spawnSync(PYTHON, ["-c", "import langgraph_sdk"], { encoding: "utf8" });
const hasSdk = probe.status === 0;
if (!hasSdk) {
  const why = probe.error ? String(probe.error) : probe.stderr.trim().split("\n").at(-1);
  console.warn(
    `Python SDK test skipped: ${PYTHON} cannot import langgraph_sdk (${why}); pip install langgraph-sdk==0.4.5`,
  );
}

(hasSdk ? describe : describe.skip)("the official Python client", () => {
  let runtime: RunningRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime();
  });

  afterAll(async () => {
    await runtime?.close();
  });

  test("its calls succeed: assistants, subgraphs, supersteps, streamed, waited and joined runs, thread stream", async () => {
    const script = path.join(__dirname, "sdk_calls.py");
    const { stdout } = await promisify(execFile)(PYTHON, [script, runtime.url], { timeout: 50_000 });
    const results = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, string>;
    const failed = Object.fromEntries(Object.entries(results).filter(([, outcome]) => outcome !== "ok"));
    expect(failed).toEqual({});
    expect(Object.keys(results)).toHaveLength(7);
  });
});
