// The run tests, shared by the queue modes (in-process, on the main thread or on worker threads,
// and BullMQ + Redis Streams) and by the examples' two languages (the JS graphs, and their Python
// twins run by the Python graph host).
import { randomUUID } from "node:crypto";
import { collect, graphsOf, startTestRuntime, type GraphLanguage } from "../support/harness";

type Message = { type: string; content: string };
type Values = { messages: Message[] };
type Event = { event: string; data: unknown; id?: string };

const say = (content: string) => ({ messages: [{ role: "user", content }] });

export function describeRuns(mode: "memory" | "threads" | "redis", language: GraphLanguage = "js"): void {
  let rt: Awaited<ReturnType<typeof startTestRuntime>>;
  beforeAll(async () => {
    rt = await startTestRuntime({
      redis: mode === "redis",
      workers: 2,
      env: { ...graphsOf(language), ...(mode === "threads" ? { WORKER_THREADS: "1" } : {}) },
    });
  });
  afterAll(async () => {
    await rt?.close();
  });

  describe(`runs (${mode} queue${language === "python" ? ", Python graphs" : ""})`, () => {
    test("stream: metadata first, then every requested mode; the thread records the reply", async () => {
      const thread = await rt.client.threads.create();
      const events = (await collect(
        rt.client.runs.stream(thread.thread_id, "agent", {
          input: say("hi"),
          streamMode: ["values", "updates", "messages-tuple", "debug", "checkpoints", "tasks", "custom"],
        }),
      )) as Event[];
      expect(events[0].event).toBe("metadata");
      const { run_id: runId, attempt } = events[0].data as { run_id: string; attempt: number };
      expect(attempt).toBe(1);
      const kinds = new Set(events.map((event) => event.event));
      for (const kind of ["values", "updates", "messages", "debug", "checkpoints", "tasks"])
        expect(kinds).toContain(kind);
      const ids = events.map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      const updates = events.filter((event) => event.event === "updates");
      expect(updates.at(-1)!.data).toEqual({
        agent: { messages: [expect.objectContaining({ type: "ai", content: "echo: hi" })] },
      });
      const message = events.find((event) => event.event === "messages")!.data as [Message, Record<string, unknown>];
      expect(message[0]).toMatchObject({ type: "ai", content: "echo: hi" });
      expect(message[1]).toMatchObject({ langgraph_node: "agent" });
      const lastValues = events.filter((event) => event.event === "values").at(-1)!.data as Values;
      expect(lastValues.messages.map((m) => m.content)).toEqual(["hi", "echo: hi"]);

      const run = await rt.client.runs.get(thread.thread_id, runId);
      expect(run).toMatchObject({ run_id: runId, thread_id: thread.thread_id, status: "success" });
      const after = await rt.client.threads.get<Values>(thread.thread_id);
      expect(after.status).toBe("idle");
      expect(after.metadata).toMatchObject({ graph_id: "agent", assistant_id: run.assistant_id });
      expect(after.values.messages.at(-1)?.content).toBe("echo: hi");
    });

    test("the events mode streams LangChain's events beside the other modes", async () => {
      const thread = await rt.client.threads.create();
      const events = (await collect(
        rt.client.runs.stream(thread.thread_id, "agent", { input: say("ev"), streamMode: ["events", "updates"] }),
      )) as Event[];
      const kinds = events
        .filter((event) => event.event === "events")
        .map((event) => (event.data as { event: string }).event);
      // As on the official servers: the root graph's own chunks go out as their modes' events only
      // (LangGraph Python also has the node's own stream event).
      expect(kinds).toEqual(
        language === "python"
          ? ["on_chain_start", "on_chain_start", "on_chain_stream", "on_chain_end", "on_chain_end"]
          : ["on_chain_start", "on_chain_start", "on_chain_end", "on_chain_end"],
      );
      const updates = events.filter((event) => event.event === "updates");
      expect(updates).toHaveLength(1);
      expect(updates[0].data).toEqual({
        agent: { messages: [expect.objectContaining({ type: "ai", content: "echo: ev" })] },
      });
      const state = await rt.client.threads.getState<Values>(thread.thread_id);
      expect(state.values.messages.map((message) => message.content)).toEqual(["ev", "echo: ev"]);
    });

    test("stream headers: text/event-stream, Content-Location of the run, Location of its stream", async () => {
      const thread = await rt.client.threads.create();
      const response = await fetch(`${rt.url}/threads/${thread.thread_id}/runs/stream`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: "agent", input: say("raw"), stream_mode: "updates" }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const location = response.headers.get("content-location")!;
      expect(location).toMatch(new RegExp(`^/threads/${thread.thread_id}/runs/[0-9a-f-]{36}$`));
      expect(response.headers.get("location")).toBe(`${location}/stream`);
      const text = await response.text();
      const runId = location.split("/").at(-1);
      expect(text.startsWith(`event: metadata\ndata: {"run_id":"${runId}","attempt":1}\nid: `)).toBe(true);
      expect(text).toMatch(/event: updates\ndata: \{"agent":\{"messages":\[.*"echo: raw".*\]\}\}\nid: \S+\n\n/);
    });

    test("background run, join, list and get; the run context's reply_prefix", async () => {
      const thread = await rt.client.threads.create();
      const run = await rt.client.runs.create(thread.thread_id, "agent", {
        input: say("bg"),
        context: { reply_prefix: "bot: " },
        metadata: { purpose: "test" },
      });
      expect(run).toMatchObject({ thread_id: thread.thread_id, metadata: { purpose: "test" } });
      expect(["pending", "running", "success"]).toContain(run.status);
      const values = (await rt.client.runs.join(thread.thread_id, run.run_id)) as Values;
      expect(values.messages.at(-1)?.content).toBe("bot: bg");
      expect((await rt.client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
      const listed = await rt.client.runs.list(thread.thread_id);
      expect(listed.map((item) => item.run_id)).toEqual([run.run_id]);
      expect(await rt.client.runs.list(thread.thread_id, { status: "error" })).toEqual([]);
      // Joining a finished run answers at once.
      expect(((await rt.client.runs.join(thread.thread_id, run.run_id)) as Values).messages).toHaveLength(2);
    });

    test("wait answers the final values; an assistant UUID runs its active version", async () => {
      const assistant = await rt.client.assistants.create({ graphId: "agent", context: { reply_prefix: "v1: " } });
      await rt.client.assistants.update(assistant.assistant_id, { context: { reply_prefix: "v2: " } });
      const thread = await rt.client.threads.create();
      const values = (await rt.client.runs.wait(thread.thread_id, assistant.assistant_id, {
        input: say("a"),
      })) as Values;
      expect(values.messages.at(-1)?.content).toBe("v2: a");
      await rt.client.assistants.setLatest(assistant.assistant_id, 1);
      const again = (await rt.client.runs.wait(thread.thread_id, assistant.assistant_id, {
        input: say("b"),
      })) as Values;
      expect(again.messages.map((message) => message.content)).toEqual(["a", "v2: a", "b", "v1: b"]);
      // The run's context overrides the assistant's.
      const third = (await rt.client.runs.wait(thread.thread_id, assistant.assistant_id, {
        input: say("c"),
        context: { reply_prefix: "run: " },
      })) as Values;
      expect(third.messages.at(-1)?.content).toBe("run: c");
    });

    test("runs of one thread execute one at a time, in creation order", async () => {
      const thread = await rt.client.threads.create();
      const runs = [];
      // The first waits a second before it starts: the others wait behind it, the thread is busy.
      for (let i = 0; i < 5; i += 1)
        runs.push(
          await rt.client.runs.create(thread.thread_id, "agent", {
            input: say(`m${i}`),
            afterSeconds: i === 0 ? 1 : undefined,
          }),
        );
      expect((await rt.client.threads.get(thread.thread_id)).status).toBe("busy");
      await rt.client.runs.join(thread.thread_id, runs.at(-1)!.run_id);
      for (const run of runs) expect((await rt.client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
      const state = await rt.client.threads.getState<Values>(thread.thread_id);
      expect(state.values.messages.map((message) => message.content)).toEqual(
        [0, 1, 2, 3, 4].flatMap((i) => [`m${i}`, `echo: m${i}`]),
      );
      expect((await rt.client.threads.get(thread.thread_id)).status).toBe("idle");
      const listed = await rt.client.runs.list(thread.thread_id, { limit: 3, offset: 1 });
      expect(listed.map((run) => run.run_id)).toEqual(
        runs
          .slice(1, 4)
          .reverse()
          .map((run) => run.run_id),
      );
    });

    test("human approval: interrupt sets the thread interrupted; a command resumes it", async () => {
      const thread = await rt.client.threads.create();
      const events = (await collect(
        rt.client.runs.stream(thread.thread_id, "approval", { input: say("ship it"), streamMode: ["updates"] }),
      )) as Event[];
      const interrupt = events.find((event) => (event.data as Record<string, unknown>)?.__interrupt__);
      expect(interrupt).toBeDefined();
      const interrupted = await rt.client.threads.get(thread.thread_id);
      expect(interrupted.status).toBe("interrupted");
      const state = await rt.client.threads.getState(thread.thread_id);
      expect(state.next).toEqual(["review"]);
      expect(state.tasks[0].interrupts[0]).toMatchObject({
        value: { question: "Approve this draft?", draft: "proposal: ship it" },
      });

      const resumed = (await rt.client.runs.wait(thread.thread_id, "approval", {
        command: { resume: { approved: true } },
      })) as Values & { steps: string[] };
      expect(resumed.steps).toEqual(["propose", "review", "publish"]);
      expect(resumed.messages.at(-1)?.content).toBe("published: proposal: ship it");
      expect((await rt.client.threads.get(thread.thread_id)).status).toBe("idle");
    });

    test("a failing run: error event, run error, thread error", async () => {
      const thread = await rt.client.threads.create();
      const events = (await collect(
        rt.client.runs.stream(thread.thread_id, "agent", { input: { messages: [{ role: "robot", content: "beep" }] } }),
      )) as Event[];
      const error = events.find((event) => event.event === "error");
      expect(error?.data).toEqual({ error: expect.any(String), message: expect.any(String) });
      const [run] = await rt.client.runs.list(thread.thread_id);
      expect(run.status).toBe("error");
      expect((await rt.client.threads.get(thread.thread_id)).status).toBe("error");
      await expect(rt.client.runs.wait(thread.thread_id, "agent", { input: { messages: 5 } })).rejects.toThrow();
      // The thread takes new runs after an error.
      const values = (await rt.client.runs.wait(thread.thread_id, "agent", { input: say("ok") })) as Values;
      expect(values.messages.at(-1)?.content).toBe("echo: ok");
      expect((await rt.client.threads.get(thread.thread_id)).status).toBe("idle");
    });

    test("joinStream replays a run's events from the start or after Last-Event-ID", async () => {
      const thread = await rt.client.threads.create();
      const run = await rt.client.runs.create(thread.thread_id, "agent", {
        input: say("replay"),
        streamMode: ["values", "updates"],
      });
      const all = (await collect(rt.client.runs.joinStream(thread.thread_id, run.run_id))) as Event[];
      expect(all.map((event) => event.event)).toEqual(["metadata", "values", "updates", "values"]);
      const rest = (await collect(
        rt.client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: all[1].id }),
      )) as Event[];
      expect(rest.map((event) => event.id)).toEqual(all.slice(2).map((event) => event.id));
      const onlyUpdates = (await collect(
        rt.client.runs.joinStream(thread.thread_id, run.run_id, { streamMode: ["updates"] }),
      )) as Event[];
      expect(onlyUpdates.map((event) => event.event)).toEqual(["metadata", "updates"]);
    });

    test("after_seconds delays the start even when the run ahead of it wakes it early", async () => {
      const thread = await rt.client.threads.create();
      const first = await rt.client.runs.create(thread.thread_id, "agent", { input: say("now") });
      const later = await rt.client.runs.create(thread.thread_id, "agent", { input: say("later"), afterSeconds: 0.6 });
      await rt.client.runs.join(thread.thread_id, first.run_id);
      const values = (await rt.client.runs.join(thread.thread_id, later.run_id)) as Values;
      expect(values.messages.at(-1)?.content).toBe("echo: later");
      const [checkpoint] = await rt.client.threads
        .getHistory(thread.thread_id, { metadata: { run_id: later.run_id }, limit: 100 })
        .then((h) => h.slice(-1));
      const started = Date.parse(checkpoint.created_at!) - Date.parse(later.created_at);
      expect(started).toBeGreaterThanOrEqual(550);
    });

    test("a stream on a thread another process just deleted starts, then ends with an error event", async () => {
      const thread = await rt.client.threads.create();
      await rt.client.runs.wait(thread.thread_id, "agent", { input: say("known") });
      // Deleted behind this process's back (as another replica would).
      await rt.runtime.threadRepository.delete(thread.thread_id);
      const events = (await collect(
        rt.client.runs.stream(thread.thread_id, "agent", { input: say("gone") }),
      )) as Event[];
      expect(events.map((event) => event.event)).toEqual(["metadata", "error"]);
      expect(events[1].data).toMatchObject({ error: "NotFoundError", message: expect.stringContaining("not found") });
      // Once known to be gone, the thread is a plain 404 again.
      await expect(rt.client.runs.wait(thread.thread_id, "agent", { input: say("gone") })).rejects.toThrow(/HTTP 404/);
    });

    test("errors: unknown assistant, thread or run 404; malformed 422; nothing 5xx", async () => {
      const thread = await rt.client.threads.create();
      await expect(rt.client.runs.wait(thread.thread_id, randomUUID(), { input: say("x") })).rejects.toThrow(
        /HTTP 404/,
      );
      await expect(rt.client.runs.wait(thread.thread_id, "nope", { input: say("x") })).rejects.toThrow(/HTTP 404/);
      await expect(rt.client.runs.wait(randomUUID(), "agent", { input: say("x") })).rejects.toThrow(/HTTP 404/);
      await expect(rt.client.runs.get(thread.thread_id, randomUUID())).rejects.toThrow(/HTTP 404/);
      await expect(rt.client.runs.join(thread.thread_id, randomUUID())).rejects.toThrow(/HTTP 404/);
      await expect(rt.client.runs.list(randomUUID())).rejects.toThrow(/HTTP 404/);
      const bodies: unknown[] = [
        {},
        { assistant_id: {} },
        { assistant_id: "agent", stream_mode: ["colours"] },
        { assistant_id: "agent", multitask_strategy: "shout" },
        { assistant_id: "agent", interrupt_before: "all" },
        { assistant_id: "agent", after_seconds: -1 },
        [],
      ];
      for (const path of ["runs", "runs/stream", "runs/wait"]) {
        for (const body of bodies) {
          const response = await fetch(`${rt.url}/threads/${thread.thread_id}/${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
          expect({ path, body, status: response.status }).toEqual({ path, body, status: 422 });
        }
      }
      const badRun = await fetch(`${rt.url}/threads/${thread.thread_id}/runs/not-a-uuid`);
      expect(badRun.status).toBe(422);
      expect((await rt.client.threads.get(thread.thread_id)).status).toBe("idle");
    });
  });
}
