// The thread tests, shared by the examples' two languages (threads.test.ts: the JS graphs;
// python.test.ts: their Python twins, whose checkpoints the Python saver writes).
import { randomUUID } from "node:crypto";
import { createTestDatabase } from "@lgp/server-kit/src/testing";
import { graphsOf, startRuntime, startTestRuntime, type GraphLanguage, type RunningRuntime } from "../support/harness";

type Message = { type: string; content: string };
type Values = { messages: Message[] };

const say = (content: string) => ({ messages: [{ role: "user", content }] });

async function chat(client: RunningRuntime["client"], threadId: string, ...texts: string[]): Promise<void> {
  for (const text of texts) await client.runs.wait(threadId, "agent", { input: say(text) });
}

export function describeThreads(language: GraphLanguage): void {
  let rt: Awaited<ReturnType<typeof startTestRuntime>>;
  beforeAll(async () => {
    rt = await startTestRuntime({ workers: 1, env: graphsOf(language) });
  });
  afterAll(async () => {
    await rt?.close();
  });

  describe(`threads through the official client (${language} graphs)`, () => {
    test("create: given id, metadata.graph_id, if_exists raise 409 / do_nothing", async () => {
      const threadId = randomUUID();
      const thread = await rt.client.threads.create({ threadId, graphId: "agent", metadata: { owner: "ann" } });
      expect(thread).toMatchObject({
        thread_id: threadId,
        status: "idle",
        metadata: { owner: "ann", graph_id: "agent" },
      });
      await expect(rt.client.threads.create({ threadId })).rejects.toThrow(/HTTP 409/);
      const same = await rt.client.threads.create({ threadId, ifExists: "do_nothing", metadata: { owner: "bob" } });
      expect(same.metadata).toMatchObject({ owner: "ann" });
      expect(await rt.client.threads.get(threadId)).toMatchObject({ thread_id: threadId, status: "idle" });
    });

    test("create with supersteps applies them in order", async () => {
      const thread = await rt.client.threads.create({
        graphId: "agent",
        supersteps: [
          { updates: [{ values: {}, asNode: "__input__" }] },
          { updates: [{ values: say("first"), asNode: "__start__" }] },
          { updates: [{ values: { messages: [{ role: "assistant", content: "reply" }] }, asNode: "agent" }] },
        ],
      });
      expect(thread.status).toBe("idle");
      const values = thread.values as Values;
      expect(values.messages.map((message) => [message.type, message.content])).toEqual([
        ["human", "first"],
        ["ai", "reply"],
      ]);
      const state = await rt.client.threads.getState<Values>(thread.thread_id);
      expect(state.values.messages).toHaveLength(2);
      expect(state.next).toEqual([]);
      const history = await rt.client.threads.getHistory(thread.thread_id, { limit: 10 });
      expect(history.length).toBeGreaterThanOrEqual(3);
      // The thread continues from the supersteps' state.
      await chat(rt.client, thread.thread_id, "third");
      const after = await rt.client.threads.getState<Values>(thread.thread_id);
      expect(after.values.messages.map((message) => message.content)).toEqual([
        "first",
        "reply",
        "third",
        "echo: third",
      ]);
    });

    test("PATCH merges metadata; delete removes the thread, its runs and checkpoints", async () => {
      const thread = await rt.client.threads.create({ metadata: { a: 1, b: 2 } });
      const patched = await rt.client.threads.update(thread.thread_id, { metadata: { b: 3, c: 4 } });
      expect(patched.metadata).toEqual({ a: 1, b: 3, c: 4 });
      await chat(rt.client, thread.thread_id, "hello");
      const [run] = await rt.client.runs.list(thread.thread_id);
      await rt.client.threads.delete(thread.thread_id);
      await expect(rt.client.threads.get(thread.thread_id)).rejects.toThrow(/HTTP 404/);
      await expect(rt.client.runs.get(thread.thread_id, run.run_id)).rejects.toThrow(/HTTP 404/);
      const checkpoints = await rt.runtime.checkpointer.getTuple({ configurable: { thread_id: thread.thread_id } });
      expect(checkpoints).toBeUndefined();
      await expect(rt.client.threads.delete(thread.thread_id)).rejects.toThrow(/HTTP 404/);
    });

    test("search: status, metadata and values containment, ids, sort, limit/offset; count", async () => {
      const tag = randomUUID();
      const idle = await rt.client.threads.create({ metadata: { tag, n: 1 } });
      const chatted = await rt.client.threads.create({ metadata: { tag, n: 2 } });
      await chat(rt.client, chatted.thread_id, "needle");
      const third = await rt.client.threads.create({ metadata: { tag, n: 3 } });

      const all = await rt.client.threads.search({ metadata: { tag }, sortBy: "created_at", sortOrder: "asc" });
      expect(all.map((thread) => thread.thread_id)).toEqual([idle.thread_id, chatted.thread_id, third.thread_id]);
      const desc = await rt.client.threads.search({
        metadata: { tag },
        sortBy: "created_at",
        sortOrder: "desc",
        limit: 2,
        offset: 1,
      });
      expect(desc.map((thread) => thread.thread_id)).toEqual([chatted.thread_id, idle.thread_id]);
      const byMeta = await rt.client.threads.search({ metadata: { tag, n: 3 } });
      expect(byMeta.map((thread) => thread.thread_id)).toEqual([third.thread_id]);
      const byValues = await rt.client.threads.search({
        metadata: { tag },
        values: { messages: [{ content: "echo: needle" }] },
      });
      expect(byValues.map((thread) => thread.thread_id)).toEqual([chatted.thread_id]);
      const byIds = await rt.client.threads.search({
        ids: [idle.thread_id, third.thread_id],
        sortBy: "thread_id",
        sortOrder: "asc",
      });
      expect(byIds.map((thread) => thread.thread_id)).toEqual([idle.thread_id, third.thread_id].sort());
      const byStatus = await rt.client.threads.search({ metadata: { tag }, status: "idle", sortBy: "updated_at" });
      expect(byStatus).toHaveLength(3);
      expect(await rt.client.threads.search({ metadata: { tag }, status: "busy" })).toEqual([]);
      expect(await rt.client.threads.count({ metadata: { tag } })).toBe(3);
      expect(await rt.client.threads.count({ metadata: { tag }, status: "error" })).toBe(0);
      expect(await rt.client.threads.count({ values: { messages: [{ content: "needle" }] }, metadata: { tag } })).toBe(
        1,
      );
      const statusSorted = await rt.client.threads.search({ metadata: { tag }, sortBy: "status", sortOrder: "asc" });
      expect(statusSorted).toHaveLength(3);
    });

    test("state now and at a checkpoint, history (order, limit, before, metadata), state update", async () => {
      const thread = await rt.client.threads.create();
      await chat(rt.client, thread.thread_id, "one", "two");
      const state = await rt.client.threads.getState<Values>(thread.thread_id);
      expect(state.values.messages.map((message) => message.content)).toEqual(["one", "echo: one", "two", "echo: two"]);
      expect(state.next).toEqual([]);
      expect(state.metadata).toMatchObject({ thread_id: thread.thread_id, step: expect.any(Number), source: "loop" });
      expect(state.checkpoint).toMatchObject({ thread_id: thread.thread_id, checkpoint_ns: "" });

      const history = await rt.client.threads.getHistory<Values>(thread.thread_id, { limit: 100 });
      const steps = history.map((entry) => entry.metadata?.step as number);
      expect(steps).toEqual([...steps].sort((a, b) => b - a));
      expect(history[0].checkpoint.checkpoint_id).toBe(state.checkpoint.checkpoint_id);
      expect(await rt.client.threads.getHistory(thread.thread_id, { limit: 2 })).toHaveLength(2);
      const before = await rt.client.threads.getHistory<Values>(thread.thread_id, {
        before: { configurable: { checkpoint_id: history[1].checkpoint.checkpoint_id } },
      });
      expect(before[0].checkpoint.checkpoint_id).toBe(history[2].checkpoint.checkpoint_id);

      const runs = await rt.client.runs.list(thread.thread_id);
      const firstRun = runs[runs.length - 1];
      const ofFirstRun = await rt.client.threads.getHistory(thread.thread_id, {
        metadata: { run_id: firstRun.run_id },
        limit: 100,
      });
      expect(ofFirstRun.length).toBeGreaterThan(0);
      expect(ofFirstRun.every((entry) => entry.metadata?.run_id === firstRun.run_id)).toBe(true);
      expect(ofFirstRun.length).toBeLessThan(history.length);

      const old = history.find((entry) => entry.values.messages?.length === 2)!;
      const atCheckpoint = await rt.client.threads.getState<Values>(thread.thread_id, old.checkpoint.checkpoint_id!);
      expect(atCheckpoint.values.messages.map((message) => message.content)).toEqual(["one", "echo: one"]);
      const byObject = await rt.client.threads.getState<Values>(thread.thread_id, old.checkpoint);
      expect(byObject.checkpoint.checkpoint_id).toBe(old.checkpoint.checkpoint_id);
      await expect(
        rt.client.threads.getState(thread.thread_id, "1f000000-0000-6000-8000-000000000000"),
      ).rejects.toThrow(/HTTP 404/);

      const update = await rt.client.threads.updateState(thread.thread_id, {
        values: { messages: [{ role: "assistant", content: "edited" }] },
        asNode: "agent",
      });
      expect(update.configurable).toMatchObject({ thread_id: thread.thread_id, checkpoint_id: expect.any(String) });
      const after = await rt.client.threads.getState<Values>(thread.thread_id);
      expect(after.values.messages.at(-1)).toMatchObject({ type: "ai", content: "edited" });
      expect(after.checkpoint.checkpoint_id).toBe(update.configurable?.checkpoint_id);
      const row = await rt.client.threads.get<Values>(thread.thread_id);
      expect(row.values.messages.at(-1)?.content).toBe("edited");
    });

    test("a run from an earlier checkpoint forks the thread: each branch keeps its own values", async () => {
      // As a chat UI edits the first message: run again from the parent of the first checkpoint
      // that holds it. Both branches take the same number of steps from the fork, so versions
      // numbered as a plain counter would collide and the new branch read the old one's values.
      const thread = await rt.client.threads.create();
      await chat(rt.client, thread.thread_id, "one", "two");
      const original = await rt.client.threads.getHistory<Values>(thread.thread_id, { limit: 100 });
      const firstSeen = original.findLast((entry) => entry.values.messages?.some((m) => m.content === "one"))!;
      const { thread_id: _, ...fork } = firstSeen.parent_checkpoint!;
      await rt.client.runs.wait(thread.thread_id, "agent", { input: say("uno"), checkpoint: fork });

      const contents = (entry: { values: Values }) => (entry.values.messages ?? []).map((m) => m.content);
      const history = await rt.client.threads.getHistory<Values>(thread.thread_id, { limit: 100 });
      const branch = history.slice(0, history.length - original.length);
      expect(branch.map(contents)).toEqual([["uno", "echo: uno"], ["uno"], []]);
      expect(branch.map((entry) => entry.next)).toEqual([[], ["agent"], ["__start__"]]);
      const children = history.filter((entry) => entry.parent_checkpoint?.checkpoint_id === fork.checkpoint_id);
      expect(children.map(contents)).toEqual([[], ["one"]]);
      // The original branch reads as before, and the thread goes on from the new one.
      expect(history.slice(-original.length).map(contents)).toEqual(original.map(contents));
      await chat(rt.client, thread.thread_id, "dos");
      const state = await rt.client.threads.getState<Values>(thread.thread_id);
      expect(contents(state)).toEqual(["uno", "echo: uno", "dos", "echo: dos"]);
    });

    test("copy: an independent thread with the same history", async () => {
      const thread = await rt.client.threads.create({ metadata: { origin: "x" } });
      await chat(rt.client, thread.thread_id, "alpha");
      const copy = await rt.client.threads.copy(thread.thread_id);
      expect(copy.thread_id).not.toBe(thread.thread_id);
      expect(copy.metadata).toMatchObject({ origin: "x" });
      const originalHistory = await rt.client.threads.getHistory(thread.thread_id, { limit: 100 });
      const copyHistory = await rt.client.threads.getHistory(copy.thread_id, { limit: 100 });
      expect(copyHistory.map((entry) => entry.checkpoint.checkpoint_id)).toEqual(
        originalHistory.map((entry) => entry.checkpoint.checkpoint_id),
      );
      await chat(rt.client, copy.thread_id, "beta");
      const original = await rt.client.threads.getState<Values>(thread.thread_id);
      const copied = await rt.client.threads.getState<Values>(copy.thread_id);
      expect(original.values.messages).toHaveLength(2);
      expect(copied.values.messages.map((message) => message.content)).toEqual([
        "alpha",
        "echo: alpha",
        "beta",
        "echo: beta",
      ]);
    });

    test("errors: unknown thread 404, malformed 422, state update without a graph 422", async () => {
      const missing = randomUUID();
      await expect(rt.client.threads.get(missing)).rejects.toThrow(/HTTP 404/);
      await expect(rt.client.threads.getState(missing)).rejects.toThrow(/HTTP 404/);
      await expect(rt.client.threads.getHistory(missing)).rejects.toThrow(/HTTP 404/);
      await expect(rt.client.threads.copy(missing)).rejects.toThrow(/HTTP 404/);
      await expect(rt.client.threads.update(missing, { metadata: {} })).rejects.toThrow(/HTTP 404/);
      const bad = await fetch(`${rt.url}/threads/not-a-uuid`);
      expect(bad.status).toBe(422);
      for (const body of [{ status: "sleeping" }, { sort_by: "colour" }, { limit: 0 }, { ids: ["nope"] }]) {
        const response = await fetch(`${rt.url}/threads/search`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        expect({ body, status: response.status }).toEqual({ body, status: 422 });
      }
      await expect(
        rt.client.threads.create({ supersteps: [{ updates: [{ values: {}, asNode: "agent" }] }] }),
      ).rejects.toThrow(/HTTP 422/);
      await expect(rt.client.threads.create({ graphId: "nope" })).rejects.toThrow(/HTTP 404/);
      const bare = await rt.client.threads.create();
      expect((await rt.client.threads.getState(bare.thread_id)).values).toEqual({});
      expect(await rt.client.threads.getHistory(bare.thread_id)).toEqual([]);
      await expect(rt.client.threads.updateState(bare.thread_id, { values: {} })).rejects.toThrow(/HTTP 422/);
      await expect(
        rt.client.threads.create({
          graphId: "agent",
          supersteps: [{ updates: [{ values: {}, asNode: "no_such_node" }] }],
        }),
      ).rejects.toThrow(/HTTP 422/);
    });
  });

  describe(`restart (${language} graphs)`, () => {
    test("assistants, threads, state and history read the same after the runtime restarts", async () => {
      const database = await createTestDatabase("agent-runtime");
      let first: RunningRuntime | undefined;
      let second: RunningRuntime | undefined;
      try {
        first = await startRuntime(database.url, { workers: 1, env: graphsOf(language) });
        const assistant = await first.client.assistants.create({ graphId: "agent", context: { reply_prefix: "> " } });
        await first.client.assistants.update(assistant.assistant_id, { metadata: { v: 2 } });
        const thread = await first.client.threads.create({ metadata: { keep: true } });
        await first.client.runs.wait(thread.thread_id, assistant.assistant_id, { input: say("persist") });
        const read = async (client: RunningRuntime["client"]) => ({
          assistant: await client.assistants.get(assistant.assistant_id),
          versions: await client.assistants.getVersions(assistant.assistant_id),
          thread: await client.threads.get(thread.thread_id),
          state: await client.threads.getState(thread.thread_id),
          history: await client.threads.getHistory(thread.thread_id, { limit: 100 }),
          runs: await client.runs.list(thread.thread_id),
        });
        const before = await read(first.client);
        expect((before.state.values as Values).messages.at(-1)?.content).toBe("> persist");
        await first.close();
        first = undefined;
        second = await startRuntime(database.url, { workers: 1, env: graphsOf(language) });
        expect(await read(second.client)).toEqual(before);
        await chat(second.client, thread.thread_id, "again");
        const state = await second.client.threads.getState<Values>(thread.thread_id);
        expect(state.values.messages.map((message) => message.content)).toEqual([
          "persist",
          "> persist",
          "again",
          "echo: again",
        ]);
      } finally {
        await first?.close();
        await second?.close();
        await database.drop();
      }
    });
  });
}
