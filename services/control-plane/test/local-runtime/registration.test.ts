// The runtime `npm start` runs beside the control plane becomes deployment "local" of the bootstrap
// tenant: registered once however often the control plane starts, moved when its URL changes, its
// key's hash replaced when its key does; its key is answered to that tenant alone.
import { runtimeKeyHash } from "@lgp/server-kit";
import { loadControlPlaneConfig } from "../../src/config";
import { DeploymentRepository } from "../../src/deployments/repository";
import { DeploymentService } from "../../src/deployments/service";
import { registerLocalRuntime, type LocalRuntimeEntry } from "../../src/local-runtime";
import { InProcessQueue } from "../../src/queue";
import { createTenantKey } from "../../src/tenants/api-keys";
import { startHarness, type Harness } from "../deployments/harness";

const KEY = "lgp_local_runtime_key_0000000000000000000001";
let h: Harness;
let entry: LocalRuntimeEntry | undefined;

beforeAll(async () => {
  h = await startHarness({ localRuntime: () => entry });
});
afterAll(() => h.close());

const register = (url: string, apiKey = KEY) => {
  const repository = new DeploymentRepository(h.db);
  // An unstarted queue: the jobs wait in the database, as before a reconciler starts.
  const service = new DeploymentService(repository, h.cipher, new InProcessQueue(h.logger), h.logger);
  return registerLocalRuntime(service, repository, h.tenantId, { url, apiKey }, h.logger);
};
const locals = async () => (await h.api.get("/v2/deployments?name=local").expect(200)).body.resources;

test("a restart registers nothing twice; a new URL makes a new revision; a new key replaces the hash", async () => {
  entry = await register("http://localhost:8123");
  expect(await register("http://localhost:8123")).toEqual(entry);
  const [local] = await locals();
  expect((await locals()).length).toBe(1);
  expect(local).toMatchObject({ id: entry.deploymentId, source: "external_docker" });
  expect(local.source_config.custom_url).toBe("http://localhost:8123");
  const row = await h.db.deployment.findUniqueOrThrow({ where: { id: entry.deploymentId } });
  expect(row.runtimeKeyHash).toBe(runtimeKeyHash(KEY));

  await register("http://localhost:9123", `${KEY}2`);
  const revisions = (await h.api.get(`/v2/deployments/${entry.deploymentId}/revisions`).expect(200)).body.resources;
  expect(revisions.length).toBe(2);
  const moved = await h.db.deployment.findUniqueOrThrow({ where: { id: entry.deploymentId } });
  expect((moved.sourceConfig as { custom_url: string }).custom_url).toBe("http://localhost:9123");
  expect(moved.runtimeKeyHash).toBe(runtimeKeyHash(`${KEY}2`));
});

test("its key is answered to its tenant, not cached; another tenant is told there is none", async () => {
  entry = await register("http://localhost:8123");
  const answer = await h.api.get("/v2/local-runtime").expect(200);
  expect(answer.headers["cache-control"]).toBe("no-store");
  expect(answer.body).toEqual({ deployment_id: entry.deploymentId, url: "http://localhost:8123", api_key: KEY });
  const other = await createTenantKey(h.db, "tenant-b");
  const refused = await h.raw.get("/v2/local-runtime").set("X-Api-Key", other.apiKey).expect(404);
  expect(JSON.stringify(refused.body)).not.toContain(KEY);
});

test("the two settings go together, and need the bootstrap tenant", () => {
  const base = { CONTROL_PLANE_DATABASE_URL: h.database.url, SECRETS_ENCRYPTION_KEY: h.config.SECRETS_ENCRYPTION_KEY };
  expect(() => loadControlPlaneConfig({ ...base, LOCAL_RUNTIME_URL: "http://localhost:8123" })).toThrow(
    /LOCAL_RUNTIME_API_KEY/,
  );
  expect(() =>
    loadControlPlaneConfig({ ...base, LOCAL_RUNTIME_URL: "http://localhost:8123", LOCAL_RUNTIME_API_KEY: KEY }),
  ).toThrow(/BOOTSTRAP_API_KEY/);
});
