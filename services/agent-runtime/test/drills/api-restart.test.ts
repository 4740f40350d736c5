// Drill: the API process a client is streaming from is SIGKILLed mid-run and started again on the
// same port, as an orchestrator does. The run goes on in the worker; the official client (its
// default reconnect policy) rejoins with Last-Event-ID and gets every event exactly once.
import type { ChildProcess } from "node:child_process";
import { freePort, waitUntilOk } from "@lgp/server-kit";
import { createTestDatabase, testRedisUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import { Client, deleteRedisKeys, killProcess, randomPrefix, spawnRuntimeProcess } from "../support/harness";

let database: TestDatabase;
const prefix = randomPrefix();
const children: ChildProcess[] = [];
const output: string[] = [];
let port: number;

function start(script: "main.ts" | "worker.ts", env: Record<string, string> = {}): ChildProcess {
  const child = spawnRuntimeProcess(
    script,
    { DATABASE_URL: database.url, REDIS_PREFIX: prefix, HOST: "127.0.0.1", ...env },
    output,
  );
  children.push(child);
  return child;
}

async function startApi(): Promise<ChildProcess> {
  const api = start("main.ts", { PORT: String(port), WORKERS: "0" });
  if (!(await waitUntilOk(`http://127.0.0.1:${port}/ok`, 30_000))) throw new Error(`no API:\n${output.join("")}`);
  return api;
}

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  port = await freePort();
  start("worker.ts", { WORKERS: "2" });
  await startApi();
});

afterAll(async () => {
  await Promise.all(children.map(killProcess));
  await deleteRedisKeys(testRedisUrl(), prefix);
  await database?.drop();
});

test("a client streaming from an API that is killed and restarted gets every event exactly once", async () => {
  const client = new Client({ apiUrl: `http://127.0.0.1:${port}` });
  const thread = await client.threads.create();
  const events: { event: string; data: unknown; id?: string }[] = [];
  let restarted = false;
  for await (const part of client.runs.stream(thread.thread_id, "steps", {
    input: {},
    context: { delay_ms: 1_500 },
    streamMode: ["updates", "custom"],
  })) {
    events.push(part as { event: string; data: unknown; id?: string });
    if (!restarted && part.event === "custom" && (part.data as { step?: string }).step === "one") {
      restarted = true;
      await killProcess(children[children.length - 1]);
      await startApi();
    }
  }
  expect(restarted).toBe(true);
  const updates = events.filter((part) => part.event === "updates").map((part) => Object.keys(part.data as object)[0]);
  expect(updates).toEqual(["one", "two", "three"]);
  const steps = events.filter((part) => part.event === "custom").map((part) => (part.data as { step: string }).step);
  expect(steps).toEqual(["one", "two", "three"]);
  expect(events.filter((part) => part.event === "metadata")).toHaveLength(1);
  const state = await client.threads.getState<{ visited: string[] }>(thread.thread_id);
  expect(state.values.visited).toEqual(["one", "two", "three"]);
}, 90_000);
