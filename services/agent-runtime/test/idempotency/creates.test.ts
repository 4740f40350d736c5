// Idempotent creates on the runtime: every create sent twice with one Idempotency-Key makes one
// resource and is answered the same status and body twice; the same key on another body is a 422
// naming the header. Counted in the database, each kind by a tag of its own.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let db: pg.Client;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: 1 });
  db = new pg.Client({ connectionString: rt.database.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await rt?.close();
});

interface Answer {
  status: number;
  body: string;
  replayed: string | null;
}

async function send(method: string, path: string, body: unknown, key?: string): Promise<Answer> {
  const response = await fetch(`${rt.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: await response.text(),
    replayed: response.headers.get("idempotent-replayed"),
  };
}

async function count(sql: string, tag: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [tag]);
  return rows[0]!.n;
}

const say = (content: string) => ({ messages: [{ role: "human", content }] });

/** Each create, its body (tagged), and how many resources one such request makes. */
const creates: {
  name: string;
  method: string;
  path: (threadId: string) => string;
  body: (tag: string) => unknown;
  table: string;
  makes: number;
}[] = [
  {
    name: "thread",
    method: "POST",
    path: () => "/threads",
    body: (tag) => ({ metadata: { tag } }),
    table: "threads WHERE metadata->>'tag' = $1",
    makes: 1,
  },
  {
    name: "assistant",
    method: "POST",
    path: () => "/assistants",
    body: (tag) => ({ graph_id: "agent", metadata: { tag } }),
    table: "assistants WHERE metadata->>'tag' = $1",
    makes: 1,
  },
  {
    name: "background run",
    method: "POST",
    path: (threadId) => `/threads/${threadId}/runs`,
    body: (tag) => ({ assistant_id: "agent", input: say(tag), metadata: { tag } }),
    table: "runs WHERE metadata->>'tag' = $1",
    makes: 1,
  },
  {
    name: "stateless run",
    method: "POST",
    path: () => "/runs",
    body: (tag) => ({ assistant_id: "agent", input: say(tag), metadata: { tag }, on_completion: "keep" }),
    table: "runs WHERE metadata->>'tag' = $1",
    makes: 1,
  },
  {
    name: "batch of runs",
    method: "POST",
    path: () => "/runs/batch",
    body: (tag) =>
      [1, 2].map(() => ({ assistant_id: "agent", input: say(tag), metadata: { tag }, on_completion: "keep" })),
    table: "runs WHERE metadata->>'tag' = $1",
    makes: 2,
  },
  {
    name: "cron",
    method: "POST",
    path: () => "/runs/crons",
    body: (tag) => ({ assistant_id: "agent", schedule: "0 0 1 1 *", metadata: { tag } }),
    table: "crons WHERE metadata->>'tag' = $1",
    makes: 1,
  },
  {
    name: "thread cron",
    method: "POST",
    path: (threadId) => `/threads/${threadId}/runs/crons`,
    body: (tag) => ({ assistant_id: "agent", schedule: "0 0 1 1 *", metadata: { tag } }),
    table: "crons WHERE metadata->>'tag' = $1",
    makes: 1,
  },
];

describe.each(creates)("$name created twice with one key", ({ method, path, body, table, makes }) => {
  test("is made once, and the repeat is answered the same status and body", async () => {
    const thread = await rt.client.threads.create();
    const tag = randomUUID();
    const key = randomUUID();
    const first = await send(method, path(thread.thread_id), body(tag), key);
    const again = await send(method, path(thread.thread_id), body(tag), key);
    expect(first.status).toBe(200);
    expect(again).toEqual({ ...first, replayed: "true" });
    expect(await count(table, tag)).toBe(makes);
    // Without a key the same body makes another (nothing changes for clients that send none).
    await send(method, path(thread.thread_id), body(tag));
    expect(await count(table, tag)).toBe(2 * makes);
  });

  test("another body under the same key is a 422 naming the header, and makes nothing", async () => {
    const thread = await rt.client.threads.create();
    const tag = randomUUID();
    const key = randomUUID();
    await send(method, path(thread.thread_id), body(tag), key);
    const other = randomUUID();
    const refused = await send(method, path(thread.thread_id), body(other), key);
    expect(refused.status).toBe(422);
    expect(JSON.parse(refused.body).detail).toMatch(
      /^header\.Idempotency-Key: this key was already used for a different request/,
    );
    expect(await count(table, other)).toBe(0);
  });
});

test("a store put repeated with its key is answered 204 again and does not overwrite a later write", async () => {
  const namespace = [randomUUID()];
  const key = randomUUID();
  const put = (value: unknown, idempotencyKey?: string) =>
    send("PUT", "/store/items", { namespace, key: "k", value }, idempotencyKey);
  expect((await put({ v: 1 }, key)).status).toBe(204);
  expect((await put({ v: 2 })).status).toBe(204);
  // The client's retry of its first put (its answer lost): it must not undo the second write.
  expect(await put({ v: 1 }, key)).toEqual({ status: 204, body: "", replayed: "true" });
  expect((await rt.client.store.getItem(namespace, "k"))?.value).toEqual({ v: 2 });
});

test("the same key on another path is another request: 422", async () => {
  const key = randomUUID();
  expect((await send("POST", "/threads", {}, key)).status).toBe(200);
  const refused = await send("POST", "/assistants", { graph_id: "agent" }, key);
  expect(refused.status).toBe(422);
  expect(refused.body).toContain("Idempotency-Key");
});

test("bodies that differ only in key order are one request; a quoted key is the bare key", async () => {
  const key = randomUUID();
  const tag = randomUUID();
  const first = await send("POST", "/threads", { metadata: { tag, a: 1 }, if_exists: "raise" }, key);
  const again = await send("POST", "/threads", { if_exists: "raise", metadata: { a: 1, tag } }, `"${key}"`);
  expect(again).toEqual({ ...first, replayed: "true" });
  expect(await count("threads WHERE metadata->>'tag' = $1", tag)).toBe(1);
});

test("a malformed key is a 422 naming the header", async () => {
  for (const key of ["x".repeat(256), "caf\u00e9"]) {
    const refused = await send("POST", "/threads", {}, key);
    expect([key.length, refused.status]).toEqual([key.length, 422]);
    expect(refused.body).toMatch(/Idempotency-Key/i);
  }
});

test("a failed first request frees its key: the retry does the work", async () => {
  const key = randomUUID();
  const tag = randomUUID();
  const missing = randomUUID();
  const body = { assistant_id: "agent", input: say(tag), metadata: { tag } };
  expect((await send("POST", `/threads/${missing}/runs`, body, key)).status).toBe(404);
  // The thread now exists (made by the client in between): the same request, same key, succeeds.
  await rt.client.threads.create({ threadId: missing });
  const retried = await send("POST", `/threads/${missing}/runs`, body, key);
  expect([retried.status, retried.replayed]).toEqual([200, null]);
  // Its answer is the one kept: the next repeat gets it.
  expect(await send("POST", `/threads/${missing}/runs`, body, key)).toEqual({ ...retried, replayed: "true" });
  expect(await count("runs WHERE metadata->>'tag' = $1", tag)).toBe(1);
});
