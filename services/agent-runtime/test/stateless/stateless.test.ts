// Stateless runs (POST /runs, /runs/stream, /runs/wait, /runs/batch) through the official client,
// in both queue modes.
import { collect, startTestRuntime } from "../support/harness";

type Message = { type: string; content: string };
type Values = { messages: Message[] };

const say = (content: string) => ({ messages: [{ role: "user", content }] });

/** Polls until `check` holds (the jest timeout bounds the wait). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe.each(["memory", "redis"] as const)("stateless runs (%s queue)", (mode) => {
  let rt: Awaited<ReturnType<typeof startTestRuntime>>;
  beforeAll(async () => {
    rt = await startTestRuntime({ redis: mode === "redis", workers: 2 });
  });
  afterAll(async () => {
    await rt?.close();
  });

  const threadExists = (threadId: string) =>
    rt.client.threads.get(threadId).then(
      () => true,
      (error: Error) => {
        if (!/HTTP 404/.test(error.message)) throw error;
        return false;
      },
    );

  test("wait answers the final values; the temporary thread is deleted afterwards", async () => {
    let created: { run_id: string; thread_id?: string } | undefined;
    const values = (await rt.client.runs.wait(null, "agent", {
      input: say("hello"),
      onRunCreated: (meta) => (created = meta),
    })) as Values;
    expect(values.messages.map((message) => message.content)).toEqual(["hello", "echo: hello"]);
    expect(created?.thread_id).toBeDefined();
    await eventually(async () => !(await threadExists(created!.thread_id!)));
  });

  test("on_completion keep leaves the thread, with the run's state", async () => {
    let created: { run_id: string; thread_id?: string } | undefined;
    // The client's types leave onCompletion out of stateless waits, but it sends it (as on_completion).
    await rt.client.runs.wait(null, "agent", {
      input: say("keep me"),
      onCompletion: "keep",
      context: { reply_prefix: "kept: " },
      onRunCreated: (meta: { run_id: string; thread_id?: string }) => (created = meta),
    } as never);
    const threadId = created!.thread_id!;
    const thread = await rt.client.threads.get<Values>(threadId);
    expect(thread.values.messages.at(-1)?.content).toBe("kept: keep me");
    const run = await rt.client.runs.get(threadId, created!.run_id);
    expect(run.status).toBe("success");
  });

  test("stream relays the run's events, metadata first", async () => {
    const events = (await collect(
      rt.client.runs.stream(null, "agent", { input: say("streamed"), streamMode: ["values", "updates"] }),
    )) as { event: string; data: unknown }[];
    expect(events[0].event).toBe("metadata");
    expect(events.some((event) => event.event === "updates")).toBe(true);
    const last = events.filter((event) => event.event === "values").at(-1)!.data as Values;
    expect(last.messages.at(-1)?.content).toBe("echo: streamed");
  });

  test("a background run executes on its own thread, which is then deleted", async () => {
    const run = await rt.client.runs.create(null, "agent", { input: say("background") });
    expect(run).toMatchObject({ status: "pending", kwargs: expect.objectContaining({ temporary: true }) });
    await eventually(async () => !(await threadExists(run.thread_id)));
  });

  test("a background run cancelled before it started leaves no thread behind", async () => {
    const run = await rt.client.runs.create(null, "agent", { input: say("never"), afterSeconds: 60 });
    expect(await threadExists(run.thread_id)).toBe(true);
    await rt.client.runs.cancel(run.thread_id, run.run_id);
    await eventually(async () => !(await threadExists(run.thread_id)));
  });

  test("background with keep: the run completes and its thread stays", async () => {
    // createBatch sends each payload's fields as given (only assistantId is renamed).
    const [first, second] = await rt.client.runs.createBatch([
      { assistantId: "agent", input: say("one"), on_completion: "keep" },
      { assistantId: "agent", input: say("two"), on_completion: "keep" },
    ] as never);
    expect(first.thread_id).not.toBe(second.thread_id);
    for (const [run, text] of [
      [first, "one"],
      [second, "two"],
    ] as const) {
      const values = (await rt.client.runs.join(run.thread_id, run.run_id)) as Values;
      expect(values.messages.at(-1)?.content).toBe(`echo: ${text}`);
      expect((await rt.client.runs.get(run.thread_id, run.run_id)).status).toBe("success");
    }
  });

  test("a failing run answers __error__ to wait; unknown assistants are 404; bad bodies 422", async () => {
    await expect(rt.client.runs.wait(null, "no-such-graph", { input: say("x") })).rejects.toThrow(/HTTP 404/);
    await expect(rt.client.runs.createBatch([] as never)).rejects.toThrow(/HTTP 422/);
    const response = await fetch(`${rt.url}/runs/wait`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "agent", input: { messages: [{ role: "nonsense", content: "x" }] } }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { __error__?: { error: string; message: string } };
    expect(body.__error__?.message).toEqual(expect.any(String));
  });
});
