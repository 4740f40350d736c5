// Drill: the control plane's database backed up with pg_dump while it serves (a deployment whose
// revisions are still queued) and restored with pg_restore into a fresh database, as the README's
// "Backup and restore" says. A control plane started on it with the same SECRETS_ENCRYPTION_KEY
// takes the same tenant key and serves the same deployments and revisions; what it keeps encrypted
// opens (secrets, an OAuth token, the kept answer of an idempotent create), and with any other key
// it does not; its reconciler drives the revision that was queued at the backup to DEPLOYED.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import request from "supertest";
import { createLogger, dropDatabase, migrate } from "@lgp/server-kit";
import { createEmptyDatabase, REPO_ROOT, type TestDatabase } from "@lgp/server-kit/src/testing";
import { dumpDatabase, restoreDatabase } from "@lgp/server-kit/src/testing/backup";
import { createControlPlaneApp } from "../../src/app";
import { loadControlPlaneConfig } from "../../src/config";
import { createDb, type Db } from "../../src/db";
import { LocalDeployer } from "../../src/deployers/local";
import { OAuthRepository } from "../../src/oauth/repository";
import { InProcessQueue } from "../../src/queue";
import { createReconcilerRuntime, type ReconcilerRuntime } from "../../src/reconciler";
import { generateKey, SecretCipher } from "../../src/secrets/cipher";
import { dockerBody, startHarness, type Harness } from "../deployments/harness";
import { startOkServer } from "../reconciler/setup";

const SECRET = "sk-backed-up-secret";
const ACCESS_TOKEN = "gho_backed-up-access-token";

let work: string;
let h: Harness;
let ok: Awaited<ReturnType<typeof startOkServer>>;
let restored: TestDatabase | undefined;
let server: Server | undefined;
let db: Db | undefined;
let reconciler: ReconcilerRuntime | undefined;
const deploymentIds: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "lgp-cp-backup-"));
  // No reconciler runs here: revisions stay queued, as work in flight at the backup.
  h = await startHarness();
  ok = await startOkServer();
});

afterAll(async () => {
  await reconciler?.close();
  // The deployment's own database, made by the restored control plane's deployer.
  const deployer = reconciler?.deployer;
  if (deployer instanceof LocalDeployer)
    for (const id of deploymentIds) await dropDatabase(deployer.databaseUrl(id)).catch(() => {});
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await db?.$disconnect();
  await restored?.drop();
  await ok?.close();
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A control plane on the restored database: the same key, another address. */
async function serveRestored(url: string): Promise<string> {
  server = createServer();
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadControlPlaneConfig({
    CONTROL_PLANE_DATABASE_URL: url,
    SECRETS_ENCRYPTION_KEY: h.config.SECRETS_ENCRYPTION_KEY,
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: "warn",
    OUTBOUND_ALLOW: "loopback",
    DEPLOYMENTS_DIR: path.join(work, "deployments"),
    LOCAL_DEPLOY_TIMEOUT_SECONDS: "20",
  });
  db = createDb(url, 4);
  const logger = createLogger("control-plane-test", "warn");
  reconciler = createReconcilerRuntime(config, db, logger, { queue: new InProcessQueue(logger) });
  server.on("request", createControlPlaneApp({ config, db, logger, reconcileQueue: reconciler.queue }));
  return publicUrl;
}

test("a backup taken while serving restores deployments, revisions, secrets and tokens under the same key", async () => {
  const create = () =>
    h.api
      .post("/v2/deployments")
      .set("Idempotency-Key", "backed-up-create")
      .send(
        dockerBody("backed-up", { source_config: { custom_url: ok.url }, secrets: [{ name: "KEY", value: SECRET }] }),
      );
  const created = await create();
  expect(created.status).toBe(201);
  deploymentIds.push(created.body.id);
  const id = created.body.id as string;
  // A second revision: the secrets replaced.
  const patched = await h.api.patch(`/v2/deployments/${id}`).send({ secrets: [{ name: "KEY", value: `${SECRET}-2` }] });
  expect(patched.status).toBe(200);
  const provider = await h.api.post("/v2/auth/providers").send({
    provider_id: "forge",
    name: "Forge",
    auth_url: "https://forge.example/authorize",
    token_url: "https://forge.example/token",
    client_id: "backup-client",
    client_secret: "backup-client-secret",
  });
  expect(provider.status).toBe(201);
  // A connection's token, stored as a finished OAuth flow stores it (the flow is oauth/flow.test.ts's).
  const providerRow = await h.db.oAuthProvider.findFirstOrThrow({ where: { providerId: "forge" } });
  await new OAuthRepository(h.db).storeToken({
    tenantId: h.tenantId,
    providerId: providerRow.id,
    userId: "user-1",
    scopes: ["repo"],
    tokenType: "Bearer",
    accessTokenEncrypted: h.cipher.encrypt(ACCESS_TOKEN),
    refreshTokenEncrypted: h.cipher.encrypt("refresh-token"),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  const deployment = (await h.api.get(`/v2/deployments/${id}`)).body;
  const revisions = (await h.api.get(`/v2/deployments/${id}/revisions`)).body;
  expect(revisions.resources.map((revision: { status: string }) => revision.status)).toEqual(["CREATING", "CREATING"]);
  const tokens = (await h.api.get("/v2/auth/tokens?provider_id=forge")).body;
  expect(tokens.map((token: { access_token: string }) => token.access_token)).toEqual([ACCESS_TOKEN]);

  const file = path.join(work, "control-plane.dump");
  await dumpDatabase(h.database.url, file);
  restored = await createEmptyDatabase("t_control_plane_restored");
  await restoreDatabase(file, restored.url);
  // The schema came with the data: the start-up migration (main.ts) has nothing to apply.
  expect((await migrate(restored.url, path.join(REPO_ROOT, "prisma/control-plane/migrations"))).applied).toEqual([]);

  const url = await serveRestored(restored.url);
  // The tenant's key is the one it had: keys are stored (hashed) in the database.
  const api = {
    get: (route: string) => request(url).get(route).set("X-Api-Key", h.apiKey),
    post: (route: string) => request(url).post(route).set("X-Api-Key", h.apiKey),
  };
  expect((await api.get(`/v2/deployments/${id}`)).body).toEqual(deployment);
  expect((await api.get(`/v2/deployments/${id}/revisions`)).body).toEqual(revisions);
  expect((await api.get("/v2/auth/tokens?provider_id=forge")).body).toEqual(tokens);
  // The kept answer of the idempotent create (encrypted: it holds the deployment's API key) opens.
  const repeated = await api
    .post("/v2/deployments")
    .set("Idempotency-Key", "backed-up-create")
    .send(
      dockerBody("backed-up", { source_config: { custom_url: ok.url }, secrets: [{ name: "KEY", value: SECRET }] }),
    );
  expect([repeated.status, repeated.body]).toEqual([201, created.body]);
  // The secrets open with the key, and with no other: the key must be kept with the backups.
  const [row] = await db!.$queryRaw<{ secrets: { name: string; value: string }[] }[]>`
    SELECT secrets FROM deployments WHERE id = ${id}::uuid`;
  expect(row.secrets.map((secret) => h.cipher.decrypt(secret.value))).toEqual([`${SECRET}-2`]);
  expect(() => SecretCipher.fromEncodedKey(generateKey()).decrypt(row.secrets[0].value)).toThrow();

  // The reconciler resumes what was queued at the backup: the latest revision is deployed.
  await reconciler!.start();
  const deadline = Date.now() + 30_000;
  let latest: { status?: string } = {};
  while (latest.status !== "DEPLOYED" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    latest = (await api.get(`/v2/deployments/${id}/revisions/${deployment.latest_revision_id}`)).body;
  }
  expect(latest).toMatchObject({ status: "DEPLOYED" });
}, 60_000);
