// A rolling upgrade, as an operator does it: this release migrates the database (expand), then the
// previous release (from its tag, or the commit releases.json records) and this one serve it side by
// side. Agent runtime: an old API process and a new API on one database and one Redis queue; runs
// created through one are executed by the other's worker (only one worker exists at a time, so who
// ran what is known), streamed and read through both, a thread interrupted under one release
// resumed under the other. Control plane: deployments, revisions and secrets written through one
// release are read through the other, and the old reconciler deploys a revision the new one made
// (decrypting its secrets).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { createLogger } from "@lgp/server-kit";
import { createTestDatabase, REPO_ROOT, testRedisUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import { prepareReleaseTree, type ReleaseTree } from "../../releases/release-tree";
import { previousRelease, releaseCommit } from "../../releases/releases";
import {
  Client,
  collect,
  deleteRedisKeys,
  EXAMPLES_CONFIG,
  randomPrefix,
  spawnRuntimeProcess,
  startRuntime,
  stopProcess,
  type RunningRuntime,
} from "../../../services/agent-runtime/test/support/harness";
import { createControlPlaneApp } from "../../../services/control-plane/src/app";
import { loadControlPlaneConfig } from "../../../services/control-plane/src/config";
import { createDb, type Db } from "../../../services/control-plane/src/db";
import { SECRET_MASK } from "../../../services/control-plane/src/deployments/model";
import { generateKey, SecretCipher } from "../../../services/control-plane/src/secrets/cipher";
import { startApiKeys } from "../../../services/control-plane/src/tenants/key-resolver";
import { dropDeploymentDatabases } from "../../../services/control-plane/test/support/deployment-databases";
import { startServiceProcess, type ServiceProcess } from "./processes";

const previous = previousRelease(REPO_ROOT);
const started = Date.now();
let tree: ReleaseTree;
const processes: ServiceProcess[] = [];
const closers: (() => Promise<unknown>)[] = [];
const newOutput: string[] = [];

function output(): string {
  return [...processes.flatMap((process) => process.output), ...newOutput].join("");
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(() => {
  const { commit, from } = releaseCommit(REPO_ROOT, previous);
  tree = prepareReleaseTree(REPO_ROOT, commit, (line) => console.log(line));
  console.log(
    `v${previous.version} (${commit.slice(0, 7)}, from ${from}) ready in ${Date.now() - started} ms, dependencies ${tree.dependencies}`,
  );
});

afterAll(async () => {
  await Promise.all(processes.map((process) => process.stop()));
  for (const close of closers.reverse()) await close().catch(() => {});
  tree?.remove();
  console.log(`rolling upgrade from v${previous.version}: ${Date.now() - started} ms in all`);
});

describe(`agent runtime: v${previous.version} and this release on one database and one queue`, () => {
  let database: TestDatabase;
  let api: RunningRuntime;
  let old: Client;
  let oldApi: ServiceProcess;
  const prefix = randomPrefix();
  const env = () => ({
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: prefix,
    LANGGRAPH_JSON: path.join(tree.dir, "examples/langgraph.json"),
  });

  beforeAll(async () => {
    // Expand: this release migrates first (and sets up the checkpointer's tables).
    database = await createTestDatabase("agent-runtime");
    closers.push(() => database.drop());
    closers.push(() => deleteRedisKeys(testRedisUrl(), prefix));
    api = await startRuntime(database.url, { redis: true, prefix, workers: 0 });
    closers.push(() => api.close());
    oldApi = await startServiceProcess(tree.dir, "services/agent-runtime/src/main.ts", { ...env(), WORKERS: "0" });
    processes.push(oldApi);
    old = new Client({ apiUrl: oldApi.url, callerOptions: { maxRetries: 0 } });
  });

  /** A worker process of this release (graphs are module singletons: two runtimes cannot share a process). */
  function newWorker(): ChildProcess {
    const worker = spawnRuntimeProcess(
      "worker.ts",
      { ...env(), LANGGRAPH_JSON: EXAMPLES_CONFIG, WORKERS: "2" },
      newOutput,
    );
    closers.push(() => stopProcess(worker));
    return worker;
  }

  const says = (text: string) => ({ messages: [{ role: "user", content: text }] });
  const lastText = (values: unknown) =>
    (values as { messages: { content: unknown }[] }).messages.at(-1)?.content as string | undefined;

  it("serves threads, runs, interrupts and the store across releases, each way", async () => {
    // Written through the old release, read through the new one.
    const assistant = await old.assistants.create({ graphId: "agent", name: "made by the old release" });
    expect(await api.client.assistants.get(assistant.assistant_id)).toMatchObject({
      graph_id: "agent",
      name: "made by the old release",
    });
    const thread = await old.threads.create({ metadata: { made_by: "old" } });
    expect((await api.client.threads.get(thread.thread_id)).metadata).toMatchObject({ made_by: "old" });
    const found = await api.client.threads.search({ metadata: { made_by: "old" } });
    expect(found.map((item) => item.thread_id)).toEqual([thread.thread_id]);
    await old.store.putItem(["rolling"], "from-old", { text: "written by the old release" });
    expect((await api.client.store.getItem(["rolling"], "from-old"))?.value).toEqual({
      text: "written by the old release",
    });

    // No worker yet: runs queued through the old release wait for this release's worker.
    const first = await old.runs.create(thread.thread_id, assistant.assistant_id, { input: says("hi from old") });
    const approval = await old.threads.create();
    const proposal = await old.runs.create(approval.thread_id, "approval", { input: says("ship it") });
    const worker = newWorker();
    expect(lastText(await api.client.runs.join(thread.thread_id, first.run_id))).toBe("echo: hi from old");
    // Its events, written by the new worker, streamed through the old API.
    const events = await collect(old.runs.joinStream(thread.thread_id, first.run_id, { lastEventId: "-1" }));
    expect(events.map((event) => event.event)).toContain("values");
    expect(lastText(events.filter((event) => event.event === "values").at(-1)?.data)).toBe("echo: hi from old");
    await api.client.runs.join(approval.thread_id, proposal.run_id);
    const interrupted = await until("the approval to stop", async () => {
      const current = await old.threads.get(approval.thread_id);
      return current.status === "interrupted" ? current : undefined;
    });
    expect(Object.values(interrupted.interrupts).flat()).toEqual([
      expect.objectContaining({ value: expect.objectContaining({ draft: "proposal: ship it" }) }),
    ]);

    // This release's worker goes; runs queued through the new API wait for the old release's worker.
    await stopProcess(worker);
    const second = await api.client.runs.create(thread.thread_id, "agent", { input: says("second, from new") });
    const resumed = await api.client.runs.create(approval.thread_id, "approval", {
      command: { resume: { approved: true } },
    });
    processes.push(
      await startServiceProcess(tree.dir, "services/agent-runtime/src/worker.ts", { ...env(), WORKERS: "2" }, false),
    );
    expect(lastText(await api.client.runs.join(thread.thread_id, second.run_id))).toBe("echo: second, from new");
    // Resumed by the old release from the checkpoint this release's worker wrote.
    expect(lastText(await old.runs.join(approval.thread_id, resumed.run_id))).toBe("published: proposal: ship it");
    // A run streamed through the new API while the old worker executes it.
    const streamed = await collect(
      api.client.runs.stream(thread.thread_id, "agent", { input: says("streamed"), streamMode: "values" }),
    );
    expect(lastText(streamed.filter((event) => event.event === "values").at(-1)?.data)).toBe("echo: streamed");
    await api.client.store.putItem(["rolling"], "from-new", { text: "written by this release" });
    expect((await old.store.getItem(["rolling"], "from-new"))?.value).toEqual({ text: "written by this release" });

    // Both releases tell the same story of both threads.
    for (const id of [thread.thread_id, approval.thread_id]) {
      const [fromOld, fromNew] = await Promise.all([old.threads.getState(id), api.client.threads.getState(id)]);
      expect(fromNew.values).toEqual(fromOld.values);
      expect(fromNew.checkpoint).toEqual(fromOld.checkpoint);
      const [oldRuns, newRuns] = await Promise.all([old.runs.list(id), api.client.runs.list(id)]);
      expect(newRuns.map((run) => [run.run_id, run.status])).toEqual(oldRuns.map((run) => [run.run_id, run.status]));
      expect(new Set(newRuns.map((run) => run.status))).toEqual(new Set(["success"]));
      expect((await old.threads.get(id)).status).toBe("idle");
    }
    expect((await api.client.threads.getState(thread.thread_id)).values).toMatchObject({
      messages: expect.arrayContaining([expect.anything()]),
    });
    expect(lastText((await old.threads.getState(thread.thread_id)).values)).toBe("echo: streamed");
  }, 120_000);
});

describe(`control plane: v${previous.version} and this release on one database`, () => {
  const apiKey = `lgp-rolling-${randomBytes(12).toString("hex")}`;
  const secretsKey = generateKey();
  let oldUrl: string;
  let newUrl: string;
  let db: Db;

  beforeAll(async () => {
    const database = await createTestDatabase("control-plane");
    closers.push(() => database.drop());
    // Closed in reverse: the deployments' databases go first, while the list of them is there.
    closers.push(() => dropDeploymentDatabases(database.url));
    const deploymentsDir = mkdtempSync(path.join(tmpdir(), "lgp-rolling-deployments-"));
    closers.push(async () => rmSync(deploymentsDir, { recursive: true, force: true }));
    const common = {
      CONTROL_PLANE_DATABASE_URL: database.url,
      SECRETS_ENCRYPTION_KEY: secretsKey,
      BOOTSTRAP_API_KEY: apiKey,
      OUTBOUND_ALLOW: "loopback",
      RATE_LIMIT_DEPLOYS_PER_MINUTE: "0",
      CONSOLE_ENABLED: "false",
      DEPLOYMENTS_DIR: deploymentsDir,
    };
    // The old release reconciles (its sweep picks up what the new API writes within a second).
    const oldPlane = await startServiceProcess(tree.dir, "services/control-plane/src/main.ts", {
      ...common,
      RECONCILER_SWEEP_SECONDS: "1",
    });
    processes.push(oldPlane);
    oldUrl = oldPlane.url;
    // This release's API on the same database, with no reconciler of its own.
    const config = loadControlPlaneConfig({ ...common, LOG_LEVEL: "warn" });
    db = createDb(database.url, 4);
    closers.push(() => db.$disconnect());
    const logger = createLogger("control-plane-new", "warn");
    const apiKeys = await startApiKeys(config, db, logger);
    closers.push(() => apiKeys.close());
    const app = createControlPlaneApp({ config, db, logger, apiKeys });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    newUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  async function call(base: string, method: string, route: string, body?: unknown) {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { "X-Api-Key": apiKey, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { id: string } };
  }

  const deployed = (base: string, deploymentId: string, revisionId: string) =>
    until(`revision ${revisionId} to be deployed`, async () => {
      const { body } = await call(base, "GET", `/v2/deployments/${deploymentId}/revisions/${revisionId}`);
      if (String(body.status).endsWith("FAILED"))
        throw new Error(`revision failed: ${JSON.stringify(body)}\n${output()}`);
      return body.status === "DEPLOYED" ? body : undefined;
    });

  const docker = (name: string, secrets: { name: string; value: string }[]) => ({
    name,
    source: "external_docker",
    // Any URL answering /ok: the control plane's own.
    source_config: { custom_url: oldUrl },
    source_revision_config: { image_uri: "example/agent:1" },
    secrets,
  });

  it("reads through each release what the other wrote, and the old one deploys what the new one made", async () => {
    // Through the old release; read through the new one (which may add fields, never drop one).
    const made = await call(oldUrl, "POST", "/v2/deployments", docker("made-by-old", [{ name: "OLD", value: "o-1" }]));
    expect(made.status).toBe(201);
    const first = String(made.body.latest_revision_id);
    await deployed(oldUrl, made.body.id, first);
    const [oldRead, newRead] = await Promise.all([
      call(oldUrl, "GET", `/v2/deployments/${made.body.id}`),
      call(newUrl, "GET", `/v2/deployments/${made.body.id}`),
    ]);
    expect(newRead.body).toMatchObject({ ...oldRead.body, secrets: [{ name: "OLD", value: SECRET_MASK }] });
    expect(oldRead.body).toMatchObject({ id: made.body.id, name: "made-by-old", active_revision_id: first });
    expect((await call(newUrl, "GET", `/v2/deployments/${made.body.id}/revisions/${first}`)).body).toMatchObject({
      status: "DEPLOYED",
    });

    // Through the new release: a new revision (one secret kept as the old release encrypted it, one
    // new) and a new deployment, both deployed by the old release's reconciler, which decrypts them.
    const patched = await call(newUrl, "PATCH", `/v2/deployments/${made.body.id}`, {
      secrets: [
        { name: "OLD", value: SECRET_MASK },
        { name: "NEW", value: "n-1" },
      ],
    });
    expect(patched.status).toBe(200);
    const second = String(patched.body.latest_revision_id);
    expect(second).not.toBe(first);
    await deployed(oldUrl, made.body.id, second);
    const other = await call(newUrl, "POST", "/v2/deployments", docker("made-by-new", [{ name: "NEW", value: "n-2" }]));
    expect(other.status).toBe(201);
    await deployed(oldUrl, other.body.id, String(other.body.latest_revision_id));
    expect((await call(oldUrl, "GET", `/v2/deployments/${made.body.id}`)).body).toMatchObject({
      active_revision_id: second,
      secrets: [
        { name: "OLD", value: SECRET_MASK },
        { name: "NEW", value: SECRET_MASK },
      ],
    });

    // Both list the same deployments; this release decrypts what the old one encrypted.
    const [oldList, newList] = await Promise.all([
      call(oldUrl, "GET", "/v2/deployments"),
      call(newUrl, "GET", "/v2/deployments"),
    ]);
    const names = (list: { body: Record<string, unknown> }) =>
      (list.body.resources as { name: string }[]).map((item) => item.name).sort();
    expect(names(newList)).toEqual(["made-by-new", "made-by-old"]);
    expect(names(oldList)).toEqual(names(newList));
    const [row] = await db.$queryRaw<{ secrets: { name: string; value: string }[] }[]>`
      SELECT secrets FROM revisions WHERE id = ${second}::uuid`;
    const cipher = SecretCipher.fromEncodedKey(secretsKey);
    expect(row!.secrets.map((secret) => [secret.name, cipher.decrypt(secret.value)])).toEqual([
      ["OLD", "o-1"],
      ["NEW", "n-1"],
    ]);
  }, 90_000);
});
