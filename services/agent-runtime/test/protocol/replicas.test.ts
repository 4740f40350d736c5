// The protocol across processes on Redis: commands to one API replica while the event stream
// comes from another, and a worker SIGKILLed in the middle of a run (the next worker resumes it;
// the client's stream goes on to the end).
import type { ChildProcess } from "node:child_process";
import { createTestDatabase, testRedisUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import {
  deleteRedisKeys,
  killProcess,
  randomPrefix,
  spawnRuntimeProcess,
  startRuntime,
  type RunningRuntime,
} from "../support/harness";
import { PROTOCOL_FIXTURES, eventsUntil, openThread, rootEnd } from "./suite";

let database: TestDatabase;
let commandsApi: RunningRuntime;
let streamApi: RunningRuntime;
const prefix = randomPrefix();
const workers: ChildProcess[] = [];
const output: string[] = [];

function startWorker(): ChildProcess {
  const child = spawnRuntimeProcess(
    "worker.ts",
    {
      DATABASE_URL: database.url,
      REDIS_PREFIX: prefix,
      WORKERS: "2",
      RUN_LOCK_MS: "1000",
      LANGGRAPH_JSON: PROTOCOL_FIXTURES,
    },
    output,
  );
  workers.push(child);
  return child;
}

/** Sends commands to one replica and opens event streams on the other. */
function splitFetch(): typeof fetch {
  return (input, init) => {
    const url = String(input);
    return fetch(url.endsWith("/stream/events") ? url.replace(commandsApi.url, streamApi.url) : url, init);
  };
}

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  const env = { LANGGRAPH_JSON: PROTOCOL_FIXTURES };
  commandsApi = await startRuntime(database.url, { redis: true, prefix, workers: 0, env });
  streamApi = await startRuntime(database.url, { redis: true, prefix, workers: 0, env });
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map(killProcess));
  await commandsApi?.close();
  await streamApi?.close();
  await deleteRedisKeys(testRedisUrl(), prefix);
  await database?.drop();
});

test("commands sent to one replica, events streamed from another (SSE and WebSocket), a worker killed mid-run: nothing lost", async () => {
  let worker = startWorker();
  const thread = openThread(commandsApi.url, "steps", "sse", { fetch: splitFetch() });
  // A second client follows the same thread over a WebSocket on the other replica.
  const watcher = openThread(streamApi.url, "steps", "websocket", { threadId: thread.threadId });
  const watched = eventsUntil(watcher, ["custom", "values", "lifecycle"], rootEnd, { timeoutMs: 40_000 });
  try {
    const events = await eventsUntil(
      thread,
      ["custom", "values", "lifecycle"],
      (event, all) => {
        // The worker dies once the first step has started; another takes the run over.
        if (event.method === "custom" && all.filter((e) => e.method === "custom").length === 1) {
          void killProcess(worker).then(() => (worker = startWorker()));
        }
        return rootEnd(event);
      },
      { then: () => thread.run.start({ input: {}, context: { delay_ms: 700 } } as never), timeoutMs: 40_000 },
    );
    expect(workers).toHaveLength(2); // the first was killed mid-run
    expect(events.at(-1)!.params.data.event).toBe("completed");
    const finalValues = events.filter((event) => event.method === "values").at(-1)!.params.data;
    expect(finalValues.visited).toEqual(["one", "two", "three"]);
    const seqs = events.map((event) => event.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    const summary = (list: typeof events) => list.map((event) => `${event.seq}:${event.method}`);
    expect(summary(await watched)).toEqual(summary(events));
    const state = await commandsApi.client.threads.getState(thread.threadId);
    expect((state.values as { visited: string[] }).visited).toEqual(["one", "two", "three"]);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${output.join("")}`, { cause: error });
  } finally {
    await thread.close();
    await watcher.close();
  }
}, 60_000);
