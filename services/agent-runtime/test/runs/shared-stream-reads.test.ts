// Every reader of run events in a process shares one Redis connection: 200 clients following 50
// runs add one connection, not 200, and each still gets its own run's events, live.
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { startRuntime, type RunningRuntime } from "../support/harness";
import { startPrivateRedis, type PrivateRedis } from "../support/redis-server";

let database: TestDatabase;
let api: RunningRuntime;
let worker: RunningRuntime | undefined;
let redis: PrivateRedis;

beforeAll(async () => {
  redis = await startPrivateRedis();
  database = await createTestDatabase("agent-runtime");
  // No workers: the runs wait, and their readers idle, until a worker starts.
  api = await startRuntime(database.url, { redis: true, workers: 0, env: { REDIS_URL: redis.url } });
});

afterAll(async () => {
  await worker?.close();
  await api?.close();
  await redis?.close();
  await database?.drop();
});

/** Follows a run's stream with a bare fetch; answers the event names once it ends. */
async function follow(threadId: string, runId: string, signal: AbortSignal, opened: () => void): Promise<string[]> {
  const response = await fetch(`${api.url}/threads/${threadId}/runs/${runId}/stream`, { signal });
  opened();
  const names: string[] = [];
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of response.body!) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    for (const match of text.matchAll(/^event: (.+)$/gm)) names.push(match[1]);
    text = text.slice(text.lastIndexOf("\n") + 1);
  }
  return names;
}

test("200 idle streams over 50 runs hold one Redis connection; each gets its run's events", async () => {
  const threads = await Promise.all(Array.from({ length: 50 }, () => api.client.threads.create()));
  const runs = await Promise.all(
    threads.map((thread) => api.client.runs.create(thread.thread_id, "agent", { input: { messages: [] } })),
  );
  const before = await redis.clients();
  const controller = new AbortController();
  let open = 0;
  const streams = Array.from({ length: 200 }, (_, index) =>
    follow(threads[index % 50].thread_id, runs[index % 50].run_id, controller.signal, () => (open += 1)),
  );
  while (open < 200) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect((api.runtime.events as unknown as { followed: number }).followed).toBe(50);
  expect((await redis.clients()) - before).toBeLessThanOrEqual(1);

  // A worker starts: every stream gets its run's events and ends.
  worker = await startRuntime(database.url, {
    redis: true,
    prefix: api.config.REDIS_PREFIX,
    workers: 10,
    env: { REDIS_URL: redis.url, REDIS_PREFIX: api.config.REDIS_PREFIX },
  });
  const results = await Promise.all(streams);
  for (const names of results) {
    expect(names[0]).toBe("metadata");
    expect(names).toContain("values");
  }
  expect((api.runtime.events as unknown as { followed: number }).followed).toBe(0);
}, 60_000);
