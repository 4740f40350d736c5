// The kubernetes deployer's side of `langgraph deploy logs`: a control plane on a stand-in
// Kubernetes API follows every pod of a deployed revision through the log API and keeps each line
// in that revision's deploy log (read into level and message, secrets masked, pod and container
// among its fields), goes on after a dropped connection without storing a line twice, and hands a
// deployment over to another control plane (one follower at a time, by lease) which goes on after
// the last stored line.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createLogger } from "@lgp/server-kit";
import { createKubernetesDeployer } from "../../src/deployers/kubernetes";
import { RuntimeLogFollowing } from "../../src/runtime-logs/following";
import { SecretCipher } from "../../src/secrets/cipher";
import { startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";
import { clientsPython, officialCliEnv } from "../support/official-cli";
import { FakeApiServer, writeKubeconfig } from "./fake-apiserver";

const cluster = new FakeApiServer();
let work: string;
let h: ReconcilerHarness;
const SECRET = "sk-live-pod-0123456789";

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "lgp-pod-logs-"));
  const server = await cluster.start();
  h = await startReconcilerHarness({
    sweepSeconds: 1,
    logFollowing: { intervalMs: 300, leaseMs: 2000 },
    env: {
      DEPLOYER: "kubernetes",
      KUBECONFIG: writeKubeconfig(work, server, cluster.token),
      K8S_REDIS_URL: "redis://redis.cluster.test:6379/0",
      K8S_PROGRESS_DEADLINE_SECONDS: "10",
    },
  });
});
afterAll(async () => {
  await h?.close();
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
});

interface Line {
  id: string;
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

async function deployLog(id: string, body: Record<string, unknown> = {}): Promise<Line[]> {
  const page = await h.api.post(`/v1/projects/${id}/deploy_logs`).send({ limit: 1000, order: "asc", ...body });
  expect(page.status).toBe(200);
  return page.body.logs;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("a deployed revision's pod logs reach its deploy log, once each, across a dropped connection and a change of follower", async () => {
  const created = await h.api.post("/v2/deployments").send({
    name: "pod-logs",
    source: "internal_docker",
    source_config: {},
    source_revision_config: { image_uri: "registry.example/agent:1" },
    secrets: [{ name: "OPENAI_API_KEY", value: SECRET }],
  });
  expect(created.status).toBe(201);
  const { id, latest_revision_id: revisionId } = created.body as { id: string; latest_revision_id: string };
  await h.waitForRevision(id, revisionId, ["DEPLOYED"], 30_000);

  // The API Deployment's pod, as the stand-in API lists it, and its container.
  const base = `pod-logs-${id.replace(/-/g, "").slice(0, 8)}`;
  const apiDeployment = cluster.objects.get(`/apis/apps/v1/namespaces/default/deployments/${base}`);
  const pod = `${base}-7d9f8c6b5-x2x9q`;
  const container = apiDeployment.spec.template.spec.containers[0].name as string;
  const write = (text: string) => cluster.writePodLog("default", pod, container, text);
  await until("the pod's log to be followed", async () => cluster.podLogFollowers("default", pod, container) === 1);

  write(JSON.stringify({ level: 30, time: Date.now(), name: "agent-runtime", msg: "agent runtime listening" }));
  write("graph says hello");
  write(`calling the model with ${SECRET}`);
  write(JSON.stringify({ level: 50, time: Date.now(), run_id: "run-1", msg: "run failed: model refused" }));
  const lines = await until("the pod's lines in the deploy log", async () => {
    const found = (await deployLog(id)).filter((line) => line.fields?.pod === pod);
    return found.length === 4 && found;
  });
  expect(lines.map(({ level, message }) => [level, message])).toEqual([
    ["INFO", "agent runtime listening"],
    ["INFO", "graph says hello"],
    ["INFO", "calling the model with ****"],
    ["ERROR", "run failed: model refused"],
  ]);
  expect(lines[3].fields).toEqual({ pod, container, run_id: "run-1" });
  // They are the revision's lines (the pod's template names it).
  const own = await h.api.get(`/v2/deployments/${id}/revisions/${revisionId}/logs/deploy?query=graph%20says`);
  expect(own.body.logs.map((line: Line) => line.message)).toEqual(["graph says hello"]);

  // The API server drops the connection; the follower attaches again and stores only what is new.
  cluster.dropPodLogFollowers("default", pod, container);
  write("after the drop");
  await until("the line written after the drop", async () =>
    (await deployLog(id, { query: "after the drop" })).length === 1 ? true : undefined,
  );

  // Another control plane's follower waits while this one holds the deployment's lease...
  const logger = createLogger("test", "silent");
  const other = new RuntimeLogFollowing(
    h.db,
    createKubernetesDeployer(h.config, logger),
    SecretCipher.fromEncodedKey(h.config.SECRETS_ENCRYPTION_KEY),
    logger,
    { intervalMs: 300, leaseMs: 2000 },
  );
  other.start();
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(cluster.podLogFollowers("default", pod, container)).toBe(1);
    // ...and takes it over once this one stops, going on after the last line stored.
    await h.runtime.close();
    write("while the follower changes");
    await until("the other follower", async () => cluster.podLogFollowers("default", pod, container) === 1, 10_000);
    write("from the new follower");
    const all = await until("the lines of the new follower", async () => {
      const found = (await deployLog(id)).filter((line) => line.fields?.pod === pod);
      return found.some((line) => line.message === "from the new follower") && found;
    });
    expect(all.map((line) => line.message)).toEqual([
      "agent runtime listening",
      "graph says hello",
      "calling the model with ****",
      "run failed: model refused",
      "after the drop",
      "while the follower changes",
      "from the new follower",
    ]);
    expect(JSON.stringify(await deployLog(id))).not.toContain(SECRET);

    // The official CLI reads them as it reads a hosted deployment's.
    const { stdout } = await promisify(execFile)(
      clientsPython(),
      ["-m", "langgraph_cli", "deploy", "logs", "--deployment-id", id, "--level", "ERROR"],
      {
        cwd: work,
        env: officialCliEnv(h.url, h.apiKey),
        timeout: 60_000,
      },
    );
    expect(stdout).toMatch(/\[ERROR\] run failed: model refused/);
    expect(stdout).not.toMatch(/graph says hello/);
  } finally {
    await other.stop();
    await h.restart();
  }
}, 90_000);
