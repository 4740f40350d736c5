// Two API processes (no workers of their own) and one separate worker process, all on Redis:
// a run created through API A is executed by the worker and streams completely to a client of B.
import type { ChildProcess } from "node:child_process";
import { freePort, waitUntilOk } from "@lgp/server-kit";
import { createTestDatabase, testRedisUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import { Client, collect, deleteRedisKeys, randomPrefix, spawnRuntimeProcess, stopProcess } from "../support/harness";

type Event = { event: string; data: unknown; id?: string };

let database: TestDatabase;
const prefix = randomPrefix();
const children: ChildProcess[] = [];
const output: string[] = [];

function start(script: "main.ts" | "worker.ts", env: Record<string, string>): ChildProcess {
  const child = spawnRuntimeProcess(
    script,
    { DATABASE_URL: database.url, REDIS_PREFIX: prefix, HOST: "127.0.0.1", ...env },
    output,
  );
  children.push(child);
  return child;
}

async function waitUntilUp(url: string): Promise<void> {
  if (!(await waitUntilOk(`${url}/ok`, 30_000))) throw new Error(`${url} did not start:\n${output.join("")}`);
}

let apiA: string;
let apiB: string;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  const [portA, portB] = [await freePort(), await freePort()];
  apiA = `http://127.0.0.1:${portA}`;
  apiB = `http://127.0.0.1:${portB}`;
  start("main.ts", { PORT: String(portA), WORKERS: "0" });
  start("main.ts", { PORT: String(portB), WORKERS: "0" });
  start("worker.ts", { WORKERS: "2" });
  await Promise.all([waitUntilUp(apiA), waitUntilUp(apiB)]);
}, 60_000);

afterAll(async () => {
  await Promise.all(children.map(stopProcess));
  await deleteRedisKeys(testRedisUrl(), prefix);
  await database?.drop();
});

test("a run created through API A streams completely to a client of API B", async () => {
  const a = new Client({ apiUrl: apiA, callerOptions: { maxRetries: 0 } });
  const b = new Client({ apiUrl: apiB, callerOptions: { maxRetries: 0 } });
  const thread = await a.threads.create();
  let joined: Promise<Event[]> | undefined;
  const streamedOnA = (await collect(
    a.runs.stream(thread.thread_id, "approval", {
      input: { messages: [{ role: "user", content: "multi-process" }] },
      streamMode: ["values", "updates"],
      onRunCreated: ({ run_id }) => {
        joined = collect(b.runs.joinStream(thread.thread_id, run_id)) as Promise<Event[]>;
      },
    }),
  )) as Event[];
  const streamedOnB = await joined!;
  expect(streamedOnB.map((event) => [event.id, event.event])).toEqual(
    streamedOnA.map((event) => [event.id, event.event]),
  );
  expect(streamedOnB.map((event) => event.event)).toEqual([
    "metadata",
    "values",
    "updates",
    "values",
    "updates",
    "values",
  ]);
  expect(streamedOnB[4].data).toMatchObject({ __interrupt__: [expect.objectContaining({ value: expect.anything() })] });

  // B sees the state the worker wrote; resuming through B finishes the run A started.
  expect((await b.threads.get(thread.thread_id)).status).toBe("interrupted");
  const run = await b.runs.create(thread.thread_id, "approval", { command: { resume: { approved: false } } });
  const values = (await a.runs.join(thread.thread_id, run.run_id)) as { steps: string[] };
  expect(values.steps).toEqual(["propose", "review", "revise"]);
  const history = await b.threads.getHistory(thread.thread_id, { limit: 50 });
  expect(history.length).toBeGreaterThan(3);
});

test("several runs spread over the API processes all complete, in order per thread", async () => {
  const a = new Client({ apiUrl: apiA, callerOptions: { maxRetries: 0 } });
  const b = new Client({ apiUrl: apiB, callerOptions: { maxRetries: 0 } });
  const thread = await a.threads.create();
  const runs = [];
  for (let i = 0; i < 4; i += 1) {
    const client = i % 2 ? b : a;
    runs.push(
      await client.runs.create(thread.thread_id, "agent", {
        input: { messages: [{ role: "user", content: `n${i}` }] },
      }),
    );
  }
  await b.runs.join(thread.thread_id, runs.at(-1)!.run_id);
  const state = await a.threads.getState<{ messages: { content: string }[] }>(thread.thread_id);
  expect(state.values.messages.map((message) => message.content)).toEqual(
    [0, 1, 2, 3].flatMap((i) => [`n${i}`, `echo: n${i}`]),
  );
});
