// A cached X-Api-Key answer is forgotten as soon as the key changes, by every replica, whoever
// changed it: PostgreSQL announces each change of api_keys when it commits (a trigger) and each
// control plane listens. The TTLs here are long (60 s), so only the announcement can explain a
// change seen within the 3 s these tests wait.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { Client as PgClient } from "pg";
import { REPO_ROOT, testServerUrl } from "@lgp/server-kit/src/testing";
import { createControlPlaneApp } from "../../src/app";
import { createDb, type Db } from "../../src/db";
import { createTenantKey, findApiKey, generateApiKey, hashApiKey } from "../../src/tenants/api-keys";
import { ApiKeyCache } from "../../src/tenants/key-cache";
import { KeyChangeListener } from "../../src/tenants/key-changes";
import { startApiKeys, type ApiKeys } from "../../src/tenants/key-resolver";
import { CuttingProxy } from "../database/cutting-proxy";
import { startHarness, type Harness } from "../deployments/harness";

const run = promisify(execFile);
const SOON_MS = 3_000;

let h: Harness;
// A second replica on the same database, with its own cache and listener.
let replica: { url: string; db: Db; apiKeys: ApiKeys; server: Server };

beforeAll(async () => {
  h = await startHarness({ env: { API_KEY_CACHE_TTL_SECONDS: "60", API_KEY_CACHE_NEGATIVE_TTL_SECONDS: "60" } });
  const db = createDb(h.database.url, 2);
  const apiKeys = await startApiKeys(h.config, db, h.logger);
  const server = createServer(createControlPlaneApp({ config: h.config, db, logger: h.logger, apiKeys }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  replica = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, db, apiKeys, server };
});
afterAll(async () => {
  replica?.server.closeAllConnections();
  await new Promise((resolve) => replica?.server.close(resolve));
  await replica?.apiKeys.close();
  await replica?.db.$disconnect();
  await h?.close();
});

async function statusAt(base: string, key: string): Promise<number> {
  return (await fetch(`${base}/v2/deployments`, { headers: { "x-api-key": key } })).status;
}

/** Both replicas' answers to `key`, asked until both are `status` (or SOON_MS passed). */
async function bothSoon(key: string, status: number): Promise<number[]> {
  const deadline = Date.now() + SOON_MS;
  for (;;) {
    const seen = [await statusAt(h.url, key), await statusAt(replica.url, key)];
    if (seen.every((answer) => answer === status) || Date.now() > deadline) return seen;
    await sleep(50);
  }
}

test("a key refused a moment ago is accepted as soon as it is created", async () => {
  const key = generateApiKey();
  expect([await statusAt(h.url, key), await statusAt(replica.url, key)]).toEqual([401, 401]);
  await createTenantKey(h.db, "tenant-created-later", "ci", key);
  expect(await bothSoon(key, 200)).toEqual([200, 200]);
});

test("a key revoked with `npm run tenants -- revoke-key` is refused by every replica at once", async () => {
  const { apiKey } = await createTenantKey(h.db, "tenant-rotating");
  const { apiKey: next } = await createTenantKey(h.db, "tenant-rotating", "next");
  expect(await bothSoon(apiKey, 200)).toEqual([200, 200]);
  const cli = (...args: string[]) =>
    run(
      process.execPath,
      ["--import", "tsx", path.join(REPO_ROOT, "services/control-plane/src/tenants/cli.ts"), ...args],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, CONTROL_PLANE_DATABASE_URL: h.database.url },
        cwd: REPO_ROOT,
      },
    );
  const listed = (await cli("keys", "tenant-rotating")).stdout;
  expect(listed).toContain(`${apiKey.slice(0, 8)}\tdefault\t`);
  expect(listed).toContain(`${next.slice(0, 8)}\tnext\t`);

  const { stdout } = await cli("revoke-key", "tenant-rotating", apiKey);
  expect(stdout).toContain(`revoked key ${apiKey.slice(0, 8)} of tenant tenant-rotating`);
  expect(await bothSoon(apiKey, 401)).toEqual([401, 401]);
  // The rotation's other half: the new key goes on working.
  expect([await statusAt(h.url, next), await statusAt(replica.url, next)]).toEqual([200, 200]);
  expect((await cli("keys", "tenant-rotating")).stdout).not.toContain(apiKey.slice(0, 8));
});

test("deleting a tenant is announced for each of its keys", async () => {
  const first = await createTenantKey(h.db, "tenant-leaving");
  const { apiKey: second } = await createTenantKey(h.db, "tenant-leaving", "second");
  for (const key of [first.apiKey, second]) expect(await bothSoon(key, 200)).toEqual([200, 200]);
  await h.db.tenant.delete({ where: { id: first.tenantId } });
  for (const key of [first.apiKey, second]) expect(await bothSoon(key, 401)).toEqual([401, 401]);
});

test("when the listening connection is cut, the cache is emptied once it listens again", async () => {
  const { apiKey } = await createTenantKey(h.db, "tenant-listener-cut");
  expect(await bothSoon(apiKey, 200)).toEqual([200, 200]);
  const admin = new PgClient({ connectionString: testServerUrl() });
  await admin.connect();
  try {
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [h.database.name]);
  } finally {
    await admin.end();
  }
  // Deleted without an announcement: only the emptying on reconnect can make it known.
  const unannounced = new PgClient({ connectionString: h.database.url });
  await unannounced.connect();
  try {
    await unannounced.query("SET session_replication_role = replica");
    await unannounced.query("DELETE FROM api_keys WHERE key_hash = $1", [hashApiKey(apiKey)]);
  } finally {
    await unannounced.end();
  }
  expect(await bothSoon(apiKey, 401)).toEqual([401, 401]);
});

test("a listening connection that died silently is found by the heartbeat, and the cache emptied", async () => {
  const proxy = await CuttingProxy.start(h.database.url);
  let lookups = 0;
  const cache = new ApiKeyCache(
    (keyHash) => {
      lookups++;
      return findApiKey(h.db, keyHash);
    },
    { maxEntries: 10, ttlMs: 60_000, negativeTtlMs: 60_000 },
  );
  const listener = new KeyChangeListener(proxy.url, cache, h.logger, { heartbeatMs: 200 });
  await listener.start();
  try {
    await cache.resolve(h.apiKey);
    await cache.resolve(h.apiKey);
    expect(lookups).toBe(1);
    // PostgreSQL's side is gone; the listener's socket still looks open, and it sends nothing.
    proxy.cutSilently();
    const deadline = Date.now() + SOON_MS;
    while (lookups === 1 && Date.now() < deadline) {
      await sleep(100);
      await cache.resolve(h.apiKey);
    }
    expect(lookups).toBe(2);
  } finally {
    await listener.close();
    await proxy.close();
  }
});
