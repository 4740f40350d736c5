import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { Client as LangGraphClient, REPO_ROOT } from "@lgp/server-kit/src/testing";
import { startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";
import { exampleRepo, git } from "./example-repo";

// The flow every client follows, end to end with real agent runtime processes: create an
// internal_source deployment from examples/ (a git repository) -> DEPLOYED -> its URL serves the
// example graph -> a control-plane restart, and a crash of its runtime, start it again -> PATCH (new repo_ref and secret) -> new revision DEPLOYED, old process gone ->
// redeploy the first revision -> rotate the runtime's key -> DELETE, database dropped, no process left.
// Every runtime asks for the deployment's key (x-api-key), which the create answer gave once.
let h: ReconcilerHarness;
let repo: string;
let firstSha: string;
let secondSha: string;
let runtimeKey: string;
const exampleGraphs = Object.keys(
  (JSON.parse(readFileSync(path.join(REPO_ROOT, "examples/langgraph.json"), "utf8")) as { graphs: object }).graphs,
).sort();

beforeAll(async () => {
  h = await startReconcilerHarness({ timeoutSeconds: 120, sweepSeconds: 1 });
  ({ repo, firstSha, secondSha } = exampleRepo(h.workDir));
});
afterAll(async () => {
  await h?.close();
});

function pidOf(deploymentId: string, revisionId: string): number | null {
  const file = path.join(h.workDir, deploymentId, revisionId, "runtime.pid");
  return existsSync(file) ? Number(readFileSync(file, "utf8")) : null;
}

/** Retiring the replaced revision follows its replacement's DEPLOYED: wait for the exit. */
async function exited(pid: number): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return !alive(pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function searchAssistants(url: string, key: string | null): Promise<Response> {
  return fetch(`${url}/assistants/search`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(key ? { "x-api-key": key } : {}) },
    body: "{}",
  });
}

async function assistantsOf(url: string): Promise<string[]> {
  const res = await searchAssistants(url, runtimeKey);
  expect(res.status).toBe(200);
  return ((await res.json()) as { graph_id: string }[]).map((assistant) => assistant.graph_id).sort();
}

async function databaseExists(deploymentId: string): Promise<boolean> {
  const url = new URL(h.deployer.databaseUrl(deploymentId));
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

it("creates, serves, updates, rolls back and deletes an internal_source deployment", async () => {
  const created = await h.api.post("/v2/deployments").send({
    name: "example-flow",
    source: "internal_source",
    source_config: { repo_url: `file://${repo}`, build_command: "test -f langgraph.json" },
    source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
    secrets: [{ name: "EXAMPLE_SECRET", value: "first-secret" }],
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const first = created.body.latest_revision_id as string;
  runtimeKey = created.body.api_key as string;

  // Clients list revisions and take [0] as the latest, then poll it.
  const listed = await h.api.get(`/v2/deployments/${id}/revisions`);
  expect(listed.body.resources[0].id).toBe(first);
  const deployed = await h.waitForRevision(
    id,
    first,
    ["DEPLOYED", "BUILD_FAILED", "DEPLOY_FAILED", "CREATE_FAILED"],
    150_000,
  );
  expect(deployed).toMatchObject({ status: "DEPLOYED", source_revision_config: { repo_commit_sha: firstSha } });
  const deployment = (await h.api.get(`/v2/deployments/${id}`)).body;
  expect(deployment).toMatchObject({
    status: "READY",
    active_revision_id: first,
    source_revision_config: { repo_commit_sha: firstSha },
  });
  const startedUrl = deployment.source_config.custom_url as string;
  expect(startedUrl).toBe(deployed.url);
  expect(await assistantsOf(startedUrl)).toEqual(exampleGraphs);
  // Its runtime is not open: no key, or another one, is a 401; /ok stays open for health checks.
  expect((await searchAssistants(startedUrl, null)).status).toBe(401);
  expect((await searchAssistants(startedUrl, `lgp_${"0".repeat(40)}`)).status).toBe(401);
  expect((await fetch(`${startedUrl}/ok`)).status).toBe(200);
  // ... and runs it, through the official client.
  const client = new LangGraphClient({ apiUrl: startedUrl, apiKey: runtimeKey });
  const thread = await client.threads.create();
  const values = (await client.runs.wait(thread.thread_id, "agent", {
    input: { messages: [{ role: "user", content: "hi" }] },
  })) as { messages: { content: string }[] };
  expect(values.messages.at(-1)!.content).toBe("echo: hi");
  expect(await databaseExists(id)).toBe(true);
  // The deployment's secrets reach its runtime as environment variables.
  const startedPid = pidOf(id, first)!;
  expect(readFileSync(`/proc/${startedPid}/environ`, "utf8").split("\0")).toContain("EXAMPLE_SECRET=first-secret");

  // A control-plane restart stops its runtimes; the new one starts the active revision again.
  await h.restart();
  expect(await exited(startedPid)).toBe(true);
  let firstUrl = startedUrl;
  for (const deadline = Date.now() + 120_000; firstUrl === startedUrl && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    firstUrl = (await h.api.get(`/v2/deployments/${id}`)).body.source_config.custom_url;
  }
  expect(firstUrl).not.toBe(startedUrl);
  expect(await assistantsOf(firstUrl)).toEqual(exampleGraphs);
  expect((await h.api.get(`/v2/deployments/${id}/revisions/${first}`)).body).toMatchObject({
    status: "DEPLOYED",
    url: firstUrl,
  });

  // A runtime that dies is started again by the reconciler's sweep.
  process.kill(pidOf(id, first)!, "SIGKILL");
  const crashedUrl = firstUrl;
  for (const deadline = Date.now() + 120_000; firstUrl === crashedUrl && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    firstUrl = (await h.api.get(`/v2/deployments/${id}`)).body.source_config.custom_url;
  }
  expect(firstUrl).not.toBe(crashedUrl);
  expect(await assistantsOf(firstUrl)).toEqual(exampleGraphs);
  const firstPid = pidOf(id, first)!;
  const buildLog = (await h.api.get(`/v2/deployments/${id}/revisions/${first}/logs/build?query=checked%20out`)).body
    .logs;
  expect(buildLog.map((line: { message: string }) => line.message)).toEqual([`checked out main at ${firstSha}`]);

  // PATCH: new repo_ref and secret -> a new revision; the old process stops once it is DEPLOYED.
  const patched = await h.api.patch(`/v2/deployments/${id}`).send({
    source_revision_config: { repo_ref: "second" },
    secrets: [{ name: "EXAMPLE_SECRET", value: "second-secret" }],
  });
  expect(patched.status).toBe(200);
  const second = patched.body.latest_revision_id as string;
  expect(second).not.toBe(first);
  const secondDeployed = await h.waitForRevision(id, second, ["DEPLOYED", "BUILD_FAILED", "DEPLOY_FAILED"], 150_000);
  expect(secondDeployed).toMatchObject({ status: "DEPLOYED", source_revision_config: { repo_commit_sha: secondSha } });
  const secondUrl = secondDeployed.url as string;
  expect(secondUrl).not.toBe(firstUrl);
  expect(await assistantsOf(secondUrl)).toEqual(exampleGraphs);
  const secondPid = pidOf(id, second)!;
  expect(readFileSync(`/proc/${secondPid}/environ`, "utf8").split("\0")).toContain("EXAMPLE_SECRET=second-secret");
  expect(await exited(firstPid)).toBe(true);
  await expect(fetch(`${firstUrl}/ok`)).rejects.toThrow();
  // Older DEPLOYED revisions stay DEPLOYED (clients show them as replaced).
  expect((await h.api.get(`/v2/deployments/${id}`)).body).toMatchObject({
    active_revision_id: second,
    source_config: { custom_url: secondUrl },
  });

  // Rollback: redeploy the first revision; it builds the first commit even though main moved on.
  writeFileSync(path.join(repo, "MOVED.md"), "main moved\n");
  git(["add", "."], repo);
  git(["commit", "--quiet", "-m", "main moved"], repo);
  const redeployed = await h.api.post(`/v2/deployments/${id}/revisions/${first}/redeploy`);
  expect(redeployed.status).toBe(200);
  const third = redeployed.body.latest_revision_id as string;
  const thirdDeployed = await h.waitForRevision(id, third, ["DEPLOYED", "BUILD_FAILED", "DEPLOY_FAILED"], 150_000);
  expect(thirdDeployed).toMatchObject({
    status: "DEPLOYED",
    source_revision_config: { repo_ref: "main", repo_commit_sha: firstSha },
  });
  const thirdPid = pidOf(id, third)!;
  expect(readFileSync(`/proc/${thirdPid}/environ`, "utf8").split("\0")).toContain("EXAMPLE_SECRET=first-secret");
  expect(await exited(secondPid)).toBe(true);
  // A rollback brings back the old code and secrets, not an old key: the runtime holds only the hash.
  const thirdEnv = readFileSync(`/proc/${thirdPid}/environ`, "utf8").split("\0");
  expect(thirdEnv).toContain(`API_KEY_HASHES=sha256:${createHash("sha256").update(runtimeKey).digest("hex")}`);
  expect(thirdEnv.join("\n")).not.toContain(runtimeKey);

  // Rotation: a new key, applied by a new revision; once it is DEPLOYED only the new key works.
  const rotated = await h.api.post(`/v2/deployments/${id}/api-key`);
  expect(rotated.status).toBe(200);
  const oldKey = runtimeKey;
  runtimeKey = rotated.body.api_key as string;
  const fourth = rotated.body.latest_revision_id as string;
  const fourthDeployed = await h.waitForRevision(id, fourth, ["DEPLOYED", "BUILD_FAILED", "DEPLOY_FAILED"], 150_000);
  expect(fourthDeployed).toMatchObject({ status: "DEPLOYED", source_revision_config: { repo_commit_sha: firstSha } });
  const fourthUrl = fourthDeployed.url as string;
  expect(await assistantsOf(fourthUrl)).toEqual(exampleGraphs);
  expect((await searchAssistants(fourthUrl, oldKey)).status).toBe(401);
  expect(await exited(thirdPid)).toBe(true);
  const fourthPid = pidOf(id, fourth)!;

  // DELETE: 204, then gone, its processes stopped and its database dropped.
  expect((await h.api.delete(`/v2/deployments/${id}`)).status).toBe(204);
  const deadline = Date.now() + 60_000;
  while ((await h.api.get(`/v2/deployments/${id}`)).status !== 404 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect((await h.api.get(`/v2/deployments/${id}`)).status).toBe(404);
  expect(await exited(fourthPid)).toBe(true);
  expect(await databaseExists(id)).toBe(false);
  expect(existsSync(path.join(h.workDir, id))).toBe(false);
}, 600_000);

it("deploys the way langgraph deploy does: no revision, upload URL, tarball of examples/, PATCH, DEPLOYED, logs", async () => {
  const created = await h.api.post("/v2/deployments").send({
    name: "example-cli",
    source: "internal_source",
    source_config: { deployment_type: "dev" },
    source_revision_config: {},
  });
  expect(created.status).toBe(201);
  expect(created.body.latest_revision_id).toBeNull();
  const id = created.body.id as string;
  const cliKey = created.body.api_key as string;
  const { upload_url: uploadUrl, object_path: objectPath } = (await h.api.post(`/v2/deployments/${id}/upload-url`))
    .body as { upload_url: string; object_path: string };
  const tarball = path.join(h.workDir, "example-cli.tar.gz");
  execFileSync("tar", ["-czf", tarball, "--exclude=node_modules", "-C", path.join(REPO_ROOT, "examples"), "."]);
  // The URL is the credential: no API key on the upload.
  const put = await h.raw
    .put(new URL(uploadUrl).pathname)
    .set("Content-Type", "application/gzip")
    .send(readFileSync(tarball));
  expect(put.status).toBe(200);
  const patched = await h.api.patch(`/v2/deployments/${id}`).send({
    revision_source: "internal_source",
    source_revision_config: { source_tarball_path: objectPath, langgraph_config_path: "langgraph.json" },
  });
  expect(patched.status).toBe(200);
  const [latest] = (await h.api.get(`/v2/deployments/${id}/revisions?limit=1`)).body.resources;
  const revision = await h.waitForRevision(id, latest.id, ["DEPLOYED", "BUILD_FAILED", "DEPLOY_FAILED"], 150_000);
  expect(revision.status).toBe("DEPLOYED");
  const served = await searchAssistants(String(revision.url), cliKey);
  expect(((await served.json()) as { graph_id: string }[]).map((a) => a.graph_id).sort()).toEqual(exampleGraphs);
  const build = await h.api
    .post(`/v1/projects/${id}/revisions/${latest.id}/build_logs`)
    .send({ limit: 100, order: "desc" });
  expect(build.body.logs.map((line: { message: string }) => line.message)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^unpacking /)]),
  );
  const deploy = await h.api.post(`/v1/projects/${id}/deploy_logs`).send({ level: "INFO", limit: 100 });
  expect(deploy.body.logs.map((line: { message: string }) => line.message)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^status DEPLOYING -> DEPLOYED/)]),
  );
  expect(deploy.body.logs.every((line: { level: string }) => ["INFO", "WARNING", "ERROR"].includes(line.level))).toBe(
    true,
  );
  expect((await h.api.delete(`/v2/deployments/${id}`)).status).toBe(204);
}, 200_000);
