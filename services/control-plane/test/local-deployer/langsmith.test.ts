// LangSmith tracing of a deployment's runs, as on the hosted platform: a deployment whose secrets
// turn tracing on (LANGSMITH_TRACING, LANGSMITH_API_KEY, LANGSMITH_ENDPOINT for a self-hosted
// LangSmith) traces its runs into a project named after it, unless LANGSMITH_PROJECT names another;
// each run's root trace carries its assistant, thread, run and graph ids. The official client in
// the deployed runtime sends them to a recording LangSmith stand-in; two example deployments, the
// second with the legacy LANGCHAIN_* spellings and a project of its own. Then the env builder
// alone, as both deployers use it.
import { Client as LangGraphClient, startLangSmithRecorder, type LangSmithRecorder } from "@lgp/server-kit/src/testing";
import { deploymentEnv } from "../../src/deployers/runtime-env";
import { startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";
import { exampleRepo } from "./example-repo";

let h: ReconcilerHarness;
let repo: string;
let recorder: LangSmithRecorder;

beforeAll(async () => {
  [h, recorder] = await Promise.all([
    startReconcilerHarness({ timeoutSeconds: 120, sweepSeconds: 5 }),
    startLangSmithRecorder(),
  ]);
  ({ repo } = exampleRepo(h.workDir));
});
afterAll(async () => {
  await h?.close();
  await recorder?.close();
});

async function deploy(name: string, secrets: { name: string; value: string }[]) {
  const created = await h.api.post("/v2/deployments").send({
    name,
    source: "internal_source",
    source_config: { repo_url: `file://${repo}` },
    source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
    secrets,
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const revision = created.body.latest_revision_id as string;
  const deployed = await h.waitForRevision(id, revision, ["DEPLOYED", "BUILD_FAILED", "DEPLOY_FAILED"], 150_000);
  expect(deployed.status).toBe("DEPLOYED");
  return { id, revision, url: deployed.url as string, key: created.body.api_key as string };
}

it("traces a deployment's runs into a project named after it, with the run's ids; LANGSMITH_PROJECT wins", async () => {
  const keys = ["lsv2_pt_fake-key-of-the-named-one", "lsv2_pt_fake-key-of-the-explicit-one"];
  const [named, explicit] = await Promise.all([
    deploy("traced-agent", [
      { name: "LANGSMITH_TRACING", value: "true" },
      { name: "LANGSMITH_API_KEY", value: keys[0]! },
      { name: "LANGSMITH_ENDPOINT", value: recorder.url },
    ]),
    deploy("traced-elsewhere", [
      { name: "LANGCHAIN_TRACING_V2", value: "true" },
      { name: "LANGCHAIN_API_KEY", value: keys[1]! },
      { name: "LANGCHAIN_ENDPOINT", value: recorder.url },
      { name: "LANGSMITH_PROJECT", value: "chosen-project" },
    ]),
  ]);

  for (const [deployment, project, key] of [
    [named, "traced-agent", keys[0]!],
    [explicit, "chosen-project", keys[1]!],
  ] as const) {
    const client = new LangGraphClient({ apiUrl: deployment.url, apiKey: deployment.key });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "agent", {
      input: { messages: [{ role: "user", content: "hi" }] },
    });
    await client.runs.join(thread.thread_id, run.run_id);
    // The run's root trace has the run's id, in the deployment's project, with the run's ids.
    const root = await recorder.waitForRun((item) => item.id === run.run_id);
    expect(root.session_name).toBe(project);
    expect(root.parent_run_id ?? null).toBeNull();
    expect(root.extra?.metadata).toMatchObject({
      assistant_id: run.assistant_id,
      thread_id: thread.thread_id,
      run_id: run.run_id,
      graph_id: "agent",
    });
    expect(JSON.stringify(root.outputs)).toContain("echo: hi");
    // Its node's run is in the same trace and project, with the same ids.
    const node = await recorder.waitForRun((item) => item.trace_id === run.run_id && item.name === "agent");
    expect(node).toMatchObject({ session_name: project });
    expect(node.extra?.metadata).toMatchObject({ thread_id: thread.thread_id, run_id: run.run_id });
    // The key went as the key header, and nowhere else: not in a trace, not in the deploy log.
    const sent = recorder.requests.filter((request) => request.headers["x-api-key"] === key);
    expect(sent.some((request) => request.path.endsWith("/runs/multipart"))).toBe(true);
    const logs = await h.api.get(`/v2/deployments/${deployment.id}/revisions/${deployment.revision}/logs/deploy`);
    expect(logs.status).toBe(200);
    expect(JSON.stringify(logs.body)).not.toContain(key);
  }
  for (const request of recorder.requests) for (const key of keys) expect(request.body).not.toContain(key);
}, 240_000);

it("names the tracing project after the deployment only when its secrets turn tracing on and name none", () => {
  const env = (...secrets: [string, string][]) =>
    deploymentEnv({ name: "my-agent", secrets: secrets.map(([name, value]) => ({ name, value })) });
  expect(env(["LANGSMITH_TRACING", "true"], ["LANGSMITH_API_KEY", "k"])).toEqual({
    LANGSMITH_TRACING: "true",
    LANGSMITH_API_KEY: "k",
    LANGSMITH_PROJECT: "my-agent",
  });
  expect(env(["LANGCHAIN_TRACING_V2", "True"]).LANGSMITH_PROJECT).toBe("my-agent");
  expect(env(["LANGSMITH_TRACING_V2", "true"]).LANGSMITH_PROJECT).toBe("my-agent");
  expect(env(["LANGCHAIN_TRACING", "true"]).LANGSMITH_PROJECT).toBe("my-agent");
  // A project named in any spelling is kept as it is.
  expect(env(["LANGSMITH_TRACING", "true"], ["LANGSMITH_PROJECT", "mine"]).LANGSMITH_PROJECT).toBe("mine");
  expect(env(["LANGSMITH_TRACING", "true"], ["LANGCHAIN_PROJECT", "mine"])).toEqual({
    LANGSMITH_TRACING: "true",
    LANGCHAIN_PROJECT: "mine",
  });
  expect(env(["LANGSMITH_TRACING", "true"], ["LANGCHAIN_SESSION", "mine"]).LANGSMITH_PROJECT).toBeUndefined();
  // An empty project is none (the clients skip it): the deployment's name.
  expect(env(["LANGSMITH_TRACING", "true"], ["LANGSMITH_PROJECT", ""]).LANGSMITH_PROJECT).toBe("my-agent");
  // Tracing off, or not asked for: nothing added.
  expect(env(["LANGSMITH_TRACING", "false"], ["LANGSMITH_API_KEY", "k"])).toEqual({
    LANGSMITH_TRACING: "false",
    LANGSMITH_API_KEY: "k",
  });
  expect(env(["LANGSMITH_API_KEY", "k"])).toEqual({ LANGSMITH_API_KEY: "k" });
  expect(env()).toEqual({});
});
