// A thread's state and history read with their messages as the API's dicts (plain-reads.ts) answer
// the same JSON as the read that revives them into LangChain instances first: for messages of every
// type, tool calls, additional kwargs, nested subgraph states and a history page.
import { randomUUID } from "node:crypto";
import {
  AIMessage,
  AIMessageChunk,
  ChatMessage,
  FunctionMessage,
  HumanMessage,
  HumanMessageChunk,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
  isBaseMessage,
  type BaseMessage,
} from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { Annotation, MessagesAnnotation, StateGraph, interrupt } from "@langchain/langgraph";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import pg from "pg";
import { serialize } from "../../src/common/serde";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { RuntimeSerializer, readPlain } from "../../src/graphs/plain-reads";
import { toThreadState, type ThreadState } from "../../src/threads/state";

const toolCall = { id: "call_1", name: "search", args: { q: "weather", n: [1, 2] }, type: "tool_call" as const };

/** Messages read as dicts directly (`true`), or revived as before (another class, a rewritten shape). */
const MESSAGES: [string, BaseMessage, boolean][] = [
  ["human", new HumanMessage("hello"), true],
  [
    "human, every field",
    new HumanMessage({
      content: [
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
      ],
      id: "h1",
      name: "ann",
      additional_kwargs: { nested: { list: [1, null, "x", { deep: true }] }, when: new Date(0) },
      response_metadata: { source: "ui" },
    }),
    true,
  ],
  [
    "ai with tool calls",
    new AIMessage({
      content: "",
      id: "a1",
      tool_calls: [toolCall],
      invalid_tool_calls: [{ id: "call_2", name: "bad", args: "{", error: "parse", type: "invalid_tool_call" }],
      usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      response_metadata: { model_name: "m", finish_reason: "tool_calls" },
      additional_kwargs: { refusal: null },
    }),
    true,
  ],
  ["system", new SystemMessage({ content: "be brief", id: "s1" }), true],
  [
    "tool",
    new ToolMessage({
      content: "sunny",
      tool_call_id: "call_1",
      name: "search",
      artifact: { raw: [1] },
      status: "error",
    }),
    true,
  ],
  [
    "ai with raw tool calls",
    new AIMessage({
      content: "",
      additional_kwargs: { tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: '{"a":1}' } }] },
    }),
    false,
  ],
  ["ai, v1 content", new AIMessage({ content: "x", response_metadata: { output_version: "v1" } }), false],
  ["chat", new ChatMessage({ content: "c", role: "critic" }), false],
  ["function", new FunctionMessage({ content: "f", name: "fn" }), false],
  ["remove", new RemoveMessage({ id: "x" }), false],
  ["ai chunk", new AIMessageChunk({ content: "a", id: "c1" }), false],
  ["human chunk", new HumanMessageChunk({ content: "h" }), false],
  [
    "a message in a message",
    new AIMessage({ content: "x", additional_kwargs: { quoted: new HumanMessage("q") } }),
    false,
  ],
  ["an undefined field", new HumanMessage({ content: "u", name: undefined }), false],
];

test.each(MESSAGES)("a blob with a %s message reads as the same JSON", async (_name, message, direct) => {
  const value = { messages: [message, new AIMessage("after")], nested: { list: [message, { deep: message }] }, n: 1 };
  const [type, bytes] = await new JsonPlusSerializer().dumpsTyped(value);
  const revived = await new JsonPlusSerializer().loadsTyped(type, bytes);
  const serde = new RuntimeSerializer();
  const read = await readPlain(() => serde.loadsTyped(type, bytes));
  expect(JSON.parse(serialize(read))).toEqual(JSON.parse(serialize(revived)));
  expect(isBaseMessage(read.messages[0])).toBe(!direct);
  // Outside a plain read the serializer revives as LangGraph's does (a graph's nodes get instances).
  expect(isBaseMessage((await serde.loadsTyped(type, bytes)).messages[0])).toBe(true);
});

test("a message stored without the fields its constructor adds (another writer's) reads as the revived one", async () => {
  const stored = (name: string, kwargs: Record<string, unknown>) => ({
    lc: 1,
    type: "constructor",
    id: ["langchain_core", "messages", name],
    kwargs,
  });
  const blob = JSON.stringify({
    messages: [
      stored("HumanMessage", { content: "old" }),
      stored("AIMessage", { content: "older", additional_kwargs: {}, response_metadata: {} }),
    ],
  });
  const revived = await new JsonPlusSerializer().loadsTyped("json", blob);
  const serde = new RuntimeSerializer();
  const read = await readPlain(() => serde.loadsTyped("json", blob));
  expect(JSON.parse(serialize(read))).toEqual(JSON.parse(serialize(revived)));
  expect(JSON.parse(serialize(read)).messages[1]).toMatchObject({ tool_calls: [], invalid_tool_calls: [] });
});

let database: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
  pool.on("error", () => undefined);
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

test("state (with subgraphs) and history read plain are the JSON of the revived reads", async () => {
  const checkpointer = new RuntimeCheckpointer(pool, undefined, { schema: "plain_reads_test" });
  await checkpointer.setup();
  // A subgraph that answers with a tool call, then stops at an interrupt: the parent's pending
  // task holds the subgraph's state.
  const inner = new StateGraph(MessagesAnnotation)
    .addNode("answer", () => ({
      messages: [new AIMessage({ content: "", tool_calls: [toolCall], additional_kwargs: { k: [1] } })],
    }))
    .addNode("ask", () => {
      const reply = interrupt({ question: "go on?", context: [new HumanMessage("why")] });
      return { messages: [new HumanMessage(String(reply))] };
    })
    .addEdge("__start__", "answer")
    .addEdge("answer", "ask")
    .compile();
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("prepare", () => ({ messages: MESSAGES.filter(([name]) => name !== "remove").map(([, m]) => m) }))
    .addNode("inner", inner)
    .addEdge("__start__", "prepare")
    .addEdge("prepare", "inner")
    .compile({ checkpointer });
  const config = { configurable: { thread_id: randomUUID() } };
  await graph.invoke({ messages: [{ role: "user", content: "start" }] }, config);

  const json = (value: unknown) => JSON.parse(JSON.stringify(value));
  const revived = toThreadState(await graph.getState(config, { subgraphs: true }));
  const plainSnapshot = await readPlain(() => graph.getState(config, { subgraphs: true }));
  expect(json(toThreadState(plainSnapshot))).toEqual(json(revived));
  // The read went plain, down to the subgraph's state.
  expect(isBaseMessage(plainSnapshot.values.messages[0])).toBe(false);
  const nested = plainSnapshot.tasks[0]!.state as { values: { messages: unknown[] } };
  // Its messages of other classes (a chat message, chunks) revived, the rest not.
  const revivedCount = nested.values.messages.filter((message) => isBaseMessage(message)).length;
  expect(revivedCount).toBe(MESSAGES.filter(([name, , direct]) => !direct && name !== "remove").length);
  expect(nested.values.messages.length - revivedCount).toBeGreaterThan(5);
  expect(revived.tasks[0]!.interrupts).toHaveLength(1);

  const page = async (plain: boolean) => {
    const states: ThreadState[] = [];
    const revivedFirsts: boolean[] = [];
    // As the service reads it: the history's generator made outside, iterated inside.
    const snapshots = graph.getStateHistory(config, { limit: 10 });
    const read = async () => {
      for await (const snapshot of snapshots) {
        if (snapshot.values.messages?.length) revivedFirsts.push(isBaseMessage(snapshot.values.messages[0]));
        states.push(toThreadState(snapshot));
      }
    };
    await (plain ? readPlain(read) : read());
    // Every checkpoint of the page (those mid-run keep their tasks' writes, which a page leaves apart).
    expect(revivedFirsts.length).toBeGreaterThanOrEqual(2);
    expect(revivedFirsts.every((revived) => revived === !plain)).toBe(true);
    return json(states);
  };
  const history = await page(true);
  expect(history.length).toBeGreaterThanOrEqual(3);
  expect(history).toEqual(await page(false));
});

test("a checkpoint whose pending writes go through the graph's reducer is read with instances", async () => {
  const checkpointer = new RuntimeCheckpointer(pool, undefined, { schema: "plain_reads_test" });
  await checkpointer.setup();
  // A reducer of the graph's own that needs instances, on both sides.
  const State = Annotation.Root({
    messages: Annotation<BaseMessage[]>({
      reducer: (left, right) => {
        if (![...left, ...right].every((message) => isBaseMessage(message))) throw new Error("not a message");
        return left.concat(right);
      },
      default: () => [],
    }),
  });
  // Two tasks in one step: one finishes (its write is pending on the checkpoint), one interrupts.
  const graph = new StateGraph(State)
    .addNode("seed", () => ({ messages: [new HumanMessage("start"), new AIMessage("first")] }))
    .addNode("done", () => ({ messages: [new AIMessage("done")] }))
    .addNode("ask", () => ({ messages: [new HumanMessage(String(interrupt("go on?")))] }))
    .addEdge("__start__", "seed")
    .addEdge("seed", "done")
    .addEdge("seed", "ask")
    .compile({ checkpointer });
  const config = { configurable: { thread_id: randomUUID() } };
  await graph.invoke({ messages: [] }, config);
  const revived = toThreadState(await graph.getState(config));
  expect((revived.values as { messages: { content: string }[] }).messages.map((m) => m.content)).toEqual([
    "start",
    "first",
    "done",
  ]);
  expect(JSON.parse(JSON.stringify(toThreadState(await readPlain(() => graph.getState(config)))))).toEqual(
    JSON.parse(JSON.stringify(revived)),
  );
});
