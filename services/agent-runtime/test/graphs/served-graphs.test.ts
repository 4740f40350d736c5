// A runtime serving a langgraph.json as the official server would: LANGGRAPH_CONFIG from its env
// reaches the default assistant, getLogger() works in a run, a broken graph answers 409 while the
// others serve, a factory graph's thread can have its state updated later.
import path from "node:path";
import { createTestDatabase } from "@lgp/server-kit/src/testing";
import { startRuntime, startTestRuntime, type RunningRuntime } from "../support/harness";
import { defaultAssistantId } from "../../src/common/ids";

const SERVED = path.join(__dirname, "fixtures/served/langgraph.json");

let running: RunningRuntime & { database: { drop(): Promise<void> } };

beforeAll(async () => {
  running = await startTestRuntime({ env: { LANGGRAPH_JSON: SERVED } });
});
afterAll(async () => {
  await running?.close();
  delete process.env.LANGGRAPH_CONFIG;
});

test("LANGGRAPH_CONFIG (from langgraph.json's env) gives the default assistant its config and context", async () => {
  const [assistant] = await running.client.assistants.search({ graphId: "echo", metadata: { created_by: "system" } });
  expect(assistant.assistant_id).toBe(defaultAssistantId("echo"));
  expect(assistant.config).toEqual({ configurable: { flavour: "mint" } });
  expect(assistant.context).toEqual({ who: "langgraph.json" });
  // A run on it sees both; the graph logs through getLogger() as it runs.
  expect(await running.client.runs.wait(null, "echo", { input: {} })).toEqual({
    who: "langgraph.json",
    flavour: "mint",
  });
});

test("a graph that failed to load answers 409 with the cause; its assistant still exists", async () => {
  const assistant = await running.client.assistants.get(defaultAssistantId("broken"));
  expect(assistant.graph_id).toBe("broken");
  const thread = await running.client.threads.create();
  for (const call of [
    () => running.client.runs.wait(null, "broken", { input: {} }),
    () => running.client.runs.create(thread.thread_id, "broken", { input: {} }),
    () => running.client.assistants.getGraph("broken"),
  ]) {
    await expect(call()).rejects.toMatchObject({ status: 409 });
  }
  const response = await fetch(`${running.url}/runs/wait`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ assistant_id: "broken", input: {} }),
  });
  expect(response.status).toBe(409);
  expect(await response.json()).toEqual({
    detail: expect.stringMatching(
      /^Graph "broken" failed to load at start-up \(.*graphs\.ts:missing\): no export named "missing"$/,
    ),
  });
  // The other graphs serve.
  expect(await running.client.runs.wait(null, "echo", { input: {} })).toMatchObject({ flavour: "mint" });
});

test("a factory graph's thread keeps the run's config: its state can be updated and read later", async () => {
  const { client } = running;
  const assistant = await client.assistants.create({
    graphId: "dynamic",
    config: { configurable: { nodeName: "assistant" } },
  });
  const thread = await client.threads.create({ graphId: "dynamic" });
  expect(await client.runs.wait(thread.thread_id, assistant.assistant_id, { input: { messages: ["input"] } })).toEqual({
    messages: ["input", "assistant"],
  });
  expect((await client.threads.get(thread.thread_id)).config).toMatchObject({
    configurable: { nodeName: "assistant" },
  });
  await client.threads.updateState(thread.thread_id, { values: { messages: "update" }, asNode: "assistant" });
  expect((await client.threads.getState(thread.thread_id)).values).toEqual({
    messages: ["input", "assistant", "update"],
  });
});

test("a run's config is its assistant's and its own: an earlier run's on the same thread does not carry over", async () => {
  const { client } = running;
  const lemon = await client.assistants.create({ graphId: "echo", config: { configurable: { flavour: "lemon" } } });
  const thread = await client.threads.create();
  expect(
    await client.runs.wait(thread.thread_id, lemon.assistant_id, {
      input: {},
      config: { configurable: { flavour: "one-off" } },
    }),
  ).toMatchObject({ flavour: "one-off" });
  expect(await client.runs.wait(thread.thread_id, "echo", { input: {} })).toMatchObject({ flavour: "mint" });
  expect(await client.runs.wait(thread.thread_id, lemon.assistant_id, { input: {} })).toMatchObject({
    flavour: "lemon",
  });
});

test("a factory graph's views (graph, schemas) are built from the assistant's own config", async () => {
  const { client } = running;
  const assistant = await client.assistants.create({
    graphId: "dynamic",
    config: { configurable: { nodeName: "reviewer" } },
  });
  const drawn = await client.assistants.getGraph(assistant.assistant_id);
  expect(drawn.nodes.map((node) => node.id)).toContain("reviewer");
  expect(drawn.nodes.map((node) => node.id)).not.toContain("assistant");
});

test("LANGGRAPH_STRICT_GRAPHS=true: the broken graph stops start-up", async () => {
  const database = await createTestDatabase("agent-runtime");
  try {
    await expect(
      startRuntime(database.url, { env: { LANGGRAPH_JSON: SERVED, LANGGRAPH_STRICT_GRAPHS: "true" } }),
    ).rejects.toThrow(/^cannot load graph "broken" \(.*graphs\.ts:missing\): no export named "missing"$/);
  } finally {
    await database.drop();
  }
});
