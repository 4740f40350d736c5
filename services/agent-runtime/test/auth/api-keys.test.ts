// Deployment API keys: with API_KEY_HASHES set, every resource path needs one of the keys (x-api-key
// or a Bearer token) and answers 401 without it; probes, /info and the docs stay open.
import { randomUUID } from "node:crypto";
import { Client, startTestRuntime } from "../support/harness";
import { runtimeKeyHash } from "@lgp/server-kit";
import { loadAgentRuntimeConfig } from "../../src/config";

const KEY = `lgp_rt_${randomUUID()}`;
const ROTATED_OUT = `lgp_rt_${randomUUID()}`;
let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({
    workers: 1,
    env: { API_KEY_HASHES: `${runtimeKeyHash(KEY)}, ${runtimeKeyHash("second-key")}` },
  });
});
afterAll(async () => {
  await rt?.close();
});

const keyed = () => new Client({ apiUrl: rt.url, apiKey: KEY, callerOptions: { maxRetries: 0 } });

test("the official client with the key works on every resource path", async () => {
  const client = keyed();
  const thread = await client.threads.create();
  const run = (await client.runs.wait(thread.thread_id, "agent", {
    input: { messages: [{ role: "user", content: "hi" }] },
  })) as { messages: { content: string }[] };
  expect(run.messages.at(-1)?.content).toBe("echo: hi");
  expect(await client.assistants.search({ graphId: "agent" })).toHaveLength(1);
  await client.store.putItem(["notes"], "k", { v: 1 });
  expect((await client.store.getItem(["notes"], "k"))?.value).toEqual({ v: 1 });
  expect(await client.runs.list(thread.thread_id)).toHaveLength(1);
});

test("no key or a wrong key is a 401 with WWW-Authenticate, on every resource path", async () => {
  const thread = await keyed().threads.create();
  const paths: [string, string][] = [
    ["POST", "/threads"],
    ["GET", `/threads/${thread.thread_id}`],
    ["POST", "/threads/search"],
    ["POST", `/threads/${thread.thread_id}/runs/stream`],
    ["GET", `/threads/${thread.thread_id}/runs`],
    ["GET", `/threads/${thread.thread_id}/stream`],
    ["POST", "/runs/wait"],
    ["POST", "/runs/crons/search"],
    ["POST", "/assistants/search"],
    ["GET", "/store/items?namespace=notes&key=k"],
    ["GET", "/metrics"],
  ];
  for (const [method, path] of paths) {
    const attempts: Record<string, string>[] = [
      {},
      { "x-api-key": ROTATED_OUT },
      { authorization: `Bearer ${ROTATED_OUT}` },
    ];
    for (const headers of attempts) {
      const response = await fetch(`${rt.url}${path}`, {
        method,
        headers: { "content-type": "application/json", ...headers },
        body: method === "POST" ? "{}" : undefined,
      });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
      expect(response.headers.get("www-authenticate")).toMatch(/x-api-key/);
      expect(await response.json()).toEqual({ detail: expect.stringMatching(/API key/) });
    }
  }
  await expect(new Client({ apiUrl: rt.url, callerOptions: { maxRetries: 0 } }).threads.create()).rejects.toThrow(
    /HTTP 401/,
  );
});

test("a Bearer token and any configured key are accepted", async () => {
  const accepted: Record<string, string>[] = [{ authorization: `Bearer ${KEY}` }, { "x-api-key": "second-key" }];
  for (const headers of accepted) {
    const response = await fetch(`${rt.url}/threads/search`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: "{}",
    });
    expect(response.status).toBe(200);
  }
});

test("probes, /info, the docs and CORS preflights need no key", async () => {
  for (const path of ["/ok", "/ready", "/info", "/openapi.json"])
    expect({ path, status: (await fetch(`${rt.url}${path}`)).status }).toEqual({ path, status: 200 });
  const preflight = await fetch(`${rt.url}/threads`, {
    method: "OPTIONS",
    headers: { Origin: "http://app.example", "Access-Control-Request-Method": "POST" },
  });
  expect(preflight.status).toBe(204);
});

test("the runtime holds hashes only: a key given where a hash belongs stops start-up", () => {
  const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/unused" };
  expect(() => loadAgentRuntimeConfig({ ...env, API_KEY_HASHES: KEY })).toThrow(/API_KEY_HASHES.*sha256/);
  expect(loadAgentRuntimeConfig({ ...env, API_KEY_HASHES: "" }).API_KEY_HASHES).toBeUndefined();
});
