// Custom auth from langgraph.json (`auth.path`): the handler's user reaches every handler and the
// graph; what one user owns is absent for another on every resource path (threads, runs with
// join, stream and cancel, assistants, store, crons), through the official client. Shared by a
// JS `Auth` (custom-auth.test.ts) and a Python one (python.test.ts, answered by the Python host).
import path from "node:path";
import { randomUUID } from "node:crypto";
import { Client, collect, startTestRuntime } from "../support/harness";
import { runtimeKeyHash } from "@lgp/server-kit";
import { Client as ProtocolClient } from "@langchain/langgraph-sdk-1";
import WebSocket from "ws";

/** The test auth handler and graphs: in JS (fixtures/), or their Python twins (fixtures/python/). */
const FIXTURES = {
  js: path.resolve(__dirname, "fixtures/langgraph.json"),
  python: path.resolve(__dirname, "fixtures/python/langgraph.json"),
};

export function describeCustomAuth(language: "js" | "python"): void {
  const FIXTURE = FIXTURES[language];
  const DEPLOYMENT_KEY = `lgp_rt_${randomUUID()}`;
  let rt: Awaited<ReturnType<typeof startTestRuntime>>;

  beforeAll(async () => {
    rt = await startTestRuntime({
      workers: 2,
      env: { LANGGRAPH_JSON: FIXTURE, API_KEY_HASHES: runtimeKeyHash(DEPLOYMENT_KEY) },
    });
  });
  afterAll(async () => {
    await rt?.close();
  });

  const as = (user: string) =>
    new Client({
      apiUrl: rt.url,
      defaultHeaders: { Authorization: `Bearer ${user}` },
      callerOptions: { maxRetries: 0 },
    });
  const say = (content: string) => ({ messages: [{ role: "user", content }] });
  /** The HTTP status a call of the official client ends with (200 when it succeeds). */
  const status = (call: () => Promise<unknown>) =>
    call().then(
      () => 200,
      (error: { status?: number }) => error.status,
    );

  test("authenticate decides: no or unknown credentials are a 401 with WWW-Authenticate, a crash is a 401, an HTTPException keeps its status", async () => {
    const cases: [Record<string, string>, number, string][] = [
      [{}, 401, "Unknown user"],
      [{ authorization: "Bearer mallory" }, 401, "Unknown user"],
      [{ authorization: "Bearer crash" }, 401, "Unauthorized"],
      [{ authorization: "Bearer teapot" }, 418, "I only brew tea"],
    ];
    for (const [headers, expected, detail] of cases) {
      for (const [method, route] of [
        ["POST", "/threads/search"],
        ["POST", "/assistants/search"],
        ["POST", "/runs/crons/search"],
        ["POST", "/store/namespaces"],
      ]) {
        const response = await fetch(`${rt.url}${route}`, {
          method,
          headers: { "content-type": "application/json", ...headers },
          body: "{}",
        });
        expect([route, response.status]).toEqual([route, expected]);
        expect(await response.json()).toEqual({ detail });
        if (expected === 401) expect(response.headers.get("www-authenticate")).toBeTruthy();
      }
    }
    // Probes, server info and the docs stay open.
    for (const route of ["/ok", "/info", "/openapi.json"]) expect((await fetch(`${rt.url}${route}`)).status).toBe(200);
  });

  test("the user reaches the graph as configurable.langgraph_auth_user, its id and permissions", async () => {
    const alice = as("alice");
    const thread = await alice.threads.create();
    const state = (await alice.runs.wait(thread.thread_id, "whoami", { input: say("who?") })) as {
      messages: { content: string }[];
    };
    expect(state.messages.at(-1)?.content).toBe("alice|alice|threads:write,assistants:write");
    // The graph's store write landed in alice's namespace, which alice can read.
    expect((await alice.store.getItem(["alice"], "seen"))?.value).toEqual({ by: "whoami" });
  });

  test("threads: the owner is stamped; another user finds nothing to read, change, copy or delete (404)", async () => {
    const alice = as("alice");
    const bob = as("bob");
    const thread = await alice.threads.create({ metadata: { topic: "plans" } });
    expect(thread.metadata).toMatchObject({ topic: "plans", owner: "alice" });
    await alice.runs.wait(thread.thread_id, "agent", { input: say("secret") });

    const id = thread.thread_id;
    for (const attempt of [
      () => bob.threads.get(id),
      () => bob.threads.update(id, { metadata: { owner: "bob" } }),
      () => bob.threads.getState(id),
      () => bob.threads.getHistory(id),
      () => bob.threads.updateState(id, { values: { messages: [] } }),
      () => bob.threads.copy(id),
      () => bob.threads.delete(id),
    ]) {
      expect(await status(attempt)).toBe(404);
    }
    expect(await bob.threads.search({ metadata: { topic: "plans" } })).toEqual([]);
    expect(await bob.threads.count({ metadata: { topic: "plans" } })).toBe(0);
    expect((await alice.threads.search({ metadata: { topic: "plans" } })).map((t) => t.thread_id)).toEqual([id]);
    expect(await alice.threads.count({ metadata: { topic: "plans" } })).toBe(1);
    // By status alone, a user's count is still narrowed by its filters (counted, not the kept
    // per-status count, which holds alice's thread too).
    const bobIdle = await bob.threads.search({ status: "idle", limit: 1000 });
    expect(await bob.threads.count({ status: "idle" })).toBe(bobIdle.length);
    expect(bobIdle.map((t) => t.thread_id)).not.toContain(id);
    // Prune skips what the caller cannot see, as if it did not exist.
    const pruned = await fetch(`${rt.url}/threads/prune`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bob" },
      body: JSON.stringify({ thread_ids: [id] }),
    });
    expect(await pruned.json()).toEqual({ pruned_count: 0 });
    // Still alice's, untouched; her copy is hers too.
    expect((await alice.threads.get(id)).metadata).toMatchObject({ owner: "alice" });
    const copy = await alice.threads.copy(id);
    expect(copy.metadata).toMatchObject({ owner: "alice" });
  });

  test("a read-only user may read but not create or delete (403 with the handler's message)", async () => {
    const reader = as("reader");
    const refused = await fetch(`${rt.url}/threads`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer reader" },
      body: "{}",
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: "Read-only user" });
    expect(await reader.threads.search()).toEqual([]);
    // A handler returning false is a 403 too.
    const alice = await as("alice").threads.create();
    expect(await status(() => reader.threads.delete(alice.thread_id))).toBe(403);
  });

  test("runs: another user cannot start, list, get, join, stream, cancel or delete runs on a thread not theirs", async () => {
    const alice = as("alice");
    const bob = as("bob");
    const thread = await alice.threads.create();
    const id = thread.thread_id;
    const run = await alice.runs.create(id, "agent", { input: say("later"), afterSeconds: 60 });
    expect(run.metadata).toMatchObject({ owner: "alice" });

    for (const attempt of [
      () => bob.runs.create(id, "agent", { input: say("mine now") }),
      () => bob.runs.wait(id, "agent", { input: say("mine now") }),
      () => bob.runs.list(id),
      () => bob.runs.get(id, run.run_id),
      () => bob.runs.join(id, run.run_id),
      () => bob.runs.cancel(id, run.run_id),
      () => bob.runs.delete(id, run.run_id),
    ]) {
      expect(await status(attempt)).toBe(404);
    }
    // Streams: a new run's stream is refused; joining one says the run is absent, as the official server does.
    expect(await status(() => collect(bob.runs.stream(id, "agent", { input: say("x") })))).toBe(404);
    const joined = await collect(bob.runs.joinStream(id, run.run_id));
    expect(joined).toMatchObject([{ event: "error", data: { message: expect.stringContaining("404") } }]);
    const threadStream = await fetch(`${rt.url}/threads/${id}/stream`, { headers: { authorization: "Bearer bob" } });
    expect(threadStream.status).toBe(404);
    // Bulk cancel of another's run: refused, and the run is still pending.
    const bulk = await fetch(`${rt.url}/runs/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bob" },
      body: JSON.stringify({ run_ids: [run.run_id] }),
    });
    expect(bulk.status).toBe(404);
    expect((await alice.runs.get(id, run.run_id)).status).toBe("pending");
    await alice.runs.cancel(id, run.run_id);
    expect((await alice.runs.get(id, run.run_id)).status).toBe("interrupted");

    // A stateless run makes a thread that is the caller's.
    const values = (await bob.runs.wait(null, "agent", { input: say("stateless") })) as { messages: unknown[] };
    expect(values.messages).toHaveLength(2);
  });

  test("the thread-centric protocol: the owner streams and commands; another user finds the thread absent everywhere", async () => {
    const aliceClient = new ProtocolClient({
      apiUrl: rt.url,
      defaultHeaders: { Authorization: "Bearer alice" },
      callerOptions: { maxRetries: 0 },
    });
    const thread = aliceClient.threads.stream({ assistantId: "agent" });
    // Bob listens first on the thread Alice is about to create: his stream ends, empty, once it exists.
    const bobEarly = fetch(`${rt.url}/threads/${thread.threadId}/stream/events`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bob" },
      body: JSON.stringify({ channels: ["values", "lifecycle"] }),
    }).then(async (response) => [response.status, await response.text()]);
    await thread.run.start({ input: say("protocol") });
    const output = (await thread.output) as { messages: unknown[] };
    expect(output.messages).toHaveLength(2);
    // Reached before the thread existed: his stream ended, empty, once it did; reached after (the
    // two requests race): the thread is absent for him. Either way nothing of Alice's.
    const [earlyStatus, earlyBody] = await bobEarly;
    if (earlyStatus === 200) expect(earlyBody).toBe("");
    else
      expect([earlyStatus, JSON.parse(earlyBody as string)]).toEqual([
        404,
        { detail: expect.stringMatching(/not found/) },
      ]);
    await thread.close();

    const asBob = { "content-type": "application/json", authorization: "Bearer bob" };
    const id = thread.threadId;
    const stream = await fetch(`${rt.url}/threads/${id}/stream/events`, {
      method: "POST",
      headers: asBob,
      body: JSON.stringify({ channels: ["values"] }),
    });
    expect(stream.status).toBe(404);
    for (const command of [
      { id: 1, method: "state.get" },
      { id: 2, method: "run.start", params: { assistant_id: "agent", input: say("mine now") } },
    ]) {
      const response = await fetch(`${rt.url}/threads/${id}/commands`, {
        method: "POST",
        headers: asBob,
        body: JSON.stringify(command),
      });
      expect([command.method, response.status]).toEqual([command.method, 404]);
    }
    const socket = new WebSocket(`${rt.url.replace("http", "ws")}/threads/${id}/stream/events`, {
      headers: { authorization: "Bearer bob" },
    });
    const refusal = await new Promise<number>((resolve) =>
      socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0)),
    );
    expect(refusal).toBe(404);
    expect((await as("alice").runs.list(id)).length).toBe(1);
  });

  test("assistants: stamped with their owner; another user's are absent from get, update, versions, graph and search", async () => {
    const alice = as("alice");
    const bob = as("bob");
    const assistant = await alice.assistants.create({ graphId: "agent", name: "alice's" });
    expect(assistant.metadata).toMatchObject({ owner: "alice" });
    const id = assistant.assistant_id;
    for (const attempt of [
      () => bob.assistants.get(id),
      () => bob.assistants.update(id, { name: "bob's now" }),
      () => bob.assistants.getVersions(id),
      () => bob.assistants.setLatest(id, 1),
      () => bob.assistants.getGraph(id),
      () => bob.assistants.getSchemas(id),
      () => bob.assistants.delete(id),
    ]) {
      expect(await status(attempt)).toBe(404);
    }
    expect((await bob.assistants.search({ graphId: "agent" })).map((a) => a.assistant_id)).not.toContain(id);
    expect((await alice.assistants.search({ graphId: "agent" })).map((a) => a.assistant_id)).toContain(id);
    expect(await bob.assistants.count({ graphId: "agent" })).toBe(
      (await bob.assistants.search({ graphId: "agent", limit: 100 })).length,
    );
    // The owner keeps what she made, updates included.
    expect((await alice.assistants.update(id, { name: "renamed" })).metadata).toMatchObject({ owner: "alice" });
  });

  test("store: the handler guards namespaces; searches and listings show only the caller's items", async () => {
    const alice = as("alice");
    const bob = as("bob");
    await alice.store.putItem(["alice", "notes"], "n1", { text: "alice's" });
    await bob.store.putItem(["bob", "notes"], "n1", { text: "bob's" });

    expect(await status(() => bob.store.getItem(["alice", "notes"], "n1"))).toBe(403);
    expect(await status(() => bob.store.putItem(["alice", "notes"], "n1", { text: "overwritten" }))).toBe(403);
    expect(await status(() => bob.store.deleteItem(["alice", "notes"], "n1"))).toBe(403);
    expect(await status(() => bob.store.searchItems(["alice"]))).toBe(403);

    const everything = await bob.store.searchItems([], { limit: 100 });
    expect(everything.items.map((item) => item.namespace[0])).toEqual(everything.items.map(() => "bob"));
    const namespaces = await bob.store.listNamespaces({});
    expect(namespaces.namespaces.every((namespace) => namespace[0] === "bob")).toBe(true);
    expect((await alice.store.getItem(["alice", "notes"], "n1"))?.value).toEqual({ text: "alice's" });
  });

  test("crons: another user's cron is absent from get, update, delete and search", async () => {
    const alice = as("alice");
    const bob = as("bob");
    const thread = await alice.threads.create();
    expect(await status(() => bob.crons.createForThread(thread.thread_id, "agent", { schedule: "0 6 * * *" }))).toBe(
      404,
    );
    const cron = await alice.crons.create("agent", { schedule: "0 6 * * *", input: say("daily") });
    expect(cron.metadata).toMatchObject({ owner: "alice" });
    const route = `${rt.url}/runs/crons/${cron.cron_id}`;
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const response = await fetch(route, {
        method,
        headers: { "content-type": "application/json", authorization: "Bearer bob" },
        body: method === "PATCH" ? JSON.stringify({ schedule: "0 7 * * *" }) : undefined,
      });
      expect([method, response.status]).toEqual([method, 404]);
    }
    expect((await bob.crons.search({ assistantId: "agent" })).map((c) => c.cron_id)).not.toContain(cron.cron_id);
    expect(await bob.crons.count({ assistantId: "agent" })).toBe(0);
    expect((await alice.crons.search({ assistantId: "agent" })).map((c) => c.cron_id)).toContain(cron.cron_id);
    await alice.crons.delete(cron.cron_id);
  });

  test("a deployment key stands for the studio user (never a header a client could forge)", async () => {
    const forged = await fetch(`${rt.url}/threads/search`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-auth-scheme": "langsmith" },
      body: "{}",
    });
    expect(forged.status).toBe(401);
    // The handlers still run for the studio user; this one lets it see everything (isStudioUser).
    const studio = new Client({ apiUrl: rt.url, apiKey: DEPLOYMENT_KEY, callerOptions: { maxRetries: 0 } });
    const alices = await as("alice").threads.create();
    expect((await studio.threads.get(alices.thread_id)).metadata).toMatchObject({ owner: "alice" });
    const thread = await studio.threads.create();
    expect(thread.metadata?.owner).toBeUndefined();
    const wrong = new Client({ apiUrl: rt.url, apiKey: "lgp_rt_wrong", callerOptions: { maxRetries: 0 } });
    expect(await status(() => wrong.threads.create())).toBe(401);
    // Refusals are counted (the scraper authenticates with the deployment key).
    const metrics = await (await fetch(`${rt.url}/metrics`, { headers: { "x-api-key": DEPLOYMENT_KEY } })).text();
    expect(Number(/http_auth_refusals_total\{status="401"[^}]*\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(Number(/http_auth_refusals_total\{status="403"[^}]*\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThan(0);
  });
}
