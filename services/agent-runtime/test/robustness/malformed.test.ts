// Whatever a client sends, the runtime answers 2xx or a clear 4xx with {detail}: never a 5xx
// (in tests every response is also checked against the contract, so drift would be a 500 too).
import fc from "fast-check";
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let threadId: string;
beforeAll(async () => {
  rt = await startTestRuntime({ workers: 2 });
  threadId = (await rt.client.threads.create({ graphId: "agent" })).thread_id;
  await rt.client.runs.wait(threadId, "agent", { input: { messages: [{ role: "user", content: "seed" }] } });
});
afterAll(async () => {
  await rt?.close();
});

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom("nul \u0000 inside", { nested: ["\u0000"] }, "lone \ud800 surrogate", { nested: ["\udc00"] }),
  fc.constantFrom(
    "agent",
    "approval",
    "steps",
    "*",
    "",
    "00000000-0000-0000-0000-000000000000",
    "__start__",
    -1,
    0,
    1e12,
  ),
);

/** Objects with the fields an endpoint knows, holding values of any shape (over a valid base). */
function bodies(keys: string[], base: Record<string, unknown>) {
  return fc.oneof(
    fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 5 }),
    fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 3 }).map((extra) => ({ ...base, ...extra, ...base })),
    fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 3 }).map((extra) => ({ ...base, ...extra })),
    fc.jsonValue({ maxDepth: 2 }),
  );
}

test("text PostgreSQL cannot store (a lone surrogate) is a 422 naming the field on every path that stores or filters it", async () => {
  const body = '{"metadata":{"x":"\\ud800"}}';
  for (const [method, path] of [
    ["POST", "/threads"],
    ["PATCH", `/threads/${threadId}`],
    ["POST", "/threads/search"],
    ["POST", "/threads/count"],
    ["POST", "/assistants/search"],
    ["POST", "/assistants/count"],
  ]) {
    const response = await fetch(`${rt.url}${path}`, { method, headers: { "content-type": "application/json" }, body });
    expect([path, response.status]).toEqual([path, 422]);
    // The runtime's 422 is the official server's: `{detail}` text that names the field.
    expect([path, ((await response.json()) as { detail: string }).detail]).toEqual([
      path,
      expect.stringMatching(/^body\.metadata\.x: .*surrogate/),
    ]);
  }
  const store = await fetch(`${rt.url}/store/items/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"namespace_prefix":["a"],"filter":{"k":"\\udfff"}}',
  });
  expect(store.status).toBe(422);
  expect(((await store.json()) as { detail: string }).detail).toMatch(/^body\.filter\.k: .*surrogate/);
});

test("numbers past what the database holds (an offset beyond 64 bits, a version beyond 32) are a 422 naming the field", async () => {
  const huge = 9223372036854776000; // what the fuzzer sent: 2^63 as a double, one past PostgreSQL's bigint
  for (const [method, path, body, field] of [
    ["POST", "/assistants/search", { offset: huge }, "body.offset"],
    ["POST", "/threads/search", { offset: huge }, "body.offset"],
    ["POST", "/runs/crons/search", { offset: huge }, "body.offset"],
    ["POST", "/store/items/search", { namespace_prefix: ["a"], offset: huge }, "body.offset"],
    ["POST", "/assistants/agent/versions", { offset: huge }, "body.offset"],
    ["POST", "/assistants/agent/latest", { version: 2 ** 31 }, "body.version"],
    ["GET", `/threads/${threadId}/runs?offset=${huge}`, undefined, "query.offset"],
  ] as const) {
    const response = await fetch(`${rt.url}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect([path, response.status]).toEqual([path, 422]);
    expect([path, ((await response.json()) as { detail: string }).detail]).toEqual([
      path,
      expect.stringContaining(field),
    ]);
  }
});

async function send(method: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${rt.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const endpoints: [string, string, string[], Record<string, unknown>][] = [
  [
    "POST",
    "/assistants",
    ["graph_id", "assistant_id", "config", "context", "metadata", "if_exists", "name", "description"],
    { graph_id: "agent" },
  ],
  [
    "POST",
    "/assistants/search",
    ["graph_id", "name", "metadata", "limit", "offset", "sort_by", "sort_order", "select"],
    {},
  ],
  ["PATCH", "/assistants/agent", ["graph_id", "config", "context", "metadata", "name"], {}],
  ["POST", "/threads", ["thread_id", "metadata", "if_exists", "supersteps"], { metadata: { graph_id: "agent" } }],
  [
    "POST",
    "/threads/search",
    ["metadata", "values", "ids", "status", "limit", "offset", "sort_by", "sort_order", "select"],
    {},
  ],
  ["POST", "/threads/{thread}/history", ["limit", "before", "metadata", "checkpoint"], {}],
  ["POST", "/threads/{thread}/state", ["values", "as_node", "checkpoint_id", "checkpoint"], {}],
  [
    "POST",
    "/threads/{thread}/runs/wait",
    ["input", "command", "config", "context", "stream_mode", "interrupt_before", "checkpoint_id", "metadata"],
    { assistant_id: "agent" },
  ],
];

test.each(endpoints)("%s %s: never a 5xx", async (method, path, keys, base) => {
  await fc.assert(
    fc.asyncProperty(bodies(keys, base), async (body) => {
      const { status, text } = await send(method, path.replace("{thread}", threadId), body);
      if (status >= 500) throw new Error(`${status} for ${JSON.stringify(body)}: ${text}`);
      if (status >= 400) expect(typeof (JSON.parse(text) as { detail: unknown }).detail).toBe("string");
    }),
    { numRuns: 60 },
  );
});
