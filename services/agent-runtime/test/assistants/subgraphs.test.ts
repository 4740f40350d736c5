// Subgraphs: their schemas (GET /assistants/{id}/subgraphs[/{namespace}]) and their state, addressed
// through the `checkpoint` of the parent's task, through the official client.
import type { startTestRuntime } from "../support/harness";
import { startFixtureRuntime } from "./fixtures/runtime";

type Log = { log: string[]; parent?: string; child?: string; answer?: string };

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startFixtureRuntime();
});
afterAll(async () => {
  await rt?.close();
});

describe("subgraph schemas through the official client", () => {
  test("direct subgraphs, recursive ones, one namespace; both the JS and the Python server's keys", async () => {
    const assistant = await rt.client.assistants.create({ graphId: "nested" });
    expect(Object.keys(await rt.client.assistants.getSubgraphs(assistant.assistant_id))).toEqual(["outer"]);

    const all = (await rt.client.assistants.getSubgraphs(assistant.assistant_id, {
      recurse: true,
    })) as unknown as Record<string, Record<string, unknown>>;
    expect(Object.keys(all)).toEqual(["outer", "outer|inner"]);
    const parentState = {
      type: "object",
      properties: { log: { type: "array" }, parent: { type: "string", enum: ["parent_one", "parent_two"] } },
    };
    const childState = {
      type: "object",
      properties: { log: { type: "array" }, child: { type: "string", enum: ["child_one", "child_two"] } },
    };
    expect(all).toMatchObject({
      outer: { state: parentState, state_schema: parentState, input_schema: expect.any(Object) },
      "outer|inner": { state: childState, state_schema: childState, output: expect.any(Object) },
    });

    // A namespace names one subgraph (LangGraph's getSubgraphs): `outer|inner` is reached with recurse.
    expect(Object.keys(await rt.client.assistants.getSubgraphs("nested", { namespace: "outer" }))).toEqual(["outer"]);
    const inner = await rt.client.assistants.getSubgraphs("nested", { namespace: "outer|inner", recurse: true });
    expect(Object.keys(inner)).toEqual(["outer|inner"]);
    expect(inner["outer|inner"]).toMatchObject({ state: childState });
    expect(await rt.client.assistants.getSubgraphs("nested", { namespace: "outer|inner" })).toEqual({});
    expect(await rt.client.assistants.getSubgraphs("nested", { namespace: "nothing" })).toEqual({});
    expect(await rt.client.assistants.getSubgraphs("zod_state")).toEqual({});
    await expect(rt.client.assistants.getSubgraphs("no-such-graph")).rejects.toThrow(/HTTP 404/);
  });

  test("Annotation subgraphs typed from the source, chained or added in a statement, by namespace", async () => {
    const assistant = await rt.client.assistants.create({ graphId: "annotation_nested" });
    const all = (await rt.client.assistants.getSubgraphs(assistant.assistant_id, {
      recurse: true,
    })) as unknown as Record<string, Record<string, unknown>>;
    expect(Object.keys(all)).toEqual(["middle", "middle|leaf"]);
    const log = { type: "array", items: { type: "string" } };
    const middle = {
      type: "object",
      properties: { log, middle: { type: "string", enum: ["middle_one", "middle_two"] } },
    };
    const leaf = { type: "object", properties: { log, leaf: { type: "string", enum: ["leaf_one", "leaf_two"] } } };
    expect(all).toMatchObject({
      middle: { state: middle, state_schema: middle, input: middle, output_schema: middle },
      "middle|leaf": { state: leaf, input_schema: leaf, output: leaf },
    });
    // A namespace alone answers the same schema (one reading of the source per graph).
    const one = await rt.client.assistants.getSubgraphs(assistant.assistant_id, {
      namespace: "middle|leaf",
      recurse: true,
    });
    expect(one).toMatchObject({ "middle|leaf": { state: leaf } });
    const root = (await rt.client.assistants.getSchemas(assistant.assistant_id)) as unknown as Record<string, unknown>;
    expect(root.state_schema).toMatchObject({ type: "object", properties: { log } });
    expect((root.state_schema as { properties: object }).properties).not.toHaveProperty("middle");
  });
});

describe("subgraph state through the official client", () => {
  test("a subgraph task carries its checkpoint and path; with subgraphs its state; both can be read and updated", async () => {
    const thread = await rt.client.threads.create();
    await rt.client.runs.wait(thread.thread_id, "nested", { input: { log: [] } });

    const state = await rt.client.threads.getState<Log>(thread.thread_id);
    expect(state.next).toEqual(["outer"]);
    expect(state.tasks).toEqual([
      {
        id: expect.any(String),
        name: "outer",
        path: ["__pregel_pull", "outer"],
        error: null,
        interrupts: [expect.objectContaining({ value: "answer?" })],
        checkpoint: { thread_id: thread.thread_id, checkpoint_ns: `outer:${state.tasks[0].id}` },
        state: null,
        result: null,
      },
    ]);

    const recursive = await rt.client.threads.getState<Log>(thread.thread_id, undefined, { subgraphs: true });
    const outer = recursive.tasks[0];
    expect(outer).toMatchObject({ name: "outer", path: ["__pregel_pull", "outer"], checkpoint: null });
    expect(outer.state).toEqual({
      values: { log: ["root started", "parent prepared"], parent: "parent_one" },
      next: ["inner"],
      tasks: [
        {
          id: expect.any(String),
          name: "inner",
          path: ["__pregel_pull", "inner"],
          error: null,
          interrupts: [expect.objectContaining({ value: "answer?" })],
          checkpoint: null,
          state: expect.objectContaining({ values: { log: ["root started", "parent prepared"] }, next: ["ask"] }),
          result: null,
        },
      ],
      metadata: expect.any(Object),
      created_at: expect.any(String),
      checkpoint: expect.objectContaining({ checkpoint_ns: `outer:${outer.id}` }),
      parent_checkpoint: expect.any(Object),
    });

    // The address of the task reads the subgraph's own state and history, and updates it.
    const address = state.tasks[0].checkpoint!;
    const inner = await rt.client.threads.getState<Log>(thread.thread_id, address);
    expect(inner.values).toMatchObject({ parent: "parent_one" });
    expect(inner.next).toEqual(["inner"]);
    expect(inner.tasks[0].checkpoint).toMatchObject({ checkpoint_ns: expect.stringMatching(/^outer:.+\|inner:/) });

    await rt.client.threads.updateState(thread.thread_id, { values: { parent: "parent_two" }, checkpoint: address });
    expect((await rt.client.threads.getState<Log>(thread.thread_id, address)).values.parent).toBe("parent_two");
    const history = await rt.client.threads.getHistory<Log>(thread.thread_id, { checkpoint: address });
    expect(history.length).toBeGreaterThan(1);
    expect(history.map((entry) => entry.values.parent)).toContain("parent_two");
    expect(history.every((entry) => entry.checkpoint?.checkpoint_ns === address.checkpoint_ns)).toBe(true);

    // The root sees the update in its subgraph's state, and still waits on the same task.
    const root = await rt.client.threads.getState<Log>(thread.thread_id, undefined, { subgraphs: true });
    expect(root.next).toEqual(["outer"]);
    expect(root.tasks[0].state?.values).toMatchObject({ parent: "parent_two" });
  });
});
