// The thread-centric protocol through the official client (`client.threads.stream()` of
// @langchain/langgraph-sdk 1.15, the ThreadStream), over SSE and WebSocket, against a runtime in
// one queue mode (memory.test.ts, redis.test.ts run this suite). Raw requests check what the
// client does not show: status codes, error responses, `since`.
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk-1";
import WebSocket from "ws";
import { startTestRuntime, type RunningRuntime } from "../support/harness";

export const PROTOCOL_FIXTURES = path.resolve(__dirname, "fixtures/langgraph.json");
/** The same graphs in Python (the echo agent's answer streamed by a scripted chat model). */
export const PYTHON_PROTOCOL_FIXTURES = path.resolve(__dirname, "fixtures/python/langgraph.json");

type Transport = "sse" | "websocket";
interface Tree {
  graph_name: string;
  status: string;
  children?: Tree[];
}
type Thread = ReturnType<Client["threads"]["stream"]>;
interface WireEvent {
  seq: number;
  method: string;
  params: { namespace: string[]; node?: string; data: Record<string, unknown> };
}

export const webSocketFactory = (url: string) => new WebSocket(url) as unknown as globalThis.WebSocket;

export function openThread(
  url: string,
  assistantId: string,
  transport: Transport,
  options: { threadId?: string; fetch?: typeof fetch } = {},
): Thread {
  const client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
  const settings = {
    assistantId,
    ...(transport === "websocket" ? { transport: "websocket" as const, webSocketFactory } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  return options.threadId ? client.threads.stream(options.threadId, settings) : client.threads.stream(settings);
}

/** Events of a subscription until `done` says stop (or `timeoutMs` passes: then it throws). */
export async function eventsUntil(
  thread: Thread,
  channels: string[],
  done: (event: WireEvent, all: WireEvent[]) => boolean,
  options: { namespaces?: string[][]; depth?: number; timeoutMs?: number; then?: () => Promise<unknown> } = {},
): Promise<WireEvent[]> {
  const handle = await thread.subscribe({ channels, namespaces: options.namespaces, depth: options.depth } as never);
  // What starts the events comes after the subscription: the client narrows a later stream to
  // events after those it has already seen.
  await options.then?.();
  const events: WireEvent[] = [];
  const timer = setTimeout(() => handle.close(), options.timeoutMs ?? 15_000);
  try {
    for await (const event of handle as AsyncIterable<WireEvent>) {
      events.push(event);
      if (done(event, events)) break;
    }
  } finally {
    clearTimeout(timer);
    handle.close();
  }
  if (!events.length || !done(events.at(-1)!, events))
    throw new Error(`the subscription ended early: ${JSON.stringify(events.map((e) => [e.method, e.params.data]))}`);
  return events;
}

export const rootEnd = (event: WireEvent) =>
  event.method === "lifecycle" &&
  event.params.namespace.length === 0 &&
  ["completed", "interrupted", "failed"].includes(String(event.params.data.event));

const messageTexts = (values: unknown) =>
  ((values as { messages?: { content?: unknown; kwargs?: { content?: unknown } }[] })?.messages ?? []).map((message) =>
    String(message.kwargs?.content ?? message.content),
  );

export function protocolSuite(mode: { redis: boolean; workerThreads?: number; language?: "js" | "python" }): void {
  // The official client's projections race its own subscriptions: one it opens once run.start is
  // answered can miss a run that has ended by then, and it pauses subscriptions a macrotask after a
  // root terminal event. On a loaded machine a test here loses such a race now and then (1 in 4 to
  // 6 runs of this file beside three busy loops, with the tree of 2026-12-07 before its protocol
  // reader's change as with it); such a test runs again, at most twice, its first errors logged.
  jest.retryTimes(2, { logErrorsBeforeRetry: true });
  let runtime: RunningRuntime;
  const threads: Thread[] = [];
  const open = (assistantId: string, transport: Transport, options?: Parameters<typeof openThread>[3]) => {
    const thread = openThread(runtime.url, assistantId, transport, options);
    threads.push(thread);
    return thread;
  };
  const command = (threadId: string, body: unknown) =>
    fetch(`${runtime.url}/threads/${threadId}/commands`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  /** The first `count` events of a raw SSE stream of the thread. */
  const readEvents = async (threadId: string, body: unknown, count: number): Promise<WireEvent[]> => {
    const controller = new AbortController();
    const response = await fetch(`${runtime.url}/threads/${threadId}/stream/events`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const decoder = new TextDecoder();
    let text = "";
    const reader = response.body!.getReader();
    while ((text.match(/^data: /gm) ?? []).length < count) text += decoder.decode((await reader.read()).value);
    controller.abort();
    return [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]) as WireEvent).slice(0, count);
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({
      redis: mode.redis,
      env: {
        LANGGRAPH_JSON: mode.language === "python" ? PYTHON_PROTOCOL_FIXTURES : PROTOCOL_FIXTURES,
        WORKER_THREADS: String(mode.workerThreads ?? 0),
      },
    });
  }, 60_000);

  afterEach(async () => {
    await Promise.all(threads.splice(0).map((thread) => thread.close().catch(() => undefined)));
  });

  afterAll(() => runtime?.close());

  describe.each<Transport>(["sse", "websocket"])("over %s", (transport) => {
    test("a run's messages stream as they are made, and its output is the thread's state", async () => {
      const thread = open("agent", transport);
      // Asked for before the run starts, as a chat UI does (the client narrows later streams to
      // events after those it has seen).
      const messages = thread.messages;
      // The output too: the client asks for it only once run.start is answered, and a run that ends
      // before that subscription is answered leaves it empty (the client's own race, not the server's).
      const output = thread.output;
      await thread.run.start({ input: { messages: [{ type: "human", content: "hi" }] } });
      const texts: string[] = [];
      for await (const message of messages) {
        texts.push(String(await message.text));
        if (texts.includes("echo: hi")) break;
      }
      expect(texts).toContain("echo: hi");
      expect(messageTexts(await output)).toEqual(["hi", "echo: hi"]);
    });

    test("an interrupt is shown and resumed with input.respond", async () => {
      const thread = open("approval", transport);
      await thread.run.start({ input: { messages: [{ type: "human", content: "ship it" }] } });
      await thread.output;
      expect(thread.interrupts).toHaveLength(1);
      const [request] = thread.interrupts;
      expect(request.payload).toEqual({ question: "Approve this draft?", draft: "proposal: ship it" });
      const end = await eventsUntil(
        thread,
        ["lifecycle"],
        (event) => rootEnd(event) && event.params.data.event === "completed",
        {
          then: () =>
            thread.input.respond({
              interrupt_id: request.interruptId,
              namespace: request.namespace,
              response: { approved: true },
            }),
        },
      );
      expect(end.at(-1)!.params.data.event).toBe("completed");
      const state = await runtime.client.threads.getState(thread.threadId);
      expect(messageTexts(state.values)).toEqual(["ship it", "published: proposal: ship it"]);
    });

    test("input given to run.start on a thread stopped at an interrupt resumes it", async () => {
      const thread = open("approval", transport);
      await thread.run.start({ input: { messages: [{ type: "human", content: "go on" }] } });
      await thread.output;
      expect(thread.interrupts).toHaveLength(1);
      const end = await eventsUntil(
        thread,
        ["lifecycle"],
        (event) => rootEnd(event) && event.params.data.event === "completed",
        { then: () => thread.run.start({ input: { approved: true } }) },
      );
      expect(end.at(-1)!.params.data.event).toBe("completed");
      const state = await runtime.client.threads.getState(thread.threadId);
      expect(messageTexts(state.values)).toEqual(["go on", "published: proposal: go on"]);
    });

    test("tool calls are assembled from tool events, with their output", async () => {
      const thread = open("tooled", transport);
      const toolCalls = thread.toolCalls;
      // Asked for before the run starts, as in the output test above: asked for after the tool
      // call, a run that had ended by then left it empty (the client's own race).
      const output = thread.output;
      await thread.run.start({ input: { messages: [{ type: "human", content: "weather?" }] } });
      const calls: { name: string; input: unknown; output: unknown }[] = [];
      for await (const call of toolCalls) {
        calls.push({ name: call.name, input: call.input, output: await call.output });
        break;
      }
      expect(calls).toEqual([{ name: "lookup", input: { city: "Paris" }, output: "sunny in Paris" }]);
      expect(messageTexts(await output).at(-1)).toBe("done: sunny in Paris");
    });
  });

  test("namespaces and depth narrow a stream to a subgraph; agent.getTree shows the graphs the run went through", async () => {
    const thread = open("nested", "sse");
    const events = await eventsUntil(
      thread,
      ["custom", "lifecycle"],
      (event) =>
        event.method === "lifecycle" &&
        event.params.data.event === "completed" &&
        event.params.data.graph_name === "child",
      {
        namespaces: [["child"]],
        depth: 0,
        then: () => thread.run.start({ input: { messages: [{ type: "human", content: "go" }] } }),
      },
    );
    expect(
      events.every((event) => event.params.namespace.length === 1 && event.params.namespace[0].startsWith("child:")),
    ).toBe(true);
    expect(events.find((event) => event.method === "custom")?.params.data).toEqual({ payload: { progress: "inner" } });
    expect(events.map((event) => event.params.data.event).filter(Boolean)).toEqual(["started", "completed"]);
    // The tree of the run: the root, the child subgraph and its node.
    const { tree } = (await thread.agent.getTree()) as unknown as { tree: Tree };
    const shape = (node: Tree): unknown => [node.graph_name, node.status, (node.children ?? []).map(shape)];
    await runtime.client.runs.join(thread.threadId, (await runtime.client.runs.list(thread.threadId))[0].run_id);
    const { tree: finished } = (await thread.agent.getTree()) as unknown as { tree: Tree };
    expect(tree.children?.[0]?.graph_name).toBe("child");
    expect(shape(finished)).toEqual([
      "nested",
      "completed",
      [
        ["child", "completed", [["inner", "completed", []]]],
        ["after", "completed", []],
      ],
    ]);
  });

  test("a graph that fails ends its root lifecycle as failed, with the error", async () => {
    const thread = open("failing", "sse");
    const events = await eventsUntil(thread, ["lifecycle"], rootEnd, {
      then: () => thread.run.start({ input: { messages: [] } }),
    });
    expect(events.at(-1)!.params.data).toMatchObject({
      event: "failed",
      graph_name: "failing",
      error: "the graph broke",
    });
  });

  test("two clients on one thread, one over SSE and one over a WebSocket, see the same run", async () => {
    const starter = open("steps", "sse");
    const watcher = open("steps", "websocket", { threadId: starter.threadId });
    const [seen, watched] = await Promise.all([
      eventsUntil(starter, ["values", "lifecycle"], rootEnd, {
        then: () => starter.run.start({ input: {}, context: { delay_ms: 100 } } as never),
      }),
      eventsUntil(watcher, ["values", "lifecycle"], rootEnd),
    ]);
    const summary = (events: WireEvent[]) => events.map((event) => `${event.seq}:${event.method}`);
    expect(summary(watched)).toEqual(summary(seen));
    expect(seen.filter((event) => event.method === "values").at(-1)!.params.data.visited).toEqual([
      "one",
      "two",
      "three",
    ]);
  });

  test("a stream cut in the middle of a run reconnects and misses nothing", async () => {
    let cuts = 0;
    let streams = 0;
    // The first stream carrying `custom` to reach its fourth chunk breaks there, as a dropped connection would.
    const cutting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith("/stream/events") || !response.body) return response;
      // The stream the subscription below is served by (the client opens others beside it).
      if (!String(init?.body).includes('"custom"')) return response;
      streams += 1;
      const reader = response.body.getReader();
      let chunks = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (chunks++ === 3 && cuts === 0) {
            cuts += 1;
            await reader.cancel();
            controller.error(new TypeError("terminated"));
            return;
          }
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const thread = open("steps", "sse", { fetch: cutting });
    const events = await eventsUntil(thread, ["values", "lifecycle", "custom"], rootEnd, {
      then: () => thread.run.start({ input: {}, context: { delay_ms: 150 } } as never),
    });
    expect(cuts).toBe(1);
    expect(streams).toBeGreaterThan(1); // reconnected
    const seqs = events.map((event) => event.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const steps = events
      .filter((event) => event.method === "custom")
      .map((event) => (event.params.data.payload as { step: string }).step);
    expect(steps).toEqual(["one", "two", "three"]);
    expect(events.filter((event) => event.method === "values").at(-1)!.params.data.visited).toEqual([
      "one",
      "two",
      "three",
    ]);
  });

  test("a WebSocket dropped in the middle of a run reconnects, subscribes again and misses nothing", async () => {
    let sockets = 0;
    let dropped = false;
    // The first socket is cut (no close handshake) after its sixth frame.
    const factory = (url: string) => {
      const socket = new WebSocket(url);
      if (sockets++ === 0) {
        let frames = 0;
        socket.on("message", () => {
          if (++frames === 6 && !dropped) {
            dropped = true;
            socket.terminate();
          }
        });
      }
      return socket as unknown as globalThis.WebSocket;
    };
    const client = new Client({ apiUrl: runtime.url, callerOptions: { maxRetries: 0 } });
    const thread = client.threads.stream({ assistantId: "steps", transport: "websocket", webSocketFactory: factory });
    threads.push(thread);
    const events = await eventsUntil(thread, ["custom", "values", "lifecycle"], rootEnd, {
      then: () => thread.run.start({ input: {}, context: { delay_ms: 150 } } as never),
    });
    expect(dropped).toBe(true);
    expect(sockets).toBeGreaterThan(1);
    const seqs = events.map((event) => event.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    const steps = events
      .filter((event) => event.method === "custom")
      .map((event) => (event.params.data.payload as { step: string }).step);
    expect(steps).toEqual(["one", "two", "three"]);
    expect(events.at(-1)!.params.data.event).toBe("completed");
  });

  test("`since` replays only later events", async () => {
    const thread = open("agent", "sse");
    await thread.run.start({ input: { messages: [{ type: "human", content: "one" }] } });
    await thread.output;
    const all = await readEvents(thread.threadId, { channels: ["lifecycle"] }, 2);
    expect(all.map((event) => event.params.data.event).slice(0, 2)).toEqual(["running", "started"]);
    const later = await readEvents(thread.threadId, { channels: ["lifecycle"], since: all[0].seq }, 1);
    expect(later[0].seq).toBeGreaterThan(all[0].seq);
  });

  test("multitask strategies: reject refuses a second run (409), interrupt stops the first", async () => {
    const thread = open("steps", "sse");
    await eventsUntil(thread, ["custom"], () => true, {
      then: () => thread.run.start({ input: {}, context: { delay_ms: 400 } } as never),
    });
    await expect(
      thread.run.start({ input: {}, multitaskStrategy: "reject", context: { delay_ms: 0 } } as never),
    ).rejects.toThrow(/409/);
    const { run_id } = (await thread.run.start({
      input: {},
      multitaskStrategy: "interrupt",
      context: { delay_ms: 0 },
    } as never)) as { run_id: string };
    await runtime.client.runs.join(thread.threadId, run_id);
    const root = (await readEvents(thread.threadId, { channels: ["lifecycle"], namespaces: [[]], depth: 0 }, 4)).map(
      (event) => event.params.data.event,
    );
    expect(root).toEqual(["running", "interrupted", "running", "completed"]);
  });

  test("a run cancelled through the runs API ends as interrupted", async () => {
    const thread = open("steps", "sse");
    let runId = "";
    await eventsUntil(thread, ["custom", "lifecycle"], (event) => event.method === "custom", {
      then: async () => {
        runId = ((await thread.run.start({ input: {}, context: { delay_ms: 1000 } } as never)) as { run_id: string })
          .run_id;
      },
    });
    await runtime.client.runs.cancel(thread.threadId, runId);
    await runtime.client.runs.join(thread.threadId, runId);
    const events = await readEvents(thread.threadId, { channels: ["lifecycle"], namespaces: [[]], depth: 0 }, 2);
    expect(events.at(-1)!.params.data.event).toBe("interrupted");
  });

  test("state.get answers the thread's values in the protocol's shape and its checkpoint", async () => {
    const thread = open("agent", "sse");
    await thread.run.start({ input: { messages: [{ type: "human", content: "state" }] } });
    await thread.output;
    const response = await command(thread.threadId, { id: 7, method: "state.get", params: { keys: ["messages"] } });
    const body = (await response.json()) as {
      result: { values: { messages: { type: string; content: string }[] }; checkpoint: { id: string } };
      meta: { applied_through_seq: number };
    };
    expect(body).toMatchObject({ type: "success", id: 7, meta: { thread_id: thread.threadId } });
    expect(
      body.result.values.messages.map((message: { type: string; content: string }) => [message.type, message.content]),
    ).toEqual([
      ["human", "state"],
      ["ai", "echo: state"],
    ]);
    expect(body.result.checkpoint.id).toEqual(expect.any(String));
    expect(body.meta.applied_through_seq).toBeGreaterThan(0);
  });

  test("over a WebSocket, the answer to run.start comes before any event of the run it started", async () => {
    const threadId = crypto.randomUUID();
    const socket = new WebSocket(`${runtime.url.replace("http", "ws")}/threads/${threadId}/stream/events`);
    const frames: { type: string; id?: number; method?: string; params?: { data?: { event?: string } } }[] = [];
    socket.on("message", (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    socket.send(JSON.stringify({ id: 1, method: "subscription.subscribe", params: { channels: ["lifecycle"] } }));
    socket.send(
      JSON.stringify({
        id: 2,
        method: "run.start",
        params: { assistant_id: "agent", input: { messages: [{ type: "human", content: "order" }] } },
      }),
    );
    const ended = () => frames.some((frame) => ["completed", "failed"].includes(String(frame.params?.data?.event)));
    for (let waited = 0; !ended() && waited < 15_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    socket.close();
    expect(frames.map((frame) => (frame.type === "event" ? frame.params?.data?.event : `answer ${frame.id}`))).toEqual(
      expect.arrayContaining(["answer 1", "answer 2", "completed"]),
    );
    expect(frames.findIndex((frame) => frame.id === 2)).toBe(frames.findIndex((frame) => frame.type === "event") - 1);
  });

  test("bad commands get protocol errors; bad requests get HTTP errors", async () => {
    const threadId = crypto.randomUUID();
    const answer = async (body: unknown) => (await command(threadId, body)).json();
    expect(await answer({ id: 1, method: "run.launch" })).toMatchObject({
      type: "error",
      id: 1,
      error: "unknown_command",
    });
    expect(await answer({ id: 2, method: "run.start", params: {} })).toMatchObject({ error: "invalid_argument" });
    expect(await answer({ id: 8, method: "agent.getTree" })).toMatchObject({ error: "no_such_run" });
    expect(await answer({ id: 3, method: "input.respond", params: { interrupt_id: "x", response: 1 } })).toMatchObject({
      error: "no_such_run",
    });
    const noId = await command(threadId, { method: "run.start" });
    expect(noId.status).toBe(422);
    const unknownAssistant = await command(threadId, {
      id: 4,
      method: "run.start",
      params: { assistant_id: "nope", input: {} },
    });
    expect(unknownAssistant.status).toBe(404);
    const badChannel = await fetch(`${runtime.url}/threads/${threadId}/stream/events`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ channels: ["everything"] }),
    });
    expect(badChannel.status).toBe(422);
    expect(JSON.stringify(await badChannel.json())).toContain("channels");
    const plainGet = await fetch(`${runtime.url}/threads/${threadId}/stream/events`);
    expect(plainGet.status).toBe(426);

    // Over a WebSocket: a frame that is not JSON, then an unsupported channel.
    const socket = new WebSocket(`${runtime.url.replace("http", "ws")}/threads/${threadId}/stream/events`);
    const frames: unknown[] = [];
    socket.on("message", (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    socket.send("{not json");
    socket.send(JSON.stringify({ id: 5, method: "subscription.subscribe", params: { channels: ["nope"] } }));
    socket.send(JSON.stringify({ id: 6, method: "subscription.unsubscribe", params: { subscription_id: "sub-9" } }));
    while (frames.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    socket.close();
    expect(frames).toEqual([
      { type: "error", id: null, error: "invalid_argument", message: "Protocol commands must be valid JSON." },
      {
        type: "error",
        id: 5,
        error: "invalid_argument",
        message: "subscription.subscribe received an unsupported channel.",
      },
      { type: "error", id: 6, error: "no_such_subscription", message: "Unknown subscription: sub-9" },
    ]);
  });
}
