// The official Python CLI (`langgraph deploy --remote`, langgraph-cli from the tests' Python
// environment) deploys the Python example project (examples/python) to this control plane: the
// local deployer builds the revision's Python environment (pip's output in its build log), the
// revision reaches DEPLOYED, and its runtime answers a run of a Python graph.
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";

let h: ReconcilerHarness;
let project: string;

beforeAll(async () => {
  h = await startReconcilerHarness({ timeoutSeconds: 300, sweepSeconds: 1 });
  project = mkdtempSync(path.join(h.workDir, "project-"));
  cpSync(path.join(REPO_ROOT, "examples/python"), project, {
    recursive: true,
    filter: (source) => !/__pycache__|\.egg-info/.test(source),
  });
}, 60_000);
afterAll(async () => {
  rmSync(project, { recursive: true, force: true });
  await h?.close();
});

/** The interpreter of the tests' Python clients (made by the runtime's test support, as CI makes it). */
function clientsPython(): string {
  const output = execFileSync(
    process.execPath,
    ["--import", "tsx", path.join(REPO_ROOT, "services/agent-runtime/test/support/python.ts"), "--clients"],
    { cwd: REPO_ROOT, encoding: "utf8", timeout: 300_000 },
  );
  return output.trim().split("\n").at(-1)!;
}

test("langgraph deploy --remote deploys a Python project: DEPLOYED, and a Python graph answers", async () => {
  const python = clientsPython();
  // Made first (its runtime key is answered once, to this test), then found by name by the CLI,
  // which uploads the project and starts its revision.
  const created = await h.api.post("/v2/deployments").send({
    name: "python-example",
    source: "internal_source",
    source_config: { deployment_type: "dev_zero" },
    source_revision_config: {},
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const key = created.body.api_key as string;
  const { stdout, stderr } = await promisify(execFile)(
    python,
    ["-m", "langgraph_cli", "deploy", "--remote", "--name", "python-example", "--config", "langgraph.json"],
    {
      cwd: project,
      env: {
        ...process.env,
        LANGGRAPH_HOST_URL: h.url,
        LANGGRAPH_HOST_API_KEY: h.apiKey,
        LANGSMITH_API_KEY: "",
        NO_COLOR: "1",
      },
      timeout: 400_000,
      maxBuffer: 32 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`langgraph deploy failed:\n${error.stdout ?? ""}\n${error.stderr ?? error.message}`);
  });
  expect(`${stdout}\n${stderr}`).toMatch(/Deployment successful/);
  const deployment = (await h.api.get(`/v2/deployments/${id}`)).body as { latest_revision_id: string };
  const revision = await h.waitForRevision(id, deployment.latest_revision_id, ["DEPLOYED"], 60_000);
  expect(revision.status).toBe("DEPLOYED");
  // The revision's Python environment was made with pip, in its build log.
  const build = await h.api
    .post(`/v1/projects/${id}/revisions/${deployment.latest_revision_id}/build_logs`)
    .send({ limit: 500, order: "asc" });
  const lines = (build.body.logs as { message: string }[]).map((line) => line.message);
  expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^pip: Successfully installed /)]));
  // Its runtime answers a run of the Python echo agent.
  const response = await fetch(`${revision.url}/runs/wait`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ assistant_id: "agent", input: { messages: [{ role: "user", content: "from python" }] } }),
  });
  expect(response.status).toBe(200);
  const values = (await response.json()) as { messages: { type: string; content: string }[] };
  expect(values.messages.at(-1)).toMatchObject({ type: "ai", content: "echo: from python" });
}, 600_000);
