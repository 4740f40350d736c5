// LangSmith tracing of a Python graph's runs: with the environment a deployment's runtime gets when
// its secrets turn tracing on (what the control plane computes: LANGSMITH_TRACING, LANGSMITH_API_KEY,
// LANGSMITH_ENDPOINT, and LANGSMITH_PROJECT named after the deployment), the official Python
// client in the graph host sends the run's trace to that endpoint: into that project, its root
// with the run's id, and the run's assistant, thread, run and graph ids as metadata. (JS graphs:
// services/control-plane/test/local-deployer/langsmith.test.ts, through a deployment.)
import { startLangSmithRecorder, type LangSmithRecorder } from "@lgp/server-kit/src/testing";
import { graphsOf, startTestRuntime } from "../support/harness";

const TRACING_ENV = {
  LANGSMITH_TRACING: "true",
  LANGSMITH_API_KEY: "lsv2_pt_fake-key-of-the-python-runtime",
  LANGSMITH_PROJECT: "python-deployment",
};

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let recorder: LangSmithRecorder;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  recorder = await startLangSmithRecorder();
  // The graph host inherits the runtime's environment, as a deployed runtime's does.
  for (const [name, value] of Object.entries({ ...TRACING_ENV, LANGSMITH_ENDPOINT: recorder.url })) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  rt = await startTestRuntime({ env: graphsOf("python") });
}, 180_000);
afterAll(async () => {
  await rt?.close();
  await recorder?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

test("a Python graph's run traces into the deployment's project, with the run's ids", async () => {
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "agent", {
    input: { messages: [{ role: "user", content: "hi" }] },
  });
  await rt.client.runs.join(thread.thread_id, run.run_id);
  const root = await recorder.waitForRun((item) => item.id === run.run_id);
  expect(root.session_name).toBe("python-deployment");
  expect(root.parent_run_id ?? null).toBeNull();
  expect(root.extra?.metadata).toMatchObject({
    assistant_id: run.assistant_id,
    thread_id: thread.thread_id,
    run_id: run.run_id,
    graph_id: "agent",
  });
  expect(JSON.stringify(root.outputs)).toContain("echo: hi");
  const node = await recorder.waitForRun((item) => item.trace_id === run.run_id && item.name === "agent");
  expect(node.session_name).toBe("python-deployment");
  expect(node.extra?.metadata).toMatchObject({ thread_id: thread.thread_id, run_id: run.run_id });
  // The key went as the key header only.
  expect(recorder.requests.some((request) => request.headers["x-api-key"] === TRACING_ENV.LANGSMITH_API_KEY)).toBe(
    true,
  );
  for (const request of recorder.requests) expect(request.body).not.toContain(TRACING_ENV.LANGSMITH_API_KEY);
});
