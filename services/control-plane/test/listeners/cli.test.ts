// The official Python CLI (langgraph-cli from the tests' Python environment) against this control
// plane's listeners: `langgraph deploy listeners list` (table and --json, across its pages), and
// `langgraph deploy --image-uri ... --listener-id ... --k8s-namespace ...`, which reads the listener
// and places the deployment it creates on it.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createTenantKey } from "../../src/tenants/api-keys";
import { startHarness, type Harness } from "../deployments/harness";
import { clientsPython, officialCliEnv } from "../support/official-cli";

// No reconciler runs: the CLI is only asked what does not wait for a deployment to run.
let h: Harness;
let python: string;
let project: string;
beforeAll(async () => {
  h = await startHarness();
  python = clientsPython();
  // `langgraph deploy` runs from a project: a langgraph.json is all it reads of it here.
  project = mkdtempSync(path.join(tmpdir(), "lgp-listeners-cli-"));
  writeFileSync(
    path.join(project, "langgraph.json"),
    JSON.stringify({ dependencies: ["."], graphs: { agent: "./agent.py:graph" } }),
  );
}, 300_000);
afterAll(async () => {
  rmSync(project, { recursive: true, force: true });
  await h?.close();
});

const cliEnv = (apiKey = h.apiKey) => officialCliEnv(h.url, apiKey);

/** Runs the CLI; its output (stdout and stderr) and exit code, whether it succeeded or not. */
async function cli(args: string[], apiKey?: string): Promise<{ code: number; output: string; stdout: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(python, ["-m", "langgraph_cli", ...args], {
      cwd: project,
      env: cliEnv(apiKey),
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, output: `${stdout}\n${stderr}`, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: failed.code ?? 1,
      output: `${failed.stdout ?? ""}\n${failed.stderr ?? ""}`,
      stdout: failed.stdout ?? "",
    };
  }
}

async function createListener(computeId: string, namespaces: string[], apiKey = h.apiKey) {
  const res = await h.raw
    .post("/v2/listeners")
    .set("X-Api-Key", apiKey)
    .send({ compute_type: "k8s", compute_id: computeId, compute_config: { k8s_namespaces: namespaces } });
  expect(res.status).toBe(201);
  return res.body as { id: string; compute_id: string };
}

test("langgraph deploy listeners list: none yet, then a created listener in its table and in --json", async () => {
  const empty = await cli(["deploy", "listeners", "list"]);
  expect(empty.code).toBe(0);
  expect(empty.output).toMatch(/No listeners found for this workspace/);

  const listener = await createListener("cluster-eu", ["team-a", "team-b"]);
  const table = await cli(["deploy", "listeners", "list"]);
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/Listener ID\s+.*Compute ID\s+.*Namespaces/);
  const row = table.stdout.split("\n").find((line) => line.includes(listener.id));
  expect(row).toMatch(/cluster-eu\s+.*team-a, team-b/);

  const json = await cli(["deploy", "listeners", "list", "--json"]);
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout)).toEqual([(await h.api.get(`/v2/listeners/${listener.id}`)).body]);
}, 120_000);

test("langgraph deploy listeners list --json reads every page (the CLI asks 100 at a time) and no listener twice", async () => {
  const { apiKey } = await createTenantKey(h.db, "tenant-many-listeners");
  const ids = new Set<string>();
  for (let i = 0; i < 103; i++) ids.add((await createListener(`cluster-${i}`, [`ns-${i}`], apiKey)).id);
  const { code, stdout } = await cli(["deploy", "listeners", "list", "--json"], apiKey);
  expect(code).toBe(0);
  const listed = (JSON.parse(stdout) as { id: string }[]).map((listener) => listener.id);
  expect(listed).toHaveLength(103);
  expect(new Set(listed)).toEqual(ids);
}, 120_000);

test("langgraph deploy --listener-id --k8s-namespace places the deployment it creates on the listener", async () => {
  const listener = await createListener("cluster-placing", ["apps", "batch"]);
  const image = `registry.example/agent@sha256:${"ab".repeat(32)}`;
  const deploy = (...extra: string[]) =>
    cli(["deploy", "--name", "placed-by-cli", "--image-uri", image, "--no-wait", "--no-input", ...extra]);

  // A namespace the listener does not serve: the CLI reads the listener and says which it does.
  const wrong = await deploy("--listener-id", listener.id, "--k8s-namespace", "web");
  expect(wrong.code).not.toBe(0);
  expect(wrong.output).toMatch(/does not serve namespace 'web'\. Choose one of: apps, batch/);
  // An unknown listener: the CLI lists the ones there are.
  const unknown = await deploy("--listener-id", "00000000-0000-4000-8000-000000000000", "--k8s-namespace", "apps");
  expect(unknown.code).not.toBe(0);
  expect(unknown.output).toMatch(/Listener 00000000-0000-4000-8000-000000000000 was not found in this workspace/);
  expect(unknown.output).toContain(listener.id);
  expect((await h.api.get("/v2/deployments?name=placed-by-cli")).body.resources).toEqual([]);

  const placed = await deploy("--listener-id", listener.id, "--k8s-namespace", "batch");
  expect(placed.code).toBe(0);
  expect(placed.output).toMatch(new RegExp(`Deploying through listener ${listener.id} in namespace batch`));
  const [deployment] = (await h.api.get("/v2/deployments?name=placed-by-cli")).body.resources;
  expect(deployment).toMatchObject({
    source: "external_docker",
    source_config: { listener_id: listener.id, listener_config: { k8s_namespace: "batch" } },
    source_revision_config: { image_uri: image },
  });
  // The listener now holds that deployment: it cannot be deleted under it.
  expect((await h.api.delete(`/v2/listeners/${listener.id}`)).status).toBe(409);
}, 120_000);
