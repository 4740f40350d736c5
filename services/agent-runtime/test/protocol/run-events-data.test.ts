// What a protocol run's events carry: the graph's data as the wire writes it (messages as dicts,
// the rest as JSON would write it), taken when the graph gives it, not when the log gets it.
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { serialize } from "../../src/common/serde";
import { inferChannel } from "@langchain/langgraph/stream";
import { ProtocolRunEvents, routingOf } from "../../src/protocol/run-events";
import { MemoryThreadLog } from "../../src/queue/memory";

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

/** A thread log whose appends wait until `release()`: the log is slow while the graph goes on. */
function slowLog(log: MemoryThreadLog) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    release,
    appendMany: async (threadId: string, entries: { method: string; params: string }[]) => {
      await gate;
      return log.appendMany(threadId, entries);
    },
  };
}

const loggedData = async (log: MemoryThreadLog, threadId: string) =>
  (await log.range(threadId, 0, 100)).map((entry) => ({
    method: entry.method,
    data: (JSON.parse(entry.params) as { data: unknown }).data,
  }));

test("a custom event's data is in the log as the wire writes it", async () => {
  const log = new MemoryThreadLog();
  const data = {
    message: new AIMessage({ content: "hi", id: "ai-1" }),
    when: new Date("2026-11-26T00:00:00Z"),
    big: BigInt(12),
    failure: new TypeError("bad"),
    point: new Point(1, 2),
    map: new Map([["a", 1]]),
    nothing: undefined,
    holes: [undefined, () => 1, NaN],
    custom: { toJSON: () => ({ replaced: true }) },
  };
  const events = new ProtocolRunEvents(log, "wire", "agent");
  await events.event({ method: "custom", params: { namespace: [], data } });
  await events.end("completed");

  const [custom] = await loggedData(log, "wire");
  expect(custom).toEqual({ method: "custom", data: JSON.parse(serialize(data)) });
  expect(custom.data).toMatchObject({
    message: { type: "ai", content: "hi", id: "ai-1" },
    when: "2026-11-26T00:00:00.000Z",
    big: "12",
    failure: { error: "TypeError", message: "bad" },
    point: { x: 1, y: 2 },
    map: {},
    holes: [null, null, null],
    custom: { replaced: true },
  });
  expect(custom.data).not.toHaveProperty("nothing");
});

test("values are logged as they were when the graph gave them, though the graph changes them before the log writes", async () => {
  const store = new MemoryThreadLog();
  const log = slowLog(store);
  const events = new ProtocolRunEvents(log, "snapshot", "agent");
  const messages: BaseMessage[] = [new HumanMessage({ content: "hello", id: "h-1" })];
  const notes = { count: 1, seen: ["a"] };
  const state = { messages, notes };
  await events.event({ method: "values", params: { namespace: [], data: state } });
  // Data with no message in it is not copied on its way to JSON.
  await events.event({ method: "tasks", params: { namespace: [], data: { id: "t-1", input: { notes } } } });

  // The graph's next step, while the first events wait for the log.
  messages.push(new AIMessage({ content: "hello", id: "a-1" }));
  messages[0].content = "changed";
  notes.count = 2;
  notes.seen.push("b");
  log.release();
  await events.end("completed");

  const logged = await loggedData(store, "snapshot");
  expect(logged.map((entry) => entry.method)).toEqual(["values", "tasks", "lifecycle"]);
  expect(logged[0].data).toEqual({
    messages: [{ type: "human", content: "hello", id: "h-1" }],
    notes: { count: 1, seen: ["a"] },
  });
  expect(logged[1].data).toEqual({ id: "t-1", input: { notes: { count: 1, seen: ["a"] } } });
});

test("an interrupt in the values is asked for once, before the values that carry it", async () => {
  const log = new MemoryThreadLog();
  const events = new ProtocolRunEvents(log, "asked", "agent");
  const values = { answer: null, __interrupt__: [{ id: "int-1", value: { question: "sure?" } }] };
  await events.event({ method: "values", params: { namespace: [], data: values } });
  await events.event({ method: "values", params: { namespace: [], data: values } });
  await events.end("interrupted");

  expect(await loggedData(log, "asked")).toEqual([
    { method: "input.requested", data: { interrupt_id: "int-1", payload: { question: "sure?" } } },
    { method: "values", data: { answer: null } },
    { method: "values", data: { answer: null } },
    { method: "lifecycle", data: { event: "interrupted", graph_name: "agent" } },
  ]);
});

test("readers route a logged event by its namespace and channel as parsing all of it would", async () => {
  const log = new MemoryThreadLog();
  const events = new ProtocolRunEvents(log, "routing", "agent");
  // Namespace strings with quotes, brackets and the very text that follows a namespace.
  const odd = ['tool:"x"', 'a],"timestamp":1', "\\", "ü[]"];
  await events.event({
    method: "updates",
    params: { namespace: odd, node: "n", data: { node: "n", values: { a: 1 } } },
  });
  await events.event({ method: "messages", params: { namespace: ["agent:1"], data: { event: "message-start" } } });
  await events.event({ method: "custom", params: { namespace: [], data: { name: "progress", payload: 1 } } });
  await events.event({ method: "custom:status", params: { namespace: ["sub"], data: { done: false } } });
  await events.end("completed");

  const entries = await log.range("routing", 0, 100);
  expect(entries.map((entry) => entry.method)).toEqual(["updates", "messages", "custom", "custom", "lifecycle"]);
  for (const entry of entries) {
    const params = JSON.parse(entry.params) as { namespace: string[]; data: unknown };
    const { namespace, channel } = routingOf(entry.method, entry.params);
    expect(namespace).toEqual(params.namespace);
    expect(channel).toBe(inferChannel({ method: entry.method, params } as Parameters<typeof inferChannel>[0]));
  }
  expect(routingOf(entries[0].method, entries[0].params).namespace).toEqual(odd);
  expect(routingOf(entries[3].method, entries[3].params).channel).toBe("custom:status");
  // Params written another way (their keys in another order) are parsed whole.
  expect(routingOf("values", '{"data":{"a":1},"namespace":["x"],"timestamp":1}')).toEqual({
    namespace: ["x"],
    channel: "values",
  });
});
