// The calls most applications make, once per live line of the official SDK (the newest 1.x and
// 2.x, see SDK_LINES): the lines build some requests differently (1.x adds query parameters such
// as `cancel_on_disconnect` on join, `delete_threads` on assistant delete, encodes path segments),
// so each line drives the same runtime here. Kept to a few calls per capability: the other suites
// go deep with the 2.x client.
import { SDK_LINES } from "@lgp/server-kit/src/testing";
import { collect, startTestRuntime } from "../support/harness";

type Message = { type: string; content: string };
type Values = { messages: Message[] };
type Event = { event: string; data: unknown; id?: string };

const say = (content: string) => ({ messages: [{ role: "user", content }] });
const slow = (delay: number) => ({ input: {}, context: { delay_ms: delay } });

/** Polls until `check` holds (the jest timeout bounds the wait). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startTestRuntime({ workers: 2 });
});
afterAll(async () => {
  await rt?.close();
});

describe.each(SDK_LINES)("SDK $line ($version)", ({ line, Client }) => {
  // Both lines' clients share the construction options; the 2.x type stands for both.
  let client: InstanceType<(typeof SDK_LINES)[0]["Client"]>;
  beforeAll(() => {
    client = new Client({ apiUrl: rt.url, callerOptions: { maxRetries: 0 } }) as typeof client;
  });

  test("assistants: create, get, update (a new version), search pages, count, delete", async () => {
    const tag = { line, kind: "assistants" };
    const created = [];
    for (const name of ["a", "b", "c"]) {
      created.push(await client.assistants.create({ graphId: "agent", name, metadata: tag }));
    }
    expect(await client.assistants.get(created[0].assistant_id)).toMatchObject({ name: "a", version: 1 });
    const updated = await client.assistants.update(created[0].assistant_id, { name: "a2" });
    expect(updated).toMatchObject({ name: "a2", version: 2 });
    const page = (offset: number) =>
      client.assistants.search({ metadata: tag, limit: 2, offset, sortBy: "name", sortOrder: "asc" });
    expect((await page(0)).map((found) => found.name)).toEqual(["a2", "b"]);
    expect((await page(2)).map((found) => found.name)).toEqual(["c"]);
    expect(await client.assistants.count({ metadata: tag })).toBe(3);
    await client.assistants.delete(created[2].assistant_id);
    await expect(client.assistants.get(created[2].assistant_id)).rejects.toThrow(/HTTP 404/);
  });

  test("threads: create, get, update, search pages, count, copy, delete", async () => {
    const tag = { line, kind: "threads" };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await client.threads.create({ metadata: { ...tag, i } })).thread_id);
    expect(await client.threads.update(ids[0], { metadata: { note: "x" } })).toMatchObject({
      metadata: { ...tag, i: 0, note: "x" },
    });
    const page = (offset: number) =>
      client.threads.search({ metadata: tag, limit: 2, offset, sortBy: "created_at", sortOrder: "asc" });
    expect((await page(0)).map((found) => found.thread_id)).toEqual(ids.slice(0, 2));
    expect((await page(2)).map((found) => found.thread_id)).toEqual(ids.slice(2));
    expect(await client.threads.count({ metadata: tag })).toBe(3);
    const copy = await client.threads.copy(ids[1]);
    expect(copy.metadata).toMatchObject({ ...tag, i: 1 });
    await client.threads.delete(ids[2]);
    await expect(client.threads.get(ids[2])).rejects.toThrow(/HTTP 404/);
  });

  test("runs: stream, wait, background + join, joinStream after Last-Event-ID; state and history", async () => {
    const thread = await client.threads.create();
    const events = (await collect(
      client.runs.stream(thread.thread_id, "agent", {
        input: say("one"),
        streamMode: ["values", "updates", "messages-tuple"],
      }),
    )) as Event[];
    expect(events[0].event).toBe("metadata");
    expect(new Set(events.map((event) => event.event))).toEqual(new Set(["metadata", "values", "updates", "messages"]));

    const waited = (await client.runs.wait(thread.thread_id, "agent", { input: say("two") })) as Values;
    expect(waited.messages.at(-1)?.content).toBe("echo: two");

    const run = await client.runs.create(thread.thread_id, "agent", { input: say("three") });
    const joined = (await client.runs.join(thread.thread_id, run.run_id)) as Values;
    expect(joined.messages.at(-1)?.content).toBe("echo: three");
    const replay = (await collect(client.runs.joinStream(thread.thread_id, run.run_id))) as Event[];
    expect(replay[0].event).toBe("metadata");
    const after = (await collect(
      client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: replay[0].id }),
    )) as Event[];
    expect(after.map((event) => event.id)).toEqual(replay.slice(1).map((event) => event.id));
    expect((await client.runs.list(thread.thread_id)).map((found) => found.run_id)).toContain(run.run_id);

    const state = await client.threads.getState<Values>(thread.thread_id);
    expect(state.values.messages.map((message) => message.content)).toEqual([
      "one",
      "echo: one",
      "two",
      "echo: two",
      "three",
      "echo: three",
    ]);
    const history = await client.threads.getHistory(thread.thread_id, { limit: 2 });
    expect(history[0].checkpoint.checkpoint_id).toBe(state.checkpoint.checkpoint_id);
    expect(history).toHaveLength(2);
  });

  test("an interrupt is resumed with a command; a state update is read back", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "approval", { input: say("deploy") });
    expect((await client.threads.get(thread.thread_id)).status).toBe("interrupted");
    await client.runs.wait(thread.thread_id, "approval", { command: { resume: { approved: true } } });
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");

    const other = await client.threads.create({ graphId: "agent" });
    await client.threads.updateState(other.thread_id, { values: say("set"), asNode: "agent" });
    const state = await client.threads.getState<Values>(other.thread_id);
    expect(state.values.messages.map((message) => message.content)).toEqual(["set"]);
  });

  test("join (1.x) and joinStream with cancelOnDisconnect: leaving cancels the run", async () => {
    // 2.0.0's join sends no cancel_on_disconnect (1.7.3+ of the 1.x line does); both joinStreams do.
    for (const leave of line === "1.x" ? (["join", "joinStream"] as const) : (["joinStream"] as const)) {
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, "steps", slow(1000));
      await eventually(async () => (await client.runs.get(thread.thread_id, run.run_id)).status === "running");
      const controller = new AbortController();
      const joining =
        leave === "join"
          ? client.runs.join(thread.thread_id, run.run_id, { signal: controller.signal, cancelOnDisconnect: true } as {
              signal: AbortSignal;
            })
          : collect(
              client.runs.joinStream(thread.thread_id, run.run_id, {
                signal: controller.signal,
                cancelOnDisconnect: true,
              }),
            );
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      await joining.catch(() => undefined);
      await eventually(async () => (await client.runs.get(thread.thread_id, run.run_id)).status === "interrupted");
    }
  });
});
