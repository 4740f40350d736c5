// Tolerant in what it accepts, strict about values: what newer official SDKs, the Python SDK and
// pass-through proxies send is understood; a wrong type, a bad id or an out-of-range value is still
// a 422 that names where it is.
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: 1 });
});
afterAll(async () => {
  await rt?.close();
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${rt.url}${path}`, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

test("unknown query parameters are ignored (runs.join of SDKs since 1.7.3 sends cancel_on_disconnect)", async () => {
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "agent", { input: { messages: [] } });
  const joined = await call("GET", `/threads/${thread.thread_id}/runs/${run.run_id}/join?some_future_flag=1`);
  expect(joined.status).toBe(200);
  const listed = await call("GET", `/threads/${thread.thread_id}/runs?limit=5&include=everything&select=x`);
  expect(listed.status).toBe(200);
  expect(listed.body).toHaveLength(1);
  expect((await call("GET", `/threads/${thread.thread_id}?include=ttl`)).status).toBe(200);
});

test("unknown body fields are ignored on create and search", async () => {
  const assistant = await call("POST", "/assistants", { graph_id: "agent", brand_new_field: { a: 1 } });
  expect(assistant.status).toBe(200);
  const thread = await call("POST", "/threads", { metadata: { team: "a" }, extract: ["x"], future: true });
  expect(thread.status).toBe(200);
  const run = await call("POST", `/threads/${thread.body.thread_id}/runs/wait`, {
    assistant_id: "agent",
    input: { messages: [{ type: "human", content: "hi" }] },
    strict_resume: false,
    feedback_keys: ["score"],
  });
  expect(run.status).toBe(200);
  const search = await call("POST", "/threads/search", { metadata: { team: "a" }, extract: { x: "values.x" } });
  expect(search.status).toBe(200);
  expect(search.body.map((found: { thread_id: string }) => found.thread_id)).toEqual([thread.body.thread_id]);
});

test("null for an optional field means not given, at any depth the contract describes", async () => {
  // What the Python SDK sends for threads.create(supersteps=...): every optional field, null.
  const thread = await call("POST", "/threads", {
    thread_id: null,
    metadata: { graph_id: "agent" },
    if_exists: null,
    ttl: null,
    supersteps: [
      {
        updates: [
          {
            values: { messages: [{ type: "human", content: "from a superstep" }] },
            command: null,
            as_node: "agent",
          },
        ],
      },
    ],
  });
  expect(thread.status).toBe(200);
  expect(thread.body.metadata).toMatchObject({ graph_id: "agent" });
  const state = await call("GET", `/threads/${thread.body.thread_id}/state`);
  expect(state.body.values.messages[0].content).toBe("from a superstep");

  const run = await call("POST", `/threads/${thread.body.thread_id}/runs/wait`, {
    assistant_id: "agent",
    input: { messages: [{ type: "human", content: "next" }] },
    command: null,
    config: null,
    context: null,
    metadata: null,
    checkpoint_id: null,
    checkpoint: null,
    interrupt_before: null,
    interrupt_after: null,
    webhook: null,
    multitask_strategy: null,
    stream_mode: null,
  });
  expect(run.status).toBe(200);
  expect(run.body.messages.length).toBeGreaterThan(1);
  // User data keeps its nulls: metadata values, store values.
  const patched = await call("PATCH", `/threads/${thread.body.thread_id}`, { metadata: { reviewer: null } });
  expect(patched.status).toBe(200);
  expect(patched.body.metadata).toHaveProperty("reviewer", null);
  expect((await call("PUT", "/store/items", { namespace: ["n"], key: "k", value: { kept: null } })).status).toBe(204);
  expect((await call("GET", "/store/items?namespace=n&key=k")).body.value).toEqual({ kept: null });
});

test("an empty stream_mode means the default (values)", async () => {
  for (const streamMode of [[], ""]) {
    const response = await fetch(`${rt.url}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "agent", input: { messages: [] }, stream_mode: streamMode }),
    });
    expect(response.status).toBe(200);
    const events = [...(await response.text()).matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect({ streamMode, events: [...new Set(events)] }).toEqual({ streamMode, events: ["metadata", "values"] });
  }
});

test("a JSON body without Content-Type, as text/plain or as a form (curl -d), is read as JSON; a body that is not JSON is a 422", async () => {
  const bare = await fetch(`${rt.url}/assistants/search`, { method: "POST", body: Buffer.from('{"limit": 1}') });
  expect(bare.status).toBe(200);
  expect(await bare.json()).toHaveLength(1);
  const plain = await fetch(`${rt.url}/threads`, { method: "POST", body: '{"metadata": {"via": "text"}}' });
  expect(plain.headers.get("content-type")).toMatch(/json/);
  expect(plain.status).toBe(200);
  expect(((await plain.json()) as { metadata: unknown }).metadata).toEqual({ via: "text" });
  // What `curl -X POST .../threads/search -d '{}'` sends.
  const curled = await fetch(`${rt.url}/threads/search`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "{}",
  });
  expect(curled.status).toBe(200);
  expect(Array.isArray(await curled.json())).toBe(true);
  const garbage = await fetch(`${rt.url}/threads`, { method: "POST", body: "not json" });
  expect(garbage.status).toBe(422);
});

test("wrong types, bad ids and out-of-range values are still 422s naming where", async () => {
  const cases: [string, string, unknown, RegExp][] = [
    ["GET", "/threads/not-a-uuid", undefined, /thread_id/],
    ["GET", "/assistants/search?limit=abc", undefined, /./],
    ["POST", "/threads/search", { limit: "ten" }, /body\.limit/],
    ["POST", "/threads/search", { limit: -1 }, /body\.limit/],
    ["POST", "/threads", { thread_id: "nope" }, /body\.thread_id/],
    ["POST", "/threads", { metadata: [1, 2] }, /body\.metadata/],
    ["POST", "/runs/wait", { assistant_id: "agent", stream_mode: "sideways" }, /body\.stream_mode/],
    ["POST", "/runs/wait", { assistant_id: null }, /body\.assistant_id/],
  ];
  for (const [method, path, body, where] of cases) {
    const response = await call(method, path, body);
    // GET /assistants/search is not a route: 404/405 are fine there, never a 5xx.
    if (path.startsWith("/assistants/search")) {
      expect(response.status).toBeLessThan(500);
      continue;
    }
    expect({ path, body, status: response.status }).toEqual({ path, body, status: 422 });
    expect(response.body.detail).toMatch(where);
  }
});
