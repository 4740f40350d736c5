// langgraph.json's TTL sections: store.ttl gives items written without a ttl an expiry (1.2 s
// here), reads leave it alone when refresh_on_read is false, and the sweeper removes expired rows;
// checkpointer.ttl gives threads created without a ttl an expiry (3 s here) and the sweeper
// applies its strategy. Sweeps run in one process of a deployment at a time (an advisory lock).
import path from "node:path";
import pg from "pg";
import { readGraphProject } from "../../src/graphs/config";
import { checkpointerTtlOf, storeTtlOf } from "../../src/ttl/settings";
import { withSweepLock } from "../../src/ttl/sweep-lock";
import { startTestRuntime } from "../support/harness";

const PROJECT = path.resolve(__dirname, "fixtures/langgraph.json");
let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let db: pg.Client;

beforeAll(async () => {
  rt = await startTestRuntime({ env: { LANGGRAPH_JSON: PROJECT } });
  db = new pg.Client({ connectionString: rt.database.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await rt?.close();
});

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

const storeRow = async (key: string) =>
  (
    await db.query<{ expires_at: Date | null; ttl_minutes: number | null }>(
      "SELECT expires_at, ttl_minutes FROM store_items WHERE namespace = 'ttl' AND key = $1",
      [key],
    )
  ).rows[0];

it("store.ttl: items written without a ttl expire by default, reads do not refresh them, the sweeper removes them", async () => {
  await rt.client.store.putItem(["ttl"], "default", { v: 1 });
  await rt.client.store.putItem(["ttl"], "forever", { v: 2 }, { ttl: null });
  await rt.client.store.putItem(["ttl"], "own", { v: 3 }, { ttl: 60 });
  const written = await storeRow("default");
  expect(written?.ttl_minutes).toBeCloseTo(0.02);
  expect((await storeRow("forever"))?.expires_at).toBeNull();
  expect((await storeRow("own"))?.ttl_minutes).toBe(60);

  // refresh_on_read: false: a read that does not ask leaves the expiry where it was.
  await new Promise((resolve) => setTimeout(resolve, 200));
  await rt.client.store.getItem(["ttl"], "default");
  expect((await storeRow("default"))?.expires_at).toEqual(written?.expires_at);

  expect(await until(async () => (await storeRow("default")) === undefined)).toBe(true);
  expect(await rt.client.store.getItem(["ttl"], "forever")).not.toBeNull();
  expect(await rt.client.store.getItem(["ttl"], "own")).not.toBeNull();
});

it("checkpointer.ttl: threads created without a ttl are swept when it passes; a thread's own ttl wins", async () => {
  const input = { messages: [{ role: "user", content: "hi" }] };
  const kept = await rt.client.threads.create({ ttl: { ttl: 60, strategy: "delete" } });
  // The graph's first run (its loading) goes to the kept thread: the fleeting one's run must end
  // within its 3 s, even on a loaded machine, or the sweep deletes the thread under it.
  await rt.client.runs.wait(kept.thread_id, "agent", { input });
  const fleeting = await rt.client.threads.create();
  await rt.client.runs.wait(fleeting.thread_id, "agent", { input });
  const gone = await until(async () => {
    const answer = await fetch(`${rt.url}/threads/${fleeting.thread_id}`);
    return answer.status === 404;
  });
  expect(gone).toBe(true);
  expect((await rt.client.threads.get(kept.thread_id)).thread_id).toBe(kept.thread_id);
});

it("sweeps in one process at a time: a held sweep lock makes another process skip its sweep", async () => {
  const pool = new pg.Pool({ connectionString: rt.database.url, max: 2 });
  const holder = await pool.connect();
  try {
    await holder.query("SELECT pg_advisory_lock(hashtext('lgp-sweep:drill'))");
    let ran = false;
    expect(await withSweepLock(pool, "drill", async () => (ran = true))).toBe(false);
    expect(ran).toBe(false);
    await holder.query("SELECT pg_advisory_unlock(hashtext('lgp-sweep:drill'))");
    expect(await withSweepLock(pool, "drill", async () => (ran = true))).toBe(true);
    expect(ran).toBe(true);
  } finally {
    holder.release();
    await pool.end();
  }
});

it("refuses TTL settings it cannot honour at start-up, naming the key", () => {
  const project = readGraphProject(PROJECT);
  const withJson = (json: object) => ({ ...project, json: { ...project.json, ...json } });
  expect(() => storeTtlOf(withJson({ store: { ttl: { default_ttl: -1 } } }))).toThrow(/store\.ttl\.default_ttl/);
  expect(() => checkpointerTtlOf(withJson({ checkpointer: { ttl: { strategy: "archive" } } }))).toThrow(
    /checkpointer\.ttl\.strategy/,
  );
});
