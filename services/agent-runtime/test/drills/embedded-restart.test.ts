// Drill: the embedded mode (no Redis: queue and events in the process) is SIGKILLed mid-run and
// started again. The run it left `running` is held by no one: the new process's run sweep hands
// it back, and it resumes from its last checkpoint. Nothing stays `running` or `busy`.
import type { ChildProcess } from "node:child_process";
import { Client as PgClient } from "pg";
import { freePort, waitUntilOk } from "@lgp/server-kit";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { Client, killProcess, spawnRuntimeProcess } from "../support/harness";

let database: TestDatabase;
const children: ChildProcess[] = [];
const output: string[] = [];
let port: number;

async function startEmbedded(): Promise<ChildProcess> {
  const child = spawnRuntimeProcess(
    "main.ts",
    {
      DATABASE_URL: database.url,
      REDIS_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      WORKERS: "2",
      RUN_LOCK_MS: "1000",
    },
    output,
  );
  children.push(child);
  if (!(await waitUntilOk(`http://127.0.0.1:${port}/ok`, 30_000))) throw new Error(`no runtime:\n${output.join("")}`);
  return child;
}

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  port = await freePort();
});

afterAll(async () => {
  await Promise.all(children.map(killProcess));
  await database?.drop();
});

test("a run left running by a killed embedded runtime resumes from its checkpoint after the restart", async () => {
  const first = await startEmbedded();
  const client = new Client({ apiUrl: `http://127.0.0.1:${port}` });
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: 1_000 } });
  // Step one is checkpointed once step two has started.
  for (let seen = false; !seen;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const state = await client.threads.getState<{ visited?: string[] }>(thread.thread_id);
    seen = (state.values.visited ?? []).includes("one");
  }
  await killProcess(first);
  const db = new PgClient({ connectionString: database.url });
  await db.connect();
  const left = await db.query("SELECT status FROM runs WHERE run_id = $1", [run.run_id]);
  await db.end();
  expect(left.rows[0].status).toBe("running");

  await startEmbedded();
  const values = await client.runs.join(thread.thread_id, run.run_id);
  expect(values).toMatchObject({ count: 3, visited: ["one", "two", "three"] });
  expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
  expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
}, 60_000);
