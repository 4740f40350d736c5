// A2A with the official A2A JS SDK's client (@a2a-js/sdk 0.3, the JSON-RPC methods the hosted
// server serves): the agent card of an assistant, message/send (a task completed with the agent's
// reply), a second message in the same context (same thread: the conversation goes on),
// message/stream, and tasks/get; assistants without `messages` are not agents.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { PostgresTaskStore } from "../../src/a2a/task-store";
import { Client, startTestRuntime } from "../support/harness";

// The SDK's types are declared as ES module ones; its CommonJS build is what runs here.
const { ClientFactory } = require("@a2a-js/sdk/client") as typeof import("@a2a-js/sdk/client", {
  with: { "resolution-mode": "import" },
});

let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({
    env: { LANGGRAPH_JSON: path.resolve(__dirname, "../mcp/fixtures/langgraph.json") },
  });
});
afterAll(async () => {
  await rt?.close();
});

const userMessage = (text: string, contextId?: string) => ({
  kind: "message" as const,
  role: "user" as const,
  messageId: randomUUID(),
  parts: [{ kind: "text" as const, text }],
  ...(contextId ? { contextId } : {}),
});

function replyOf(task: { status: { message?: { parts: { kind: string; text?: string }[] } } }): string | undefined {
  return task.status.message?.parts.find((part) => part.kind === "text")?.text;
}

it("answers an assistant's agent card and runs its messages as tasks", async () => {
  const cardUrl = `${rt.url}/.well-known/agent-card.json?assistant_id=agent`;
  const card = (await (await fetch(cardUrl)).json()) as { url: string; name: string; capabilities: object };
  expect(card.name).toBe("agent");
  expect(card.url).toMatch(/\/a2a\/[0-9a-f-]{36}$/);
  expect(card.capabilities).toMatchObject({ streaming: true });

  const client = await new ClientFactory().createFromUrl(cardUrl, "");
  const first = await client.sendMessage({ message: userMessage("hello agent") });
  expect(first.kind).toBe("task");
  const task = first as Extract<typeof first, { kind: "task" }>;
  expect(task.status.state).toBe("completed");
  expect(replyOf(task)).toBe("echo: hello agent");

  // The same context is the same thread: the conversation goes on there.
  const second = (await client.sendMessage({ message: userMessage("again", task.contextId) })) as typeof task;
  expect(replyOf(second)).toBe("echo: again");
  const thread = await rt.client.threads.getState<{ messages: unknown[] }>(task.contextId);
  expect(thread.values.messages).toHaveLength(4);

  // tasks/get, from the stored task.
  const fetched = await client.getTask({ id: task.id });
  expect(fetched).toMatchObject({ id: task.id, status: { state: "completed" } });
  await expect(client.getTask({ id: randomUUID() })).rejects.toThrow();

  // message/stream: the task, then its status updates, ending completed.
  const states: string[] = [];
  let streamedReply: string | undefined;
  for await (const event of client.sendMessageStream({ message: userMessage("streamed") })) {
    if (event.kind === "task") states.push(event.status.state);
    if (event.kind === "status-update") {
      states.push(event.status.state);
      streamedReply = replyOf(event) ?? streamedReply;
    }
  }
  expect(states[0]).toBe("submitted");
  expect(states.at(-1)).toBe("completed");
  expect(streamedReply).toBe("echo: streamed");
});

it("is not served for unknown assistants, nor without an assistant id", async () => {
  expect((await fetch(`${rt.url}/.well-known/agent-card.json?assistant_id=${randomUUID()}`)).status).toBe(404);
  expect((await fetch(`${rt.url}/.well-known/agent-card.json`)).status).toBe(422);
  const post = await fetch(`${rt.url}/a2a/${randomUUID()}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: userMessage("hi") } }),
  });
  expect(post.status).toBe(404);
});

describe("under custom auth", () => {
  let authed: Awaited<ReturnType<typeof startTestRuntime>>;
  beforeAll(async () => {
    authed = await startTestRuntime({
      env: { LANGGRAPH_JSON: path.resolve(__dirname, "../auth/fixtures/langgraph.json") },
    });
  });
  afterAll(async () => {
    await authed?.close();
  });

  it("keeps a user's tasks and conversations from another user", async () => {
    const as =
      (user: string): typeof fetch =>
      (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as object), authorization: `Bearer ${user}` } });
    // Under this handler a user sees only the assistants they own: Alice makes hers.
    const assistantId = (
      await new Client({ apiUrl: authed.url, defaultHeaders: { Authorization: "Bearer alice" } }).assistants.create({
        graphId: "agent",
      })
    ).assistant_id;
    const post = (user: string, method: string, params: object) =>
      as(user)(`${authed.url}/a2a/${assistantId}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      }).then(
        (answer) =>
          answer.json() as Promise<{
            result?: { id: string; contextId: string; status: { state: string } };
            error?: { code: number };
          }>,
      );

    const alice = await post("alice", "message/send", { message: userMessage("alice's secret") });
    expect(alice.result?.status.state).toBe("completed");
    // Bob cannot read Alice's task, nor continue her conversation.
    const read = await as("bob")(`${authed.url}/a2a/${assistantId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: alice.result!.id } }),
    });
    expect(read.status).toBe(404);
    // Bob does not see Alice's assistant at all; were it shared, her thread would still be hers.
    const hijack = await as("bob")(`${authed.url}/a2a/${assistantId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: userMessage("mine now", alice.result!.contextId) },
      }),
    });
    expect(hijack.status).toBe(404);
    expect((await post("alice", "tasks/get", { id: alice.result!.id })).result?.id).toBe(alice.result!.id);
    // Without a user, nothing.
    expect((await fetch(`${authed.url}/a2a/agent`, { method: "POST", body: "{}" })).status).toBe(401);
  });
});

it("answers a stored task only to a caller who may see its thread", async () => {
  const store = new PostgresTaskStore(rt.runtime.db, "an-assistant", async (contextId) => contextId === "mine");
  const task = (contextId: string) => ({
    kind: "task" as const,
    id: randomUUID(),
    contextId,
    status: { state: "completed" as const },
  });
  const mine = task("mine");
  const theirs = task("theirs");
  await store.save(mine);
  await store.save(theirs);
  expect(await store.load(mine.id)).toMatchObject({ id: mine.id });
  expect(await store.load(theirs.id)).toBeUndefined();
  // Another assistant's endpoint does not answer it either.
  expect(await new PostgresTaskStore(rt.runtime.db, "another-assistant").load(mine.id)).toBeUndefined();
});
