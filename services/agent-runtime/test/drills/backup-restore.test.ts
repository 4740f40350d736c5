// Drill: a deployment's database backed up with pg_dump while it serves (runs in flight and queued)
// and restored with pg_restore into a fresh database, as the README's "Backup and restore" says; a
// runtime started on it with an empty Redis (another prefix) serves the same assistant, threads,
// states, history and store, and every run the backup holds unfinished ends once: the ones that were
// running resume from the last checkpoint the backup holds, the queued ones run, none runs twice.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client as PgClient } from "pg";
import { migrate } from "@lgp/server-kit";
import { createEmptyDatabase, createTestDatabase, REPO_ROOT, type TestDatabase } from "@lgp/server-kit/src/testing";
import { dumpDatabase, restoreDatabase } from "@lgp/server-kit/src/testing/backup";
import { startRuntime, type RunningRuntime } from "../support/harness";

// A short lock: the restored runtime's sweep hands back runs the backup holds `running` after
// 2 × RUN_LOCK_MS (30 s by default: a minute).
const ENV = { RUN_LOCK_MS: "1000" };
const SLOW = { delay_ms: 2_000 };

let work: string;
let source: TestDatabase;
let restored: TestDatabase | undefined;
let before: RunningRuntime | undefined;
let after: RunningRuntime | undefined;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "lgp-backup-"));
  source = await createTestDatabase("agent-runtime");
  before = await startRuntime(source.url, { redis: true, workers: 2, env: ENV });
});

afterAll(async () => {
  await before?.close();
  await after?.close();
  await restored?.drop();
  await source?.drop();
  rmSync(work, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The runs of a database, as its backup holds them. */
async function runsIn(url: string): Promise<Record<string, { status: string; thread_id: string }>> {
  const sql = new PgClient({ connectionString: url });
  await sql.connect();
  try {
    const { rows } = await sql.query<{ run_id: string; status: string; thread_id: string }>(
      "SELECT run_id, status, thread_id FROM runs",
    );
    return Object.fromEntries(rows.map(({ run_id, ...row }) => [run_id, row]));
  } finally {
    await sql.end();
  }
}

test("a backup taken while runs are in flight restores threads, states, store and runs; each run ends once", async () => {
  const client = before!.client;
  // Finished work.
  const assistant = await client.assistants.create({ graphId: "steps", name: "backed-up", metadata: { drill: 1 } });
  const done = await client.threads.create({ metadata: { drill: "done" } });
  const doneRun = await client.runs.create(done.thread_id, assistant.assistant_id, { input: {} });
  await client.runs.join(done.thread_id, doneRun.run_id);
  await client.store.putItem(["drill", "notes"], "first", { text: "restored into a fresh database" });
  await client.store.putItem(["drill", "notes"], "second", { text: "redis keeps no state of its own", n: 2 });
  // Runs in flight: two slow ones hold both workers, one is queued behind one of them on its thread,
  // one waits for a worker. `midway` stores each checkpoint (durability sync); `fromStart` holds its
  // checkpoints back until its end, so the backup has none of them.
  const [fromStart, midway, waiting] = await Promise.all([1, 2, 3].map(() => client.threads.create()));
  const runs = {
    fromStart: await client.runs.create(fromStart.thread_id, "steps", { input: {}, context: SLOW }),
    midway: await client.runs.create(midway.thread_id, "steps", { input: {}, context: SLOW, durability: "sync" }),
    behind: await client.runs.create(fromStart.thread_id, "steps", { input: {}, multitaskStrategy: "enqueue" }),
    waiting: await client.runs.create(waiting.thread_id, "steps", { input: {} }),
  };
  await until("midway's first step to be stored", async () => {
    const state = await client.threads.getState<{ visited?: string[] }>(midway.thread_id);
    return state.values.visited?.length ? true : undefined;
  });
  const doneState = await client.threads.getState(done.thread_id);
  const doneHistory = await client.threads.getHistory(done.thread_id);
  const file = path.join(work, "runtime.dump");
  await dumpDatabase(source.url, file);
  // The deployment is gone (its Redis with it, as far as the restored runtime knows).
  await before!.close();
  before = undefined;

  restored = await createEmptyDatabase("t_agent_runtime_restored");
  await restoreDatabase(file, restored.url);
  const held = await runsIn(restored.url);
  // What the backup holds: two runs in flight, two queued, one finished.
  expect(held).toEqual({
    [doneRun.run_id]: { status: "success", thread_id: done.thread_id },
    [runs.fromStart.run_id]: { status: "running", thread_id: fromStart.thread_id },
    [runs.midway.run_id]: { status: "running", thread_id: midway.thread_id },
    [runs.behind.run_id]: { status: "pending", thread_id: fromStart.thread_id },
    [runs.waiting.run_id]: { status: "pending", thread_id: waiting.thread_id },
  });
  // The schema came with the data: the start-up migration (main.ts) has nothing to apply.
  const migrated = await migrate(restored.url, path.join(REPO_ROOT, "prisma/agent-runtime/migrations"));
  expect(migrated.applied).toEqual([]);

  after = await startRuntime(restored.url, { redis: true, workers: 2, env: ENV });
  const served = after.client;
  expect(await served.assistants.get(assistant.assistant_id)).toMatchObject({ name: "backed-up", graph_id: "steps" });
  expect((await served.threads.get(done.thread_id)).metadata).toMatchObject({ drill: "done" });
  expect(await served.threads.getState(done.thread_id)).toEqual(doneState);
  expect(await served.threads.getHistory(done.thread_id)).toEqual(doneHistory);
  expect((await served.store.getItem(["drill", "notes"], "second"))?.value).toEqual({
    text: "redis keeps no state of its own",
    n: 2,
  });
  // Their vectors too: a semantic search finds the first by its words.
  const found = await served.store.searchItems(["drill"], { query: "fresh database", limit: 1 });
  expect(found.items.map((item) => item.key)).toEqual(["first"]);

  // Every run the backup holds unfinished ends, once.
  for (const [name, run] of Object.entries(runs)) {
    const ended = await until(`${name} to end`, async () => {
      const current = await served.runs.get(run.thread_id, run.run_id);
      return current.status === "pending" || current.status === "running" ? undefined : current;
    });
    expect([name, ended.status]).toEqual([name, "success"]);
  }
  const visited = async (threadId: string) =>
    (await served.threads.getState<{ visited: string[]; count: number }>(threadId)).values;
  const once = ["one", "two", "three"];
  expect(await visited(fromStart.thread_id)).toEqual({ visited: [...once, ...once], count: 6 });
  expect(await visited(midway.thread_id)).toEqual({ visited: once, count: 3 });
  expect(await visited(waiting.thread_id)).toEqual({ visited: once, count: 3 });
  // No run added or lost; nothing left pending, running or busy.
  const ended = await runsIn(restored.url);
  expect(Object.keys(ended).sort()).toEqual(Object.keys(held).sort());
  expect(Object.values(ended).map((run) => run.status)).toEqual(Array(5).fill("success"));
  for (const thread of [done, fromStart, midway, waiting]) {
    const settled = await until("its thread to settle", async () => {
      const current = await served.threads.get(thread.thread_id);
      return current.status === "busy" ? undefined : current;
    });
    expect(settled.status).toBe("idle");
  }
}, 60_000);
