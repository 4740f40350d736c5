import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client } from "pg";
import { InProcessQueue } from "../../src/queue";
import { createReconcilerRuntime } from "../../src/reconciler";
import { RevisionRepository } from "../../src/revisions/repository";
import { dockerBody, sourceBody } from "../deployments/harness";
import { startOkServer, startReconcilerHarness, type ReconcilerHarness } from "./setup";

let h: ReconcilerHarness;
let ok: { url: string; close(): Promise<void> };
beforeAll(async () => {
  ok = await startOkServer();
  h = await startReconcilerHarness({ timeoutSeconds: 5 });
});
afterAll(async () => {
  await h.close();
  await ok.close();
});

async function create(body: Record<string, unknown>) {
  const res = await h.api.post("/v2/deployments").send(body);
  expect(res.status).toBe(201);
  return res.body as { id: string; latest_revision_id: string };
}

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({
    connectionString: h.deployer.databaseUrl("00000000-0000-0000-0000-000000000000").replace(/\/[^/]*$/, "/postgres"),
  });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

function databaseName(deploymentId: string): string {
  return new URL(h.deployer.databaseUrl(deploymentId)).pathname.slice(1);
}

/** A source directory with a langgraph.json (and the graph file unless `withoutGraph`). */
function sourceDir(name: string, withoutGraph = false): string {
  const dir = path.join(h.workDir, "sources", name);
  mkdirSync(path.join(dir, "src"), { recursive: true });
  writeFileSync(path.join(dir, "langgraph.json"), JSON.stringify({ graphs: { agent: "./src/agent.ts:graph" } }));
  if (!withoutGraph) writeFileSync(path.join(dir, "src/agent.ts"), "export const graph = null;\n");
  return dir;
}

async function logs(deploymentId: string, revisionId: string, kind: "build" | "deploy", query = "") {
  const res = await h.api.get(
    `/v2/deployments/${deploymentId}/revisions/${revisionId}/logs/${kind}?limit=1000${query}`,
  );
  expect(res.status).toBe(200);
  return res.body.logs as { message: string; level: string }[];
}

it("deploys an external_docker revision: database, READY, DEPLOYED, active revision, every transition logged", async () => {
  const created = await create(dockerBody("ext-ok", { source_config: { custom_url: ok.url } }));
  const revision = await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYED", "DEPLOY_FAILED"]);
  expect(revision).toMatchObject({ status: "DEPLOYED", url: ok.url });
  const deployment = (await h.api.get(`/v2/deployments/${created.id}`)).body;
  expect(deployment).toMatchObject({
    status: "READY",
    active_revision_id: created.latest_revision_id,
    source_config: { custom_url: ok.url },
  });
  expect(await databaseExists(databaseName(created.id))).toBe(true);
  const lines = (await logs(created.id, created.latest_revision_id, "deploy")).map((line) => line.message);
  expect(lines).toEqual(
    expect.arrayContaining([
      "status CREATING -> QUEUED",
      "status QUEUED -> AWAITING_DEPLOY",
      "status AWAITING_DEPLOY -> DEPLOYING",
      `status DEPLOYING -> DEPLOYED at ${ok.url}`,
    ]),
  );
});

it("shows a revision DEPLOYED only once its deploy log, the transition's own line included, is stored", async () => {
  // A deployment whose health check answers 503 until released, so the revision waits in DEPLOYING.
  let healthy = false;
  const server = createServer((req, res) => {
    res.statusCode = req.url === "/ok" && healthy ? 200 : 503;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const blocker = new Client({ connectionString: h.database.url });
  await blocker.connect();
  try {
    const created = await create(dockerBody("ext-held", { source_config: { custom_url: url } }));
    await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYING"]);
    // Every write to the logs is held; then the health check passes.
    await blocker.query("BEGIN");
    await blocker.query("LOCK TABLE revision_logs IN EXCLUSIVE MODE");
    healthy = true;
    for (let i = 0; i < 200; i += 1) {
      const waiting = await h.db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'revision_logs'::regclass AND NOT granted`;
      if (waiting[0].n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // The step's lines wait for the table, and so does the status.
    const held = (await h.api.get(`/v2/deployments/${created.id}/revisions/${created.latest_revision_id}`)).body;
    expect(held.status).toBe("DEPLOYING");
    await blocker.query("COMMIT");
    await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYED"]);
    const lines = (await logs(created.id, created.latest_revision_id, "deploy")).map((line) => line.message);
    expect(lines.slice(-3)).toEqual([
      "status AWAITING_DEPLOY -> DEPLOYING",
      `health-checking ${url}`,
      `status DEPLOYING -> DEPLOYED at ${url}`,
    ]);
  } finally {
    await blocker.end();
    await new Promise((resolve) => server.close(resolve));
  }
});

it("ends a revision whose URL never answers in DEPLOY_FAILED with the reason in its deploy log", async () => {
  const created = await create(dockerBody("ext-down", { source_config: { custom_url: "http://127.0.0.1:9" } }));
  const revision = await h.waitForRevision(
    created.id,
    created.latest_revision_id,
    ["DEPLOYED", "DEPLOY_FAILED"],
    30_000,
  );
  expect(revision.status).toBe("DEPLOY_FAILED");
  expect(revision.status_message).toMatch(/127\.0\.0\.1:9\/ok did not answer/);
  const errors = await logs(created.id, created.latest_revision_id, "deploy", "&level=error");
  expect(errors.map((line) => line.message)).toEqual(expect.arrayContaining([expect.stringMatching(/did not answer/)]));
  expect(errors.every((line) => line.level === "error")).toBe(true);
  // The CLI's forms: its level names in any case, levels answered in upper case; the deployment's
  // deploy log (all its revisions) holds the same lines.
  const cli = await h.api
    .post(`/v1/projects/${created.id}/revisions/${created.latest_revision_id}/deploy_logs`)
    .send({ level: "ERROR", order: "desc", limit: 100 });
  expect(cli.status).toBe(200);
  expect(cli.body.logs.map((line: { message: string }) => line.message)).toEqual(
    errors.map((line) => line.message).reverse(),
  );
  expect(cli.body.logs.every((line: { level: string }) => line.level === "ERROR")).toBe(true);
  const project = await h.api.post(`/v1/projects/${created.id}/deploy_logs`).send({ level: "Error" });
  expect(project.status).toBe(200);
  expect(project.body.logs.map((line: { message: string }) => line.message)).toEqual(
    errors.map((line) => line.message),
  );
  const everything = await h.api.post(`/v1/projects/${created.id}/deploy_logs`).send({});
  expect(new Set(everything.body.logs.map((line: { level: string }) => line.level))).toEqual(
    new Set(["INFO", "ERROR"]),
  );
});

it("ends an internal_docker revision in DEPLOY_FAILED: the local deployer runs no container images", async () => {
  const created = await create(dockerBody("image-only", { source: "internal_docker", source_config: {} }));
  const revision = await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYED", "DEPLOY_FAILED"]);
  expect(revision).toMatchObject({
    status: "DEPLOY_FAILED",
    status_message: expect.stringMatching(/cannot run container images/),
  });
});

it("ends a failing install_command in BUILD_FAILED; the build log holds the output and filters by level and text", async () => {
  const created = await create(
    sourceBody("build-fails", {
      source_config: { install_command: "echo installing-now; echo broken-dependency >&2; exit 3" },
      source_revision_config: {
        source_tarball_path: sourceDir("build-fails"),
        langgraph_config_path: "langgraph.json",
      },
    }),
  );
  const revision = await h.waitForRevision(created.id, created.latest_revision_id, [
    "BUILD_FAILED",
    "DEPLOYED",
    "DEPLOY_FAILED",
  ]);
  expect(revision.status).toBe("BUILD_FAILED");
  expect(revision.status_message).toMatch(/install_command failed \(exit code 3\)/);
  const all = await logs(created.id, created.latest_revision_id, "build");
  expect(all.map((line) => line.message)).toEqual(expect.arrayContaining(["installing-now", "broken-dependency"]));
  const warnings = await logs(created.id, created.latest_revision_id, "build", "&level=warn&query=BROKEN");
  expect(warnings.map((line) => line.message)).toContain("broken-dependency");
  expect(
    warnings.every((line) => /broken-dependency/.test(line.message) && ["warn", "error"].includes(line.level)),
  ).toBe(true);
  expect(warnings.length).toBeLessThan(all.length);
  // The CLI's word for the level (WARNING) reads the same lines, answered in upper case.
  const cliWarnings = await h.api
    .post(`/v1/projects/${created.id}/revisions/${created.latest_revision_id}/build_logs`)
    .send({ level: "WARNING", query: "BROKEN" });
  expect(cliWarnings.body.logs.map((line: { message: string }) => line.message)).toEqual(
    warnings.map((line) => line.message),
  );
  expect(cliWarnings.body.logs.every((line: { level: string }) => ["WARNING", "ERROR"].includes(line.level))).toBe(
    true,
  );
  // The CLI's form of the same read, paged.
  const page = await h.api
    .post(`/v1/projects/${created.id}/revisions/${created.latest_revision_id}/build_logs`)
    .send({ limit: 2, offset: 0 });
  expect(page.status).toBe(200);
  expect(page.body.logs).toHaveLength(2);
  expect(page.body.next_offset).toBe(2);
  // The log read as BUILD_FAILED appeared was complete: its last line is the transition's own.
  expect(all.at(-1)!.message).toMatch(/^status BUILDING -> BUILD_FAILED/);
  const desc = await h.api
    .post(`/v1/projects/${created.id}/revisions/${created.latest_revision_id}/build_logs`)
    .send({ order: "desc", limit: 1 });
  expect(desc.body.logs[0].message).toBe(all.at(-1)!.message);
});

it("ends a revision whose langgraph.json names a missing file in BUILD_FAILED", async () => {
  const created = await create(
    sourceBody("graph-missing", {
      source_config: {},
      source_revision_config: {
        source_tarball_path: sourceDir("graph-missing", true),
        langgraph_config_path: "langgraph.json",
      },
    }),
  );
  const revision = await h.waitForRevision(created.id, created.latest_revision_id, [
    "BUILD_FAILED",
    "DEPLOYED",
    "DEPLOY_FAILED",
  ]);
  expect(revision).toMatchObject({
    status: "BUILD_FAILED",
    status_message: expect.stringMatching(/agent: \.\/src\/agent\.ts:graph does not exist/),
  });
});

it("skips a revision overtaken by a newer one before it deployed, and deploys the newer one", async () => {
  await h.runtime.close();
  try {
    const created = await create(dockerBody("overtaken", { source_config: { custom_url: ok.url } }));
    const patched = (
      await h.api
        .patch(`/v2/deployments/${created.id}`)
        .send({ source_revision_config: { image_uri: "example/agent:2" } })
    ).body;
    expect(patched.latest_revision_id).not.toBe(created.latest_revision_id);
    await h.restart();
    const newer = await h.waitForRevision(created.id, patched.latest_revision_id, ["DEPLOYED", "DEPLOY_FAILED"]);
    expect(newer.status).toBe("DEPLOYED");
    const older = await h.waitForRevision(created.id, created.latest_revision_id, ["SKIPPED", "DEPLOYED"]);
    expect(older).toMatchObject({ status: "SKIPPED", status_message: expect.stringMatching(/overtaken/) });
    const list = (await h.api.get(`/v2/deployments/${created.id}/revisions`)).body.resources;
    expect(list.map((r: { id: string }) => r.id)).toEqual([patched.latest_revision_id, created.latest_revision_id]);
    const skipped = (await h.api.get(`/v2/deployments/${created.id}/revisions?status=SKIPPED,BUILD_FAILED`)).body
      .resources;
    expect(skipped.map((r: { id: string }) => r.id)).toEqual([created.latest_revision_id]);
  } finally {
    await h.restart();
  }
});

it("resumes a revision cut off mid-step by a restart, and marks one cut off too often INTERRUPTED", async () => {
  await h.runtime.close();
  const resumed = await create(dockerBody("resumed", { source_config: { custom_url: ok.url } }));
  const interrupted = await create(dockerBody("interrupted", { source_config: { custom_url: ok.url } }));
  // What a crash leaves behind: revisions whose status says a step was running, untouched since
  // (their lease expired); a fresh one is held by a live reconciler and left alone.
  const stale = new Date(Date.now() - 120_000);
  const held = await create(dockerBody("held", { source_config: { custom_url: ok.url } }));
  await h.db.revision.update({ where: { id: held.latest_revision_id }, data: { status: "DEPLOYING" } });
  await h.db.revision.update({
    where: { id: resumed.latest_revision_id },
    data: { status: "DEPLOYING", updatedAt: stale },
  });
  await h.db.revision.update({
    where: { id: interrupted.latest_revision_id },
    data: { status: "DEPLOYING", interruptions: 2, updatedAt: stale },
  });
  await h.db.deployment.updateMany({ where: { id: { in: [resumed.id, interrupted.id] } }, data: { status: "READY" } });
  await h.restart();
  const a = await h.waitForRevision(resumed.id, resumed.latest_revision_id, [
    "DEPLOYED",
    "INTERRUPTED",
    "DEPLOY_FAILED",
  ]);
  expect(a.status).toBe("DEPLOYED");
  const b = await h.waitForRevision(interrupted.id, interrupted.latest_revision_id, [
    "DEPLOYED",
    "INTERRUPTED",
    "DEPLOY_FAILED",
  ]);
  expect(b).toMatchObject({
    status: "INTERRUPTED",
    status_message: expect.stringMatching(/cut off by a restart during DEPLOYING/),
  });
  expect((await h.db.revision.findUniqueOrThrow({ where: { id: held.latest_revision_id } })).status).toBe("DEPLOYING");
  await h.db.revision.update({ where: { id: held.latest_revision_id }, data: { status: "DEPLOY_FAILED" } });
  const lines = (await logs(resumed.id, resumed.latest_revision_id, "deploy")).map((line) => line.message);
  expect(lines).toEqual(
    expect.arrayContaining(["resuming after an interruption during DEPLOYING", "status DEPLOYING -> AWAITING_DEPLOY"]),
  );
});

it("moves a revision only from the status it expects (guarded transitions)", async () => {
  await h.runtime.close();
  try {
    const created = await create(dockerBody("guarded", { source_config: { custom_url: ok.url } }));
    const repository = new RevisionRepository(h.db);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => repository.transition(created.latest_revision_id, "CREATING", "QUEUED")),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await repository.transition(created.latest_revision_id, "CREATING", "CREATE_FAILED")).toBe(false);
    expect((await repository.findById(created.latest_revision_id))!.status).toBe("QUEUED");
  } finally {
    await h.restart();
  }
});

it("lets two reconcilers race on one revision: each transition happens once, and it ends DEPLOYED", async () => {
  await h.runtime.close();
  try {
    const created = await create(dockerBody("raced", { source_config: { custom_url: ok.url } }));
    const other = createReconcilerRuntime(h.config, h.db, h.logger, { queue: new InProcessQueue(h.logger) });
    const mine = createReconcilerRuntime(h.config, h.db, h.logger, { queue: new InProcessQueue(h.logger) });
    const job = { type: "revision" as const, revisionId: created.latest_revision_id };
    await Promise.all([other.reconciler.handle(job), mine.reconciler.handle(job), other.reconciler.handle(job)]);
    const revision = await h.waitForRevision(created.id, created.latest_revision_id, [
      "DEPLOYED",
      "DEPLOY_FAILED",
      "INTERRUPTED",
    ]);
    expect(revision.status).toBe("DEPLOYED");
    const lines = (await logs(created.id, created.latest_revision_id, "deploy")).map((line) => line.message);
    for (const transition of [
      "status CREATING -> QUEUED",
      "status QUEUED -> AWAITING_DEPLOY",
      "status AWAITING_DEPLOY -> DEPLOYING",
    ]) {
      expect(lines.filter((line) => line === transition)).toHaveLength(1);
    }
    expect((await h.db.revision.findUniqueOrThrow({ where: { id: created.latest_revision_id } })).interruptions).toBe(
      0,
    );
  } finally {
    await h.restart();
  }
});

it("redeploys an earlier revision as a new revision with its configuration (rollback)", async () => {
  const created = await create(
    dockerBody("rollback", { source_config: { custom_url: ok.url }, secrets: [{ name: "TOKEN", value: "first" }] }),
  );
  await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYED"]);
  const patched = (
    await h.api
      .patch(`/v2/deployments/${created.id}`)
      .send({ source_revision_config: { image_uri: "example/agent:2" }, secrets: [{ name: "TOKEN", value: "second" }] })
  ).body;
  await h.waitForRevision(created.id, patched.latest_revision_id, ["DEPLOYED"]);
  const redeployed = await h.api.post(`/v2/deployments/${created.id}/revisions/${created.latest_revision_id}/redeploy`);
  expect(redeployed.status).toBe(200);
  const third = redeployed.body.latest_revision_id;
  expect([created.latest_revision_id, patched.latest_revision_id]).not.toContain(third);
  expect(redeployed.body.source_revision_config.image_uri).toBe("example/agent:1");
  const revision = await h.waitForRevision(created.id, third, ["DEPLOYED", "DEPLOY_FAILED"]);
  expect(revision).toMatchObject({ status: "DEPLOYED", source_revision_config: { image_uri: "example/agent:1" } });
  expect((await h.api.get(`/v2/deployments/${created.id}`)).body.active_revision_id).toBe(third);
  const [row] = await h.db.$queryRaw<
    { secrets: { value: string }[] }[]
  >`SELECT secrets FROM deployments WHERE id = ${created.id}::uuid`;
  expect(h.cipher.decrypt(row.secrets[0].value)).toBe("first");
  expect(
    (await h.api.post(`/v2/deployments/${created.id}/revisions/00000000-0000-0000-0000-000000000000/redeploy`)).status,
  ).toBe(404);
});

it("deletes a deployment: AWAITING_DELETE, then gone (404) with its database dropped", async () => {
  const created = await create(dockerBody("deleted", { source_config: { custom_url: ok.url } }));
  await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYED"]);
  expect(await databaseExists(databaseName(created.id))).toBe(true);
  expect((await h.api.delete(`/v2/deployments/${created.id}`)).status).toBe(204);
  const deadline = Date.now() + 30_000;
  while ((await h.api.get(`/v2/deployments/${created.id}`)).status !== 404 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await h.api.get(`/v2/deployments/${created.id}`)).status).toBe(404);
  expect(await databaseExists(databaseName(created.id))).toBe(false);
  expect(await h.db.revision.count({ where: { deploymentId: created.id } })).toBe(0);
});
