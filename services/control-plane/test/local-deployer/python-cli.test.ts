// The official Python CLI (`langgraph deploy --remote`, langgraph-cli from the tests' Python
// environment) deploys the Python example project (examples/python) to this control plane: the
// local deployer builds the revision's Python environment (pip's output in its build log), the
// revision reaches DEPLOYED, and its runtime answers a run of a Python graph. Then the CLI's
// `langgraph deploy logs` reads what that graph logged during its runs (the runtime's own output,
// collected into the deploy log): all of it, `--level ERROR`, and `--follow`.
import { execFile, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";
import { clientsPython, officialCliEnv } from "../support/official-cli";

let h: ReconcilerHarness;
let project: string;
let python: string;
/** The deployment the first test makes: its id, its runtime's key and URL. */
let deployed: { id: string; key: string; url: string } | undefined;

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

const cliEnv = () => officialCliEnv(h.url, h.apiKey);

async function cli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(python, ["-m", "langgraph_cli", ...args], {
    cwd: project,
    env: cliEnv(),
    timeout: 60_000,
  });
  return stdout;
}

/** A run of the Python tools agent on the deployed runtime: its tool logs what it counted. */
async function countWords(text: string): Promise<void> {
  const response = await fetch(`${deployed!.url}/runs/wait`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": deployed!.key },
    body: JSON.stringify({ assistant_id: "tools", input: { messages: [{ role: "user", content: text }] } }),
  });
  expect(response.status).toBe(200);
}

/** Waits until the deployment's deploy log holds a line matching `pattern` (lines are stored in batches). */
async function untilLogged(pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const page = await h.api.post(`/v1/projects/${deployed!.id}/deploy_logs`).send({ query: "word_count", limit: 100 });
    if ((page.body.logs as { message: string }[]).some((line) => pattern.test(line.message))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no deploy log line matched ${pattern}`);
}

test("langgraph deploy --remote deploys a Python project: DEPLOYED, and a Python graph answers", async () => {
  python = clientsPython();
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
      env: cliEnv(),
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
  deployed = { id, key, url: String(revision.url) };
}, 600_000);

test("langgraph deploy logs shows what a graph logged during its runs: every level, --level ERROR, --follow", async () => {
  expect(deployed).toBeDefined();
  await countWords("three little words");
  await countWords("   ");
  await untilLogged(/word_count was given no words/);
  await untilLogged(/word_count counted 3 words/);

  // The graph's INFO and ERROR lines, each under its level, as the CLI prints them.
  const all = await cli("deploy", "logs", "--name", "python-example", "--limit", "500");
  expect(all).toMatch(/\[INFO\] word_count counted 3 words/);
  expect(all).toMatch(/\[ERROR\] word_count was given no words to count/);
  // The runtime's own lines are read into their level and message, not shown as raw JSON.
  expect(all).not.toMatch(/\] \{"level":/);

  const errors = await cli("deploy", "logs", "--name", "python-example", "--level", "ERROR", "--query", "word_count");
  expect(errors).toMatch(/\[ERROR\] word_count was given no words to count/);
  expect(errors).not.toMatch(/counted 3 words/);

  // --follow prints what is there, then each new line once as it arrives.
  const follow = spawn(
    python,
    ["-m", "langgraph_cli", "deploy", "logs", "--name", "python-example", "--query", "word_count", "--follow"],
    { cwd: project, env: cliEnv() },
  );
  let output = "";
  follow.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  follow.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    const until = async (pattern: RegExp) => {
      const deadline = Date.now() + 30_000;
      while (!pattern.test(output)) {
        if (Date.now() > deadline)
          throw new Error(`langgraph deploy logs --follow never printed ${pattern}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await until(/counted 3 words/);
    await countWords("one two three four five");
    await until(/counted 5 words/);
    // Two more of the CLI's polls (every 2 s) print nothing again.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(output.match(/counted 5 words/g)).toHaveLength(1);
    expect(output.match(/counted 3 words/g)).toHaveLength(1);
  } finally {
    follow.kill("SIGINT");
  }
}, 120_000);

test("the rest of langgraph deploy: list (its empty filter too), revisions list, listeners list, delete", async () => {
  if (!deployed) throw new Error("the deploy test did not deploy");
  // `deploy list` sends name_contains empty when given no filter.
  const listed = await cli("deploy", "list");
  expect(listed).toContain(deployed.id);
  expect(listed).toContain("python-example");
  expect(await cli("deploy", "list", "--name-contains", "python")).toContain(deployed.id);
  expect(await cli("deploy", "list", "--name-contains", "no-such-deployment")).not.toContain(deployed.id);

  const revisions = await cli("deploy", "revisions", "list", deployed.id);
  const { resources } = (await h.api.get(`/v2/deployments/${deployed.id}/revisions`)).body as {
    resources: { id: string }[];
  };
  for (const revision of resources) expect(revisions).toContain(revision.id);
  expect(revisions).toContain("DEPLOYED");

  // This tenant has no listeners (they name where the kubernetes deployer may place deployments): none listed.
  expect(await cli("deploy", "listeners", "list")).toMatch(/No listeners found/);

  await cli("deploy", "delete", deployed.id, "--force");
  const deadline = Date.now() + 60_000;
  let status = 200;
  while (status !== 404 && Date.now() < deadline) {
    status = (await h.api.get(`/v2/deployments/${deployed.id}`)).status;
    if (status !== 404) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(status).toBe(404);
}, 120_000);
