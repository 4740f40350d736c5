// The end of a thread's life: POST /threads/prune (SDK 1.x `threads.prune`; 2.0.0 has no such
// method) and a thread `ttl` (both SDK lines send it) applied by the sweeper, with a short
// THREAD_TTL_SWEEP_MS.
import { randomUUID } from "node:crypto";
import { Client1 } from "@lgp/server-kit/src/testing";
import { collect, startTestRuntime } from "../support/harness";

type Event = { event: string; data: unknown };

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let client1: Client1;
beforeAll(async () => {
  rt = await startTestRuntime({ workers: 2, env: { THREAD_TTL_SWEEP_MS: "200" } });
  client1 = new Client1({ apiUrl: rt.url, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  await rt?.close();
});

const say = (content: string) => ({ messages: [{ role: "user", content }] });
const slow = (delay: number) => ({ input: {}, context: { delay_ms: delay } });

/** Polls until `check` holds (the jest timeout bounds the wait). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

const gone = (threadId: string) =>
  rt.client.threads.get(threadId).then(
    () => false,
    (error: Error) => /HTTP 404/.test(error.message),
  );

/** A thread whose run is in flight, with the run's stream joined (it ends when the run stops). */
async function busyThread() {
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "steps", slow(400));
  await eventually(async () => (await rt.client.runs.get(thread.thread_id, run.run_id)).status === "running");
  const stream = collect(rt.client.runs.joinStream(thread.thread_id, run.run_id)) as Promise<Event[]>;
  return { thread, stream };
}

/** The run stopped before its three steps: the stream ended early. */
async function stoppedEarly(stream: Promise<Event[]>): Promise<void> {
  expect((await stream).filter((event) => event.event === "updates").length).toBeLessThan(3);
}

describe("POST /threads/prune", () => {
  test("delete: threads go as with DELETE (active runs stop); unknown ids are skipped", async () => {
    const idle = await rt.client.threads.create();
    await rt.client.runs.wait(idle.thread_id, "agent", { input: say("hi") });
    const busy = await busyThread();
    const kept = await rt.client.threads.create();
    const result = await client1.threads.prune([idle.thread_id, busy.thread.thread_id, randomUUID()]);
    expect(result).toEqual({ pruned_count: 2 });
    await stoppedEarly(busy.stream);
    expect(await gone(idle.thread_id)).toBe(true);
    expect(await gone(busy.thread.thread_id)).toBe(true);
    expect(await rt.client.threads.get(kept.thread_id)).toMatchObject({ thread_id: kept.thread_id });
  });

  test("keep_latest: the thread and its latest state stay, older checkpoints go", async () => {
    const thread = await rt.client.threads.create();
    for (const text of ["one", "two"]) await rt.client.runs.wait(thread.thread_id, "agent", { input: say(text) });
    const before = await rt.client.threads.getState(thread.thread_id);
    expect((await rt.client.threads.getHistory(thread.thread_id, { limit: 100 })).length).toBeGreaterThan(1);

    expect(await client1.threads.prune([thread.thread_id], { strategy: "keep_latest" })).toEqual({ pruned_count: 1 });
    const history = await rt.client.threads.getHistory(thread.thread_id, { limit: 100 });
    expect(history.map((state) => state.checkpoint.checkpoint_id)).toEqual([before.checkpoint.checkpoint_id]);
    const after = await rt.client.threads.getState(thread.thread_id);
    expect(after.values).toEqual(before.values);
    // The thread goes on from its latest state.
    const values = (await rt.client.runs.wait(thread.thread_id, "agent", { input: say("three") })) as {
      messages: { content: string }[];
    };
    expect(values.messages.map((message) => message.content)).toEqual([
      "one",
      "echo: one",
      "two",
      "echo: two",
      "three",
      "echo: three",
    ]);
  });

  test("bad bodies are 422", async () => {
    const post = (body: unknown) =>
      fetch(`${rt.url}/threads/prune`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post({ thread_ids: [randomUUID()], strategy: "shred" })).status).toBe(422);
    expect((await post({ thread_ids: ["not-a-uuid"] })).status).toBe(422);
    expect((await post({})).status).toBe(422);
  });
});

describe("thread ttl", () => {
  test("an expired thread is deleted by the sweeper, its active run stopped (both SDK lines send ttl)", async () => {
    const fromSdk2 = await rt.client.threads.create({ ttl: { strategy: "delete", ttl: 0.01 } }); // 0.6 s
    const fromSdk1 = await client1.threads.create({ ttl: 0.01 });
    const lasting = await rt.client.threads.create({ ttl: { ttl: 60 } });
    const busy = await busyThread();
    await rt.client.threads.update(busy.thread.thread_id, { ttl: 0.005 });
    await stoppedEarly(busy.stream);
    await eventually(async () => (await gone(fromSdk2.thread_id)) && (await gone(fromSdk1.thread_id)));
    expect(await gone(busy.thread.thread_id)).toBe(true);
    expect(await gone(lasting.thread_id)).toBe(false);
  });

  test("keep_latest: an expired thread keeps only its latest checkpoint, and then no expiry", async () => {
    const thread = await client1.threads.create();
    for (const text of ["one", "two"]) await rt.client.runs.wait(thread.thread_id, "agent", { input: say(text) });
    await client1.threads.update(thread.thread_id, { ttl: { strategy: "keep_latest", ttl: 0.005 } as never });
    await eventually(async () => (await rt.client.threads.getHistory(thread.thread_id, { limit: 10 })).length === 1);
    const row = await rt.runtime.threadRepository.find(thread.thread_id);
    expect(row).toMatchObject({ expires_at: null, ttl_strategy: null });
  });

  test("a bad ttl is 422", async () => {
    await expect(rt.client.threads.create({ ttl: { ttl: -1 } })).rejects.toThrow(/HTTP 422/);
    await expect(rt.client.threads.create({ ttl: { strategy: "forget" as "delete", ttl: 5 } })).rejects.toThrow(
      /HTTP 422/,
    );
    // Past any date a database can hold: a 422, not a failed insert.
    for (const ttl of [1e12, { ttl: 1e12 }])
      expect(
        (
          await fetch(`${rt.url}/threads`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ ttl }),
          })
        ).status,
      ).toBe(422);
  });
});

describe("the TTL sweep itself (no periodic sweeper: a runtime without workers)", () => {
  let quiet: Awaited<ReturnType<typeof startTestRuntime>>;
  beforeAll(async () => {
    quiet = await startTestRuntime({ workers: 0 });
  });
  afterAll(async () => {
    await quiet?.close();
  });

  test("a thread that cannot be swept is reported and skipped; the others are swept, batch after batch", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1)
      ids.push((await quiet.client.threads.create({ ttl: { ttl: 0, strategy: "delete" } })).thread_id);
    const stuck = ids[0];
    quiet.runtime.threads.onDeleting(async (threadId) => {
      if (threadId === stuck) throw new Error("this thread refuses to go");
    });
    const failures: string[] = [];
    // Batches of one: the first batch fails, and the sweep still reaches the three behind it.
    const swept = await quiet.runtime.threads.sweepExpired(1, (threadId) => failures.push(threadId));
    expect(failures).toEqual([stuck]);
    expect(swept).toBe(3);
    const left = await quiet.client.threads.search({ limit: 10 });
    expect(left.map((thread) => thread.thread_id)).toEqual([stuck]);
  });
});
