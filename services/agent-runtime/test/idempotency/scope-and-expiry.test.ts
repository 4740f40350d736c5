// Whose keys they are and for how long: a key is one caller's (a deployment key, or a custom-auth
// user), so another caller sending the same key gets a resource of its own; a key is kept
// IDEMPOTENCY_KEY_TTL_SECONDS, after which it may be used afresh, and expired keys are swept.
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { runtimeKeyHash } from "@lgp/server-kit";
import { startTestRuntime } from "../support/harness";

const FIXTURE = path.resolve(__dirname, "../auth/fixtures/langgraph.json");
const KEY_A = `lgp_rt_${randomUUID()}`;
const KEY_B = `lgp_rt_${randomUUID()}`;
const TTL_SECONDS = 3_600;

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let db: pg.Client;

beforeAll(async () => {
  // Custom auth (Bearer alice / bob) and two deployment keys, which stand for the studio user.
  rt = await startTestRuntime({
    workers: 1,
    env: {
      LANGGRAPH_JSON: FIXTURE,
      API_KEY_HASHES: `${runtimeKeyHash(KEY_A)},${runtimeKeyHash(KEY_B)}`,
      IDEMPOTENCY_KEY_TTL_SECONDS: String(TTL_SECONDS),
    },
  });
  db = new pg.Client({ connectionString: rt.database.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await rt?.close();
});

async function createThread(caller: Record<string, string>, key: string, tag: string) {
  const response = await fetch(`${rt.url}/threads`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": key, ...caller },
    body: JSON.stringify({ metadata: { tag } }),
  });
  expect(response.status).toBe(200);
  return {
    threadId: ((await response.json()) as { thread_id: string }).thread_id,
    replayed: response.headers.get("idempotent-replayed") === "true",
  };
}

const callers: Record<string, Record<string, string>> = {
  alice: { authorization: "Bearer alice" },
  bob: { authorization: "Bearer bob" },
  "deployment key A": { "x-api-key": KEY_A },
  "deployment key B": { "x-api-key": KEY_B },
};

test("each caller's key is its own: the same key from four callers makes four threads, each repeated once", async () => {
  const key = randomUUID();
  const tag = randomUUID();
  const made: Record<string, string> = {};
  for (const [name, caller] of Object.entries(callers)) made[name] = (await createThread(caller, key, tag)).threadId;
  expect(new Set(Object.values(made)).size).toBe(4);
  for (const [name, caller] of Object.entries(callers)) {
    expect(await createThread(caller, key, tag)).toEqual({ threadId: made[name], replayed: true });
  }
  const { rows } = await db.query("SELECT scope FROM idempotency_keys WHERE key = $1 ORDER BY scope", [key]);
  // Keys are named by the start of their hash, never the key itself.
  expect(rows.map((row) => row.scope)).toEqual([
    expect.stringMatching(/^key:[0-9a-f]{24}$/),
    expect.stringMatching(/^key:[0-9a-f]{24}$/),
    "user:alice",
    "user:bob",
  ]);
});

test("a key is kept IDEMPOTENCY_KEY_TTL_SECONDS; once expired it makes a new resource, and the sweep deletes it", async () => {
  const key = randomUUID();
  const kept = randomUUID();
  const tag = randomUUID();
  const first = await createThread(callers.alice!, key, tag);
  await createThread(callers.alice!, kept, tag);
  const { rows } = await db.query(
    "SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM idempotency_keys WHERE key = $1",
    [key],
  );
  expect(rows[0].ttl).toBe(TTL_SECONDS);
  // The key's time runs out (as if a day had passed).
  await db.query("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1", [key]);
  const later = await createThread(callers.alice!, key, tag);
  expect(later.replayed).toBe(false);
  expect(later.threadId).not.toBe(first.threadId);
  // Expired again, then swept: the row goes, unexpired ones stay.
  await db.query("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1", [key]);
  expect(await rt.runtime.idempotency.sweep()).toBeGreaterThanOrEqual(1);
  const left = await db.query("SELECT key FROM idempotency_keys WHERE key = ANY($1)", [[key, kept]]);
  expect(left.rows.map((row) => row.key)).toEqual([kept]);
});
