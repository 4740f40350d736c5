// Run behaviour the official server's own test suite expects (libs/langgraph-api/tests/api.test.mts):
// run metadata in checkpoint metadata, the events and legacy messages modes as it shapes them, debug,
// tasks and checkpoints events, a thread that stays interrupted through a state update, replay from
// `Last-Event-ID: -1`, and the examples reading content blocks. Embedded (in-memory queue) mode.
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { collect, startTestRuntime } from "../support/harness";

type Event = { event: string; data: any; id?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
type Message = { id: string; type: string; content: string };

const FIXTURE = path.join(__dirname, "fixtures/own-core");
const say = (content: unknown) => ({ messages: [{ type: "human", content }] });

let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  // The chat graph's project has its own copy of @langchain/core (a copy, not a link: another
  // module instance, whose message classes are not the runtime's).
  const copy = path.join(FIXTURE, "node_modules/@langchain/core");
  const real = path.dirname(require.resolve("@langchain/core/package.json"));
  const version = (dir: string) =>
    (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  // Made again after an upgrade, so the copy is the same version as the runtime's.
  if (existsSync(copy) && version(copy) !== version(real)) rmSync(copy, { recursive: true });
  if (!existsSync(copy)) cpSync(real, copy, { recursive: true, dereference: true });
  rt = await startTestRuntime({ env: { LANGGRAPH_JSON: path.join(FIXTURE, "langgraph.json") } });
}, 120_000);
afterAll(async () => {
  await rt?.close();
});

test("the run's metadata is in each of its checkpoints' metadata, so history filters by it", async () => {
  const thread = await rt.client.threads.create();
  await rt.client.runs.wait(thread.thread_id, "agent", { input: say("one") });
  await rt.client.runs.wait(thread.thread_id, "agent", { input: say("two"), metadata: { run_metadata: "mine" } });
  const full = await rt.client.threads.getHistory(thread.thread_id);
  const filtered = await rt.client.threads.getHistory(thread.thread_id, { metadata: { run_metadata: "mine" } });
  expect(full).toHaveLength(6);
  expect(filtered).toHaveLength(3);
  for (const state of filtered) expect(state.metadata).toMatchObject({ run_metadata: "mine", graph_id: "agent" });
  expect((filtered.at(-1)!.values as { messages: Message[] }).messages).toHaveLength(2);
});

test("events mode: LangChain's events without the root graph's on_chain_stream nor hidden steps", async () => {
  const thread = await rt.client.threads.create();
  const events = (await collect(
    rt.client.runs.stream(thread.thread_id, "agent", { input: say("ev"), streamMode: ["events", "updates"] }),
  )) as Event[];
  const runId = events[0].data.run_id as string;
  const langchain = events.filter((event) => event.event === "events").map((event) => event.data);
  expect(langchain.map((event) => `${event.event}:${event.name}`)).toEqual([
    "on_chain_start:LangGraph",
    "on_chain_start:agent",
    "on_chain_end:agent",
    "on_chain_end:LangGraph",
  ]);
  // The root run is the run itself, as on the official server.
  expect(langchain[0].run_id).toBe(runId);
  expect(events.filter((event) => event.event === "updates")).toHaveLength(1);
});

test("legacy messages mode, graph with its own @langchain/core: partials accumulate, then complete", async () => {
  const thread = await rt.client.threads.create();
  const events = (await collect(
    rt.client.runs.stream(thread.thread_id, "chat", { input: say("hi"), streamMode: "messages" }),
  )) as Event[];
  expect(new Set(events.map((event) => event.event))).toEqual(
    new Set(["metadata", "messages/metadata", "messages/partial", "messages/complete"]),
  );
  const partials = events.filter((event) => event.event === "messages/partial").map((event) => event.data[0]);
  expect(partials.map((message: Message) => message.content)).toEqual(
    [..."hello there"].map((_, index) => "hello there".slice(0, index + 1)),
  );
  const completed = events.filter((event) => event.event === "messages/complete").flatMap((event) => event.data);
  expect(completed.map((message: Message) => [message.type, message.content])).toEqual([
    ["human", "hi"],
    ["ai", "hello there"],
  ]);
  expect(completed[1].id).toBe(partials.at(-1).id);
  expect(events.at(-1)!.event).toBe("messages/complete");
  const metadata = events.filter((event) => event.event === "messages/metadata");
  expect(metadata).toHaveLength(1);
  expect(Object.keys(metadata[0].data)).toEqual([partials[0].id]);
});

test("legacy messages with values: a whole AI message gets a partial before its complete, after its values", async () => {
  const thread = await rt.client.threads.create();
  const events = (await collect(
    rt.client.runs.stream(thread.thread_id, "agent", { input: say("hi"), streamMode: ["messages", "values"] }),
  )) as Event[];
  const kinds = events.map((event) => event.event);
  expect(kinds).toEqual([
    "metadata",
    "values",
    "messages/complete",
    "messages/metadata",
    "messages/partial",
    "values",
    "messages/complete",
  ]);
  expect(events[4].data[0]).toMatchObject({ type: "ai", content: "echo: hi" });
  expect(events[6].data).toEqual([events[4].data[0]]);
});

test("debug checkpoint events carry checkpoint and parent_checkpoint, matching history", async () => {
  const thread = await rt.client.threads.create();
  const events = (await collect(
    rt.client.runs.stream(thread.thread_id, "agent", { input: say("dbg"), streamMode: "debug" }),
  )) as Event[];
  const checkpoints = events
    .filter((event) => event.event === "debug" && event.data.type === "checkpoint")
    .map((event) => event.data.payload);
  expect(checkpoints).toHaveLength(3);
  const history = (await rt.client.threads.getHistory(thread.thread_id, { limit: checkpoints.length })).reverse();
  const pick = (item: { metadata?: unknown; checkpoint?: unknown; parent_checkpoint?: unknown }) => ({
    step: (item.metadata as { step?: number } | null)?.step,
    checkpoint: item.checkpoint,
    parent_checkpoint: item.parent_checkpoint,
  });
  expect(checkpoints.map(pick)).toEqual(history.map(pick));
  expect(checkpoints[0].parent_checkpoint).toBeNull();
  expect(checkpoints[1]).not.toHaveProperty("parentConfig");
  expect(checkpoints[1].parent_config.configurable.checkpoint_id).toBe(checkpoints[0].checkpoint.checkpoint_id);
});

test("tasks / checkpoints stream modes as the official server sends them", async () => {
  const thread = await rt.client.threads.create();
  const events = (await collect(
    rt.client.runs.stream(thread.thread_id, "agent", { input: say("input"), streamMode: ["tasks", "checkpoints"] }),
  )) as Event[];
  expect(events).toMatchObject([
    { event: "metadata", data: { run_id: expect.any(String) } },
    {
      event: "checkpoints",
      data: { values: { messages: [] }, metadata: { source: "input", step: -1 }, next: ["__start__"] },
    },
    {
      event: "checkpoints",
      data: {
        values: { messages: [{ content: "input", type: "human" }] },
        metadata: { source: "loop", step: 0 },
        next: ["agent"],
      },
    },
    {
      event: "tasks",
      data: { name: "agent", input: { messages: [{ content: "input" }] }, triggers: ["branch:to:agent"] },
    },
    { event: "tasks", data: { name: "agent", result: { messages: [{ content: "echo: input" }] }, error: null } },
    { event: "checkpoints", data: { metadata: { source: "loop", step: 1 }, next: [] } },
  ]);
  expect(events).toHaveLength(6);
  for (const event of events.filter((item) => item.event === "checkpoints")) {
    expect(Object.keys(event.data).sort()).toEqual(["metadata", "next", "values"]);
  }
});

test("a state update on an interrupted thread keeps it interrupted while it has a next step", async () => {
  const thread = await rt.client.threads.create();
  await rt.client.runs.wait(thread.thread_id, "agent", { input: say("stop"), interruptBefore: ["agent"] });
  expect((await rt.client.threads.get(thread.thread_id)).status).toBe("interrupted");
  await rt.client.threads.updateState(thread.thread_id, { values: say("edited") });
  expect((await rt.client.threads.get(thread.thread_id)).status).toBe("interrupted");
  const state = await rt.client.threads.getState<{ messages: Message[] }>(thread.thread_id);
  expect(state.next).toEqual(["agent"]);
  await rt.client.runs.wait(thread.thread_id, "agent", { input: null });
  const after = await rt.client.threads.get<{ messages: Message[] }>(thread.thread_id);
  expect(after.status).toBe("idle");
  expect(after.values.messages.at(-1)?.content).toBe("echo: edited");
});

test("Last-Event-ID: -1 replays a run's stream from its start", async () => {
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "agent", { input: say("again"), streamMode: ["values"] });
  await rt.client.runs.join(thread.thread_id, run.run_id);
  const events = (await collect(
    rt.client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: "-1" }),
  )) as Event[];
  expect(events.map((event) => event.event)).toEqual(["metadata", "values", "values"]);
  expect(events[0].data).toEqual({ run_id: run.run_id, attempt: 1 });
});

test("event ids count from 0 as on the official in-memory server; Last-Event-ID n resumes after event n", async () => {
  const thread = await rt.client.threads.create();
  const streamed = (await collect(
    rt.client.runs.stream(thread.thread_id, "agent", { input: say("count"), streamMode: ["values"] }),
  )) as Event[];
  expect(streamed.map((event) => event.id)).toEqual(["0", "1", "2"]);
  const run = await rt.client.runs.create(thread.thread_id, "agent", { input: say("more"), streamMode: ["values"] });
  await rt.client.runs.join(thread.thread_id, run.run_id);
  const resumed = (await collect(
    rt.client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: "0" }),
  )) as Event[];
  expect(resumed.map((event) => [event.id, event.event])).toEqual([
    ["1", "values"],
    ["2", "values"],
  ]);
});

test("the examples read message content given as text blocks", async () => {
  const thread = await rt.client.threads.create();
  const blocks = [
    { type: "text", text: "ship " },
    { type: "text", text: "it" },
  ];
  await rt.client.runs.wait(thread.thread_id, "approval", { input: say(blocks) });
  const state = await rt.client.threads.getState<{ draft: string }>(thread.thread_id);
  expect(state.values.draft).toBe("proposal: ship it");
  expect(state.tasks[0].interrupts[0].value).toMatchObject({ draft: "proposal: ship it" });
  const echoed = (await rt.client.runs.wait(null, "agent", { input: say(blocks) })) as { messages: Message[] };
  expect(echoed.messages.at(-1)?.content).toBe("echo: ship it");
});
