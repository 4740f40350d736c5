// Webhooks of real runs through the official client, in both queue modes: called once the run has
// ended with the run and its final values, retried when the receiver fails, never holding the run.
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { startRuntime, type RunningRuntime } from "../support/harness";
import { Receiver } from "./receiver";

type Message = { type: string; content: string };
type Payload = {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  status: string;
  values: { messages: Message[] } | null;
  error?: string;
  metadata: Record<string, unknown>;
};

const say = (content: string) => ({ messages: [{ role: "user", content }] });

describe.each(["memory", "redis"] as const)("webhooks of runs (%s queue)", (mode) => {
  let database: TestDatabase;
  let rt: RunningRuntime;
  let receiver: Receiver;
  beforeAll(async () => {
    database = await createTestDatabase("agent-runtime");
    rt = await startRuntime(database.url, {
      redis: mode === "redis",
      workers: 2,
      env: { WEBHOOK_RETRY_DELAY_MS: "20" },
    });
  });
  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.start();
  });
  afterEach(async () => {
    receiver.release();
    await receiver.stop();
  });
  afterAll(async () => {
    await rt?.close();
    await database?.drop();
  });

  test("called with the run and its final values, retried until the receiver accepts", async () => {
    receiver.statuses = [500, 502];
    const thread = await rt.client.threads.create();
    const run = await rt.client.runs.create(thread.thread_id, "agent", {
      input: say("hook"),
      webhook: receiver.url,
      metadata: { purpose: "test" },
    });
    await receiver.waitFor(3);
    const [first, , third] = receiver.bodies as Payload[];
    expect(third).toEqual(first);
    expect(third).toMatchObject({
      run_id: run.run_id,
      thread_id: thread.thread_id,
      assistant_id: run.assistant_id,
      status: "success",
      metadata: expect.objectContaining({ purpose: "test" }),
    });
    expect(third.values!.messages.map((message) => message.content)).toEqual(["hook", "echo: hook"]);
    expect(third.error).toBeUndefined();
  });

  test("the run does not wait for the receiver", async () => {
    receiver.hold = true;
    const thread = await rt.client.threads.create();
    const values = (await rt.client.runs.wait(thread.thread_id, "agent", {
      input: say("no waiting"),
      webhook: receiver.url,
    })) as { messages: Message[] };
    expect(values.messages.at(-1)?.content).toBe("echo: no waiting");
    // The receiver has not answered anything yet, and the thread is already free for the next run.
    expect((await rt.client.threads.get(thread.thread_id)).status).toBe("idle");
    await receiver.waitFor(1);
    expect((receiver.bodies[0] as Payload).status).toBe("success");
  });

  test("a failed run's webhook carries status error and the message", async () => {
    const thread = await rt.client.threads.create();
    await rt.client.runs.wait(thread.thread_id, "agent", {
      input: { messages: [{ role: "nonsense", content: "x" }] },
      webhook: receiver.url,
      raiseError: false,
    });
    await receiver.waitFor(1);
    const payload = receiver.bodies[0] as Payload;
    expect(payload).toMatchObject({ thread_id: thread.thread_id, status: "error", error: expect.any(String) });
  });

  test("stateless runs call their webhook too", async () => {
    const values = (await rt.client.runs.wait(null, "agent", { input: say("stateless"), webhook: receiver.url })) as {
      messages: Message[];
    };
    expect(values.messages.at(-1)?.content).toBe("echo: stateless");
    await receiver.waitFor(1);
    const payload = receiver.bodies[0] as Payload;
    expect(payload.status).toBe("success");
    expect(payload.values!.messages.at(-1)?.content).toBe("echo: stateless");
  });

  test("a run cancelled before it started calls its webhook with status interrupted", async () => {
    const thread = await rt.client.threads.create();
    const run = await rt.client.runs.create(thread.thread_id, "agent", {
      input: say("never"),
      webhook: receiver.url,
      afterSeconds: 60,
    });
    await rt.client.runs.cancel(thread.thread_id, run.run_id);
    await receiver.waitFor(1);
    expect(receiver.bodies[0]).toMatchObject({
      run_id: run.run_id,
      thread_id: thread.thread_id,
      status: "interrupted",
    });
  });

  test("a webhook is an http(s) URL or a path of this deployment; anything else is refused", async () => {
    for (const webhook of ["ftp://example.com/hook", "hooks/relative", "javascript:alert(1)"]) {
      const response = await fetch(`${rt.url}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: "agent", input: say("no"), webhook }),
      });
      expect([webhook, response.status]).toEqual([webhook, 422]);
      expect(JSON.stringify(await response.json())).toContain("webhook");
    }
  });
});
