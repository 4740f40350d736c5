import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { createTenantKey, hashApiKey } from "../../src/tenants/api-keys";
import { dockerBody, startHarness, type Harness } from "../deployments/harness";

const run = promisify(execFile);

// Tenant A owns a deployment; tenant B must not be able to tell it exists.
let h: Harness;
let keyB: string;
let ownedByA: { id: string; latest_revision_id: string; api_key_prefix: string };
beforeAll(async () => {
  h = await startHarness();
  keyB = (await createTenantKey(h.db, "tenant-b")).apiKey;
  ownedByA = (await h.api.post("/v2/deployments").send(dockerBody("owned-by-a"))).body;
});
afterAll(async () => {
  await h.close();
});

const asB = {
  get: (p: string) => h.raw.get(p).set("X-Api-Key", keyB),
  post: (p: string) => h.raw.post(p).set("X-Api-Key", keyB),
  patch: (p: string) => h.raw.patch(p).set("X-Api-Key", keyB),
  delete: (p: string) => h.raw.delete(p).set("X-Api-Key", keyB),
};

it("tenant B cannot read, list, patch or delete tenant A's deployment (404, as if it did not exist)", async () => {
  const base = `/v2/deployments/${ownedByA.id}`;
  const revision = `${base}/revisions/${ownedByA.latest_revision_id}`;
  for (const res of [
    await asB.get(base),
    await asB.patch(base).send({ source_config: { install_command: "x" } }),
    await asB.delete(base),
    await asB.get(`${base}/revisions`),
    await asB.get(revision),
    await asB.post(`${revision}/redeploy`),
    await asB.post(`${base}/api-key`),
    await asB.get(`${revision}/logs/deploy`),
    await asB.post(`/v1/projects/${ownedByA.id}/revisions/${ownedByA.latest_revision_id}/build_logs`).send({}),
    await asB.post(`/v1/projects/${ownedByA.id}/deploy_logs`).send({}),
  ]) {
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.stringMatching(/not found/) });
  }
  expect((await asB.get(base)).body).toEqual({ detail: `Deployment ${ownedByA.id} not found` });
  const listed = await asB.get(`/v2/deployments?deployment_ids=${ownedByA.id}`);
  expect(listed.status).toBe(200);
  expect(listed.body.resources).toEqual([]);
  expect((await asB.get("/v2/deployments?name_contains=owned")).body.resources).toEqual([]);
  const bulk = await asB.delete(`/v2/deployments?deployment_ids=${ownedByA.id}`);
  expect(bulk.status).toBe(207);
  expect(bulk.body.results[0].status).toBe(404);
  // Still there, untouched, for its owner.
  const mine = await h.api.get(base);
  expect(mine.status).toBe(200);
  expect(mine.body.status).toBe("AWAITING_DATABASE");
  expect(mine.body.tenant_id).toBe(h.tenantId);
  // B's rotation attempt changed nothing: A's runtime key and revisions are as they were.
  expect(mine.body.api_key_prefix).toBe(ownedByA.api_key_prefix);
  expect(mine.body.latest_revision_id).toBe(ownedByA.latest_revision_id);
});

it("scopes names per tenant and lists only the caller's deployments", async () => {
  const sameName = await asB.post("/v2/deployments").send(dockerBody("owned-by-a"));
  expect(sameName.status).toBe(201);
  expect(sameName.body.tenant_id).not.toBe(h.tenantId);
  const listA = (await h.api.get("/v2/deployments?limit=100")).body.resources as { tenant_id: string }[];
  const listB = (await asB.get("/v2/deployments?limit=100")).body.resources as { tenant_id: string; id: string }[];
  expect(listA.every((d) => d.tenant_id === h.tenantId)).toBe(true);
  expect(listB.map((d) => d.id)).toEqual([sameName.body.id]);
  expect((await h.api.get(`/v2/deployments/${sameName.body.id}`)).status).toBe(404);
});

it("refuses an X-Tenant-Id that is not the key's tenant (403), accepts the right one", async () => {
  expect((await h.api.get("/v2/deployments").set("X-Tenant-Id", "00000000-0000-0000-0000-000000000000")).status).toBe(
    403,
  );
  expect((await h.api.get("/v2/deployments").set("X-Tenant-Id", h.tenantId)).status).toBe(200);
});

it("GET /v2/tenant answers the key's own tenant; 401 without a valid key, 403 for another X-Tenant-Id", async () => {
  const mine = await h.api.get("/v2/tenant");
  expect(mine.status).toBe(200);
  const rowA = await h.db.tenant.findUniqueOrThrow({ where: { id: h.tenantId } });
  expect(mine.body).toEqual({ id: h.tenantId, name: "tenant-a", created_at: rowA.createdAt.toISOString() });
  const theirs = await asB.get("/v2/tenant");
  expect(theirs.status).toBe(200);
  expect(theirs.body).toMatchObject({ name: "tenant-b", created_at: expect.any(String) });
  expect(theirs.body.id).not.toBe(h.tenantId);
  expect(theirs.body.id).toBe((await h.db.tenant.findUniqueOrThrow({ where: { name: "tenant-b" } })).id);
  const anonymous = await h.raw.get("/v2/tenant");
  expect(anonymous.status).toBe(401);
  expect(anonymous.body).toEqual({ detail: "Missing X-Api-Key header" });
  expect((await h.raw.get("/v2/tenant").set("X-Api-Key", "lgp_not-a-key")).status).toBe(401);
  expect((await asB.get("/v2/tenant").set("X-Tenant-Id", h.tenantId)).status).toBe(403);
  expect((await h.api.get("/v2/tenant").set("X-Tenant-Id", h.tenantId)).body.id).toBe(h.tenantId);
});

it("stores API keys hashed", async () => {
  const rows = await h.db.apiKey.findMany();
  expect(rows.map((row) => row.keyHash)).toContain(hashApiKey(keyB));
  expect(JSON.stringify(rows)).not.toContain(keyB);
});

it("the tenants command creates a tenant and prints its key once; the key works", async () => {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, CONTROL_PLANE_DATABASE_URL: h.database.url };
  const cli = path.join(REPO_ROOT, "services/control-plane/src/tenants/cli.ts");
  const { stdout } = await run(process.execPath, ["--import", "tsx", cli, "create", "cli-tenant"], {
    env,
    cwd: REPO_ROOT,
  });
  const key = /api key \(shown once, send it as X-Api-Key\): (lgp_[0-9a-f]{40})/.exec(stdout)?.[1];
  expect(key).toBeDefined();
  const res = await h.raw.get("/v2/deployments").set("X-Api-Key", key!);
  expect(res.status).toBe(200);
  expect(res.body.resources).toEqual([]);
  const again = run(process.execPath, ["--import", "tsx", cli, "create", "cli-tenant"], { env, cwd: REPO_ROOT });
  await expect(again).rejects.toMatchObject({ stderr: expect.stringMatching(/already exists/) });
  const bad = run(process.execPath, ["--import", "tsx", cli, "create", "Bad Name"], { env, cwd: REPO_ROOT });
  await expect(bad).rejects.toMatchObject({ stderr: expect.stringMatching(/usage: tenants/) });
});
