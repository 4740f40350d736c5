// The idempotency keys' PostgreSQL storage both services use, on the table their migrations make:
// one claim per live key, what a repeat reads, the claim's token guarding its writes, a claim
// whose request died taken over after its lease, expiry, the sweep and sealed answers.
import pg from "pg";
import { PostgresIdempotencyStorage } from "../src";
import { createTestDatabase, type TestDatabase } from "../src/testing";

let database: TestDatabase;
let pool: pg.Pool;
let storage: PostgresIdempotencyStorage;
const TTL = 3_600;
const LEASE = 300;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  pool = new pg.Pool({ connectionString: database.url, max: 3 });
  storage = new PostgresIdempotencyStorage((text, values) => pool.query(text, values).then((result) => result.rows));
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

let n = 0;
const newKey = () => `key-${++n}`;
const answer = { status: 201, headers: { "content-type": "application/json" }, body: '{"id":1}' };

async function claimed(key: string, fingerprint = "f1"): Promise<string> {
  const outcome = await storage.claim("scope", key, fingerprint, TTL, LEASE);
  if (!outcome.claimed) throw new Error(`expected to claim ${key}`);
  return outcome.token;
}

test("the first claim takes the key; a second sees it pending, then done with the first answer", async () => {
  const key = newKey();
  const token = await claimed(key);
  expect(await storage.claim("scope", key, "f1", TTL, LEASE)).toEqual({
    claimed: false,
    record: { fingerprint: "f1", state: "pending", resource: null, answer: null },
  });
  await storage.started("scope", key, token, { run_id: "r1" });
  expect(await storage.read("scope", key)).toMatchObject({ state: "started", resource: { run_id: "r1" } });
  await storage.complete("scope", key, token, answer);
  expect(await storage.read("scope", key)).toEqual({
    fingerprint: "f1",
    state: "done",
    resource: { run_id: "r1" },
    answer,
  });
  // Another scope's key of the same name is another key.
  expect((await storage.claim("other", key, "f1", TTL, LEASE)).claimed).toBe(true);
});

test("a released key is claimed afresh", async () => {
  const key = newKey();
  await storage.release("scope", key, await claimed(key));
  expect((await storage.claim("scope", key, "f2", TTL, LEASE)).claimed).toBe(true);
});

test("a pending claim past its lease is taken over, and the old claim can no longer write", async () => {
  const key = newKey();
  const stale = await claimed(key);
  await pool.query("UPDATE idempotency_keys SET updated_at = now() - interval '301 seconds' WHERE key = $1", [key]);
  const fresh = await claimed(key, "f2");
  await storage.complete("scope", key, stale, answer);
  await storage.release("scope", key, stale);
  expect(await storage.read("scope", key)).toMatchObject({ fingerprint: "f2", state: "pending" });
  await storage.complete("scope", key, fresh, answer);
  expect(await storage.read("scope", key)).toMatchObject({ state: "done", answer });
});

test("a started or done claim is never taken over however old; an expired one is", async () => {
  const started = newKey();
  await storage.started("scope", started, await claimed(started), { run_id: "r" });
  await pool.query("UPDATE idempotency_keys SET updated_at = now() - interval '1 day' WHERE key = $1", [started]);
  expect((await storage.claim("scope", started, "f1", TTL, LEASE)).claimed).toBe(false);
  // A second in the past: expiry at this very instant would hang on the clocks of two statements.
  await pool.query("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1", [started]);
  expect(await storage.read("scope", started)).toBeUndefined();
  expect((await storage.claim("scope", started, "f1", TTL, LEASE)).claimed).toBe(true);
});

test("the sweep deletes expired keys only", async () => {
  const [expired, live] = [newKey(), newKey()];
  await claimed(expired);
  await claimed(live);
  await pool.query("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1", [expired]);
  expect(await storage.sweep()).toBeGreaterThanOrEqual(1);
  const { rows } = await pool.query("SELECT key FROM idempotency_keys WHERE key = ANY($1)", [[expired, live]]);
  expect(rows.map((row) => row.key)).toEqual([live]);
});

test("a sealed storage keeps answers sealed at rest and opens them on read", async () => {
  const sealed = new PostgresIdempotencyStorage(
    (text, values) => pool.query(text, values).then((result) => result.rows),
    {
      seal: (plain) => `sealed:${Buffer.from(plain).toString("base64")}`,
      open: (text) => Buffer.from(text.slice("sealed:".length), "base64").toString(),
    },
  );
  const key = newKey();
  const outcome = await sealed.claim("scope", key, "f1", TTL, LEASE);
  if (!outcome.claimed) throw new Error("expected a claim");
  await sealed.complete("scope", key, outcome.token, answer);
  const { rows } = await pool.query("SELECT body FROM idempotency_keys WHERE key = $1", [key]);
  expect(rows[0].body).toBe(`sealed:${Buffer.from(answer.body).toString("base64")}`);
  expect((await sealed.read("scope", key))?.answer).toEqual(answer);
});
