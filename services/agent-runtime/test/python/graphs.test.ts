// A project mixing JS and Python graphs (fixtures/mixed): one store for both languages (with the
// semantic index's Python embedding function), a Python run cancelled in its host, a host that
// dies and is restarted with its run resuming from its last checkpoint, a Python graph that
// cannot load, and a machine without a suitable Python.
import os from "node:os";
import path from "node:path";
import { createTestDatabase } from "@lgp/server-kit/src/testing";
import { ConfigError } from "@lgp/server-kit";
import { loadAgentRuntimeConfig } from "../../src/config";
import { createRuntime } from "../../src/runtime";
import { createLogger } from "@lgp/server-kit";
import { collect, graphsOf, startTestRuntime } from "../support/harness";

const MIXED = path.resolve(__dirname, "fixtures/mixed/langgraph.json");

type Values = { messages: { type: string; content: string }[] };
type Event = { event: string; data: unknown };
const say = (content: string) => ({ messages: [{ role: "user", content }] });
const lastText = (values: unknown) => (values as Values).messages.at(-1)?.content;

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startTestRuntime({ workers: 4, env: { LANGGRAPH_JSON: MIXED } });
}, 180_000);
afterAll(async () => {
  await rt?.close();
});

test("JS and Python graphs of one deployment share one store, searched by meaning", async () => {
  const thread = await rt.client.threads.create();
  const noted = await rt.client.runs.wait(thread.thread_id, "remember", { input: say("the cat sat on the mat") });
  expect(lastText(noted)).toBe("noted: the cat sat on the mat");
  // Written by the Python graph, found by the store endpoints and by a JS graph.
  const found = await rt.client.store.searchItems(["notes"], { query: "cat" });
  expect(found.items.map((item) => item.value.text)).toContain("the cat sat on the mat");
  const recalledByJs = await rt.client.runs.wait(null, "recall_js", { input: say("a cat") });
  expect(lastText(recalledByJs)).toBe("the cat sat on the mat");
  // Written through the API, found by a Python graph (its query embedded in the Python host).
  await rt.client.store.putItem(["notes"], "dogs", { text: "dogs bark at night" });
  const recalledByPython = await rt.client.runs.wait(null, "recall_py", { input: say("which dogs bark") });
  expect(lastText(recalledByPython)).toBe("dogs bark at night");
});

test("a JS graph and a Python graph serve side by side", async () => {
  const [js, python] = await Promise.all(
    ["js_agent", "py_agent"].map((graph) => rt.client.runs.wait(null, graph, { input: say("both") })),
  );
  expect(lastText(js)).toBe("echo: both");
  expect(lastText(python)).toBe("echo: both");
  const assistants = await rt.client.assistants.search({ limit: 100 });
  expect(assistants.map((assistant) => assistant.graph_id).sort()).toEqual(
    [
      "broken",
      "js_agent",
      "js_steps",
      "noisy",
      "py_agent",
      "recall_js",
      "recall_py",
      "remember",
      "steps",
      "streamer",
    ].sort(),
  );
});

test("a chat model's tokens: messages-tuple streams each chunk; messages streams the message so far", async () => {
  const thread = await rt.client.threads.create();
  const events = (await collect(
    rt.client.runs.stream(thread.thread_id, "streamer", {
      input: say("hello there"),
      streamMode: ["messages-tuple", "messages"],
    }),
  )) as Event[];
  const tokens = events
    .filter((event) => event.event === "messages")
    .map((event) => (event.data as [{ content: string; type: string }, { langgraph_node: string }])[0]);
  expect(tokens.map((chunk) => chunk.content)).toEqual(["echo:", " hello", " there", ""]);
  expect(tokens.every((chunk) => chunk.type === "AIMessageChunk")).toBe(true);
  // The classic mode: the message's metadata once, then the text so far at each token.
  const metadata = events.filter((event) => event.event === "messages/metadata");
  expect(metadata).toHaveLength(1);
  const partial = events
    .filter((event) => event.event === "messages/partial")
    .map((event) => (event.data as { content: string }[])[0].content);
  expect(partial).toEqual(["echo:", "echo: hello", "echo: hello there", "echo: hello there"]);
  const state = await rt.client.threads.getState<Values>(thread.thread_id);
  expect(state.values.messages.map((message) => message.content)).toEqual(["hello there", "echo: hello there"]);
});

test("a Python graph that cannot load: its use is a 409 saying why; the others serve", async () => {
  const thread = await rt.client.threads.create();
  await expect(rt.client.runs.wait(thread.thread_id, "broken", { input: say("x") })).rejects.toThrow(
    /HTTP 409.*nowhere_to_be_found/s,
  );
  expect(lastText(await rt.client.runs.wait(thread.thread_id, "py_agent", { input: say("still") }))).toBe(
    "echo: still",
  );
});

test("a graph's error ends its run as error with the Python exception's name and message", async () => {
  const thread = await rt.client.threads.create();
  const events = (await collect(rt.client.runs.stream(thread.thread_id, "noisy", { input: say("x") }))) as Event[];
  expect(events.at(-1)).toEqual({
    event: "error",
    data: { error: "RuntimeError", message: "noisy failure" },
    id: expect.anything(),
  });
  expect((await rt.client.threads.get(thread.thread_id)).status).toBe("error");
});

test("a cancelled run's Python task stops where it is; the host serves on", async () => {
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "steps", {
    input: {},
    context: { delay_ms: 20_000 },
    streamMode: ["custom"],
  });
  // Cancelled while its first step sleeps.
  for await (const part of rt.client.runs.joinStream(thread.thread_id, run.run_id)) if (part.event === "custom") break;
  const began = Date.now();
  await rt.client.runs.cancel(thread.thread_id, run.run_id, true);
  expect(Date.now() - began).toBeLessThan(5_000);
  expect((await rt.client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
  expect(lastText(await rt.client.runs.wait(null, "py_agent", { input: say("after") }))).toBe("echo: after");
});

test("a Python graph host that dies is restarted, and its run resumes from its last checkpoint", async () => {
  const host = rt.runtime.graphs.pythonHost()!;
  const pid = host.pid!;
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "steps", {
    input: {},
    context: { delay_ms: 1_500 },
    streamMode: ["custom"],
  });
  // The second step has started: the first is in a checkpoint.
  for await (const part of rt.client.runs.joinStream(thread.thread_id, run.run_id)) {
    if ((part.data as { step?: string })?.step === "two") break;
  }
  process.kill(pid, "SIGKILL");
  const values = (await rt.client.runs.join(thread.thread_id, run.run_id)) as { count: number; visited: string[] };
  // Step one ran once; the run went on from its checkpoint in a new attempt on the new host.
  expect(values).toEqual({ count: 3, visited: ["one", "two", "three"] });
  const finished = await rt.client.runs.get(thread.thread_id, run.run_id);
  expect(finished.status).toBe("success");
  expect(host.pid).not.toBe(pid);
}, 60_000);

test("a Python project on a machine without a suitable Python stops start-up, saying what to install", async () => {
  const database = await createTestDatabase("agent-runtime");
  try {
    const config = loadAgentRuntimeConfig({
      DATABASE_URL: database.url,
      LANGGRAPH_JSON: MIXED,
      PYTHON: "/nonexistent/python3",
      PYTHON_ENVIRONMENTS_DIR: path.join(os.tmpdir(), "lgp-no-python"),
      LOG_LEVEL: "silent",
    });
    const started = createRuntime(config, createLogger("no-python", "silent"));
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(/Python graphs need Python 3\.11 or newer.*install it/);
  } finally {
    await database.drop();
  }
});

describe("the Python examples (their http.app, MCP and A2A)", () => {
  let examples: Awaited<ReturnType<typeof startTestRuntime>>;
  beforeAll(async () => {
    examples = await startTestRuntime({ workers: 1, env: graphsOf("python") });
  }, 180_000);
  afterAll(async () => {
    await examples?.close();
  });

  test("its routes answer (path parameters, bodies, statuses); other requests reach the built-in routes", async () => {
    const about = await fetch(`${examples.url}/examples/about`);
    expect(about.status).toBe(200);
    expect(about.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await about.json()).toMatchObject({ graphs: ["agent", "approval", "steps", "tools"] });
    const echoed = await fetch(`${examples.url}/examples/agent/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hello: ["w", 0, "rld"] }),
    });
    expect(echoed.status).toBe(201);
    expect(await echoed.json()).toEqual({ graph: "agent", body: { hello: ["w", 0, "rld"] } });
    // A method its route does not take, and paths it has no route for, are the runtime's.
    expect((await fetch(`${examples.url}/examples/agent/echo`)).status).toBe(404);
    const search = await fetch(`${examples.url}/assistants/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ graph_id: "agent" }),
    });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { graph_id: string }[]).map((assistant) => assistant.graph_id)).toEqual(["agent"]);
  });

  test("their assistants are MCP tools and A2A agents", async () => {
    const mcp = async (body: object) =>
      (await (
        await fetch(`${examples.url}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...body }),
        })
      ).json()) as { result: { tools?: { name: string; inputSchema: object }[]; content?: { text: string }[] } };
    const listed = await mcp({ method: "tools/list" });
    const tool = listed.result.tools!.find((candidate) => candidate.name === "agent")!;
    // The tool's input schema is the Python graph's.
    expect(JSON.stringify(tool.inputSchema)).toContain("MessagesState");
    const called = await mcp({
      method: "tools/call",
      params: { name: "agent", arguments: { messages: [{ role: "user", content: "via mcp" }] } },
    });
    expect(called.result.content![0].text).toContain("echo: via mcp");
    const [assistant] = await examples.client.assistants.search({ graphId: "agent" });
    const sent = (await (
      await fetch(`${examples.url}/a2a/${assistant.assistant_id}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "message/send",
          params: { message: { role: "user", parts: [{ kind: "text", text: "via a2a" }], messageId: "m1" } },
        }),
      })
    ).json()) as { result: { status: { state: string; message: { parts: { text: string }[] } } } };
    expect(sent.result.status.state).toBe("completed");
    expect(sent.result.status.message.parts[0].text).toBe("echo: via a2a");
  });
});
