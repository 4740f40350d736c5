// The X-Api-Key lookup every request makes is answered from memory for a short while: found keys
// for API_KEY_CACHE_TTL_SECONDS, unknown ones for API_KEY_CACHE_NEGATIVE_TTL_SECONDS, bounded, and
// one lookup for many requests with the same key. To see the cache, keys are changed here with
// PostgreSQL's announcements turned off (session_replication_role = replica skips triggers), so
// only the TTL can end what is cached; api-key-changes.test.ts covers the announced changes.
import { setTimeout as sleep } from "node:timers/promises";
import { Client as PgClient } from "pg";
import { ApiKeyCache } from "../../src/tenants/key-cache";
import { findApiKey, generateApiKey, hashApiKey } from "../../src/tenants/api-keys";
import { startHarness, type Harness } from "../deployments/harness";

const TTL_SECONDS = 2;
let h: Harness;
let unannounced: PgClient;

beforeAll(async () => {
  h = await startHarness({
    env: { API_KEY_CACHE_TTL_SECONDS: String(TTL_SECONDS), API_KEY_CACHE_NEGATIVE_TTL_SECONDS: String(TTL_SECONDS) },
  });
  unannounced = new PgClient({ connectionString: h.database.url });
  await unannounced.connect();
  await unannounced.query("SET session_replication_role = replica");
});
afterAll(async () => {
  await unannounced?.end();
  await h?.close();
});

const statusWith = async (key: string) => (await h.raw.get("/v2/deployments").set("X-Api-Key", key)).status;

async function insertKey(key: string): Promise<void> {
  await unannounced.query(
    "INSERT INTO api_keys (id, tenant_id, key_hash, prefix, name) VALUES (gen_random_uuid(), $1, $2, $3, 'unannounced')",
    [h.tenantId, hashApiKey(key), key.slice(0, 8)],
  );
}

test("a found key is answered from memory until its TTL, then asked of the database again", async () => {
  const key = generateApiKey();
  await insertKey(key);
  expect(await statusWith(key)).toBe(200);
  await unannounced.query("DELETE FROM api_keys WHERE key_hash = $1", [hashApiKey(key)]);
  expect(await statusWith(key)).toBe(200);
  await sleep(TTL_SECONDS * 1000 + 200);
  expect(await statusWith(key)).toBe(401);
});

test("an unknown key is refused from memory until its TTL, then asked again", async () => {
  const key = generateApiKey();
  expect(await statusWith(key)).toBe(401);
  await insertKey(key);
  expect(await statusWith(key)).toBe(401);
  await sleep(TTL_SECONDS * 1000 + 200);
  expect(await statusWith(key)).toBe(200);
});

describe("the cache itself, over the test database", () => {
  let lookups = 0;
  const load = (keyHash: string) => {
    lookups++;
    return findApiKey(h.db, keyHash);
  };

  test("many requests with one key at once cost one lookup, a bad key's flood included", async () => {
    const cache = new ApiKeyCache(load, { maxEntries: 10, ttlMs: 60_000, negativeTtlMs: 60_000 });
    lookups = 0;
    const found = await Promise.all(Array.from({ length: 50 }, () => cache.resolve(h.apiKey)));
    expect(found.every((resolved) => resolved?.tenantId === h.tenantId)).toBe(true);
    const bad = generateApiKey();
    const refused = await Promise.all(Array.from({ length: 50 }, () => cache.resolve(bad)));
    expect(refused.every((resolved) => resolved === null)).toBe(true);
    await cache.resolve(h.apiKey);
    await cache.resolve(bad);
    expect(lookups).toBe(2);
  });

  test("bounded: past its size the least recently used go first; unknown keys never push found ones out", async () => {
    const cache = new ApiKeyCache(load, { maxEntries: 3, ttlMs: 60_000, negativeTtlMs: 60_000 });
    await cache.resolve(h.apiKey);
    for (let i = 0; i < 20; i++) await cache.resolve(generateApiKey());
    expect(cache.size).toEqual({ found: 1, unknown: 3 });
    lookups = 0;
    await cache.resolve(h.apiKey);
    expect(lookups).toBe(0);

    const others = [generateApiKey(), generateApiKey(), generateApiKey()];
    for (const key of others) await insertKey(key);
    for (const key of others) await cache.resolve(key);
    expect(cache.size.found).toBe(3);
    lookups = 0;
    // h.apiKey was the least recently used of the four: it went first, the newest stayed.
    await cache.resolve(others[2]);
    expect(lookups).toBe(0);
    await cache.resolve(h.apiKey);
    expect(lookups).toBe(1);
  });

  test("a lookup that began before a change is not kept", async () => {
    const cache = new ApiKeyCache(load, { maxEntries: 10, ttlMs: 60_000, negativeTtlMs: 60_000 });
    const before = cache.resolve(h.apiKey);
    cache.forget(hashApiKey(h.apiKey));
    expect((await before)?.tenantId).toBe(h.tenantId);
    lookups = 0;
    await cache.resolve(h.apiKey);
    expect(lookups).toBe(1);
  });
});
