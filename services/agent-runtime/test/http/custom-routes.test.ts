// langgraph.json's `http` section beyond CORS: a project's own app (`http.app`, Hono or Express)
// mounted after CORS and auth and before the built-in routes, so its middleware also wraps them;
// `disable_*` switching built-in groups off; request headers copied into runs' `configurable`
// (every `x-` header and `user-agent` by default, as the official servers do, or what
// `configurable_headers` says).
import path from "node:path";
import { runtimeKeyHash } from "@lgp/server-kit";
import type { GraphProject } from "../../src/graphs/config";
import { configurableHeaders, httpSettingsOf } from "../../src/http/settings";
import { Client, startTestRuntime } from "../support/harness";

const FIXTURES = path.resolve(__dirname, "fixtures/custom-routes");
const KEY = "lgp_rt_custom_routes_test_key_0123456789";

describe("a Hono app (http.app), with store routes off and configurable headers", () => {
  let rt: Awaited<ReturnType<typeof startTestRuntime>>;
  const send = (pathname: string, init: RequestInit = {}) =>
    fetch(`${rt.url}${pathname}`, { ...init, headers: { "x-api-key": KEY, ...init.headers } });

  beforeAll(async () => {
    rt = await startTestRuntime({
      env: { LANGGRAPH_JSON: path.join(FIXTURES, "hono.langgraph.json"), API_KEY_HASHES: runtimeKeyHash(KEY) },
    });
  });
  afterAll(async () => {
    await rt?.close();
  });

  it("serves the app's routes, with their bodies and statuses, behind the deployment's key", async () => {
    const hello = await send("/custom/hello");
    expect(hello.status).toBe(200);
    expect(await hello.json()).toEqual({ hello: "world" });
    expect(hello.headers.get("x-custom-middleware")).toBe("hono");

    const echo = await send("/custom/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ a: [1, 2] }),
    });
    expect(await echo.json()).toEqual({ echoed: { a: [1, 2] } });
    const teapot = await send("/custom/teapot");
    expect([teapot.status, await teapot.text()]).toEqual([418, "short and stout"]);

    // The runtime's auth comes first: no key, no custom route.
    expect((await fetch(`${rt.url}/custom/hello`)).status).toBe(401);
  });

  it("runs the app's middleware around the built-in routes, whose requests keep their bodies", async () => {
    const info = await send("/info");
    expect(info.status).toBe(200);
    expect(info.headers.get("x-custom-middleware")).toBe("hono");

    const created = await send("/threads", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metadata: { through: "the custom app" } }),
    });
    expect(created.status).toBe(200);
    expect(created.headers.get("x-custom-middleware")).toBe("hono");
    expect(((await created.json()) as { metadata: object }).metadata).toEqual({ through: "the custom app" });
  });

  it("hands a built-in route the body the app's middleware read, as it read it", async () => {
    for (const read of ["json", "text"]) {
      const created = await send("/threads", {
        method: "POST",
        headers: { "content-type": "application/json", "x-read-body": read },
        body: JSON.stringify({ metadata: { read } }),
      });
      expect(created.status).toBe(200);
      expect(((await created.json()) as { metadata: object }).metadata).toEqual({ read });
    }
    // A run's body, which the route requires, and a malformed one.
    const thread = (await (await send("/threads", { method: "POST", body: "{}" })).json()) as { thread_id: string };
    const run = await send(`/threads/${thread.thread_id}/runs/wait`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-read-body": "text" },
      body: JSON.stringify({ assistant_id: "agent", input: { messages: [{ role: "user", content: "read" }] } }),
    });
    expect(run.status).toBe(200);
    const malformed = await send("/threads", {
      method: "POST",
      headers: { "content-type": "application/json", "x-read-body": "text" },
      body: "{not json",
    });
    expect(malformed.status).toBe(422);
  });

  it("switches the store routes off (disable_store)", async () => {
    const put = await send("/store/items", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ namespace: ["a"], key: "k", value: { v: 1 } }),
    });
    expect(put.status).toBe(404);
    expect((await send("/assistants/search", { method: "POST", body: "{}" })).status).toBe(200);
  });

  it("copies the included request headers, and not the excluded ones, into the run's configurable", async () => {
    const client = new Client({
      apiUrl: rt.url,
      apiKey: KEY,
      defaultHeaders: { "x-team-id": "team-7", "x-team-secret": "s3cret", "x-other": "no" },
    });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "agent", {
      input: { messages: [{ role: "user", content: "hi" }] },
      config: { configurable: { chosen: "by the body" } },
    });
    const configurable = (
      (run as unknown as { kwargs: unknown }).kwargs as { config: { configurable: Record<string, unknown> } }
    ).config.configurable;
    expect(configurable).toMatchObject({ "x-team-id": "team-7", chosen: "by the body" });
    expect(configurable).not.toHaveProperty("x-team-secret");
    expect(configurable).not.toHaveProperty("x-other");
    // A body value wins over a header of the same name.
    const overridden = await client.runs.create(thread.thread_id, "agent", {
      input: { messages: [{ role: "user", content: "again" }] },
      config: { configurable: { "x-team-id": "from the body" } },
      multitaskStrategy: "enqueue",
    });
    expect(
      ((overridden as unknown as { kwargs: unknown }).kwargs as { config: { configurable: object } }).config
        .configurable,
    ).toMatchObject({
      "x-team-id": "from the body",
    });

    // The thread protocol's run.start too.
    const started = await send(`/threads/${thread.thread_id}/commands`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-team-id": "team-9" },
      body: JSON.stringify({
        id: 1,
        method: "run.start",
        params: { assistant_id: "agent", input: { messages: [{ role: "user", content: "protocol" }] } },
      }),
    });
    const { result } = (await started.json()) as { result: { run_id: string } };
    const protocolRun = (await (await send(`/threads/${thread.thread_id}/runs/${result.run_id}`)).json()) as {
      kwargs: { config: { configurable: Record<string, unknown> } };
    };
    expect(protocolRun.kwargs.config.configurable).toMatchObject({ "x-team-id": "team-9" });
  });
});

describe("a public Express router (http.app, enable_custom_route_auth: false), with assistants, meta, MCP and A2A routes off", () => {
  let rt: Awaited<ReturnType<typeof startTestRuntime>>;

  beforeAll(async () => {
    rt = await startTestRuntime({
      env: { LANGGRAPH_JSON: path.join(FIXTURES, "express.langgraph.json"), API_KEY_HASHES: runtimeKeyHash(KEY) },
    });
  });
  afterAll(async () => {
    await rt?.close();
  });

  it("mounts the router before the built-in routes and leaves the switched-off groups unserved", async () => {
    // enable_custom_route_auth: false: the custom routes are public, the built-in ones still need the key.
    const ping = await fetch(`${rt.url}/custom/ping`);
    expect(await ping.json()).toEqual({ pong: true });
    expect(ping.headers.get("x-custom-middleware")).toBe("express");
    expect((await fetch(`${rt.url}/threads`, { method: "POST", body: "{}" })).status).toBe(401);

    const thread = await fetch(`${rt.url}/threads`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: "{}",
    });
    expect(thread.status).toBe(200);
    expect(thread.headers.get("x-custom-middleware")).toBe("express");

    const withKey = { "x-api-key": KEY };
    expect((await fetch(`${rt.url}/assistants/search`, { method: "POST", body: "{}", headers: withKey })).status).toBe(
      404,
    );
    expect((await fetch(`${rt.url}/info`, { headers: withKey })).status).toBe(404);
    // disable_mcp, disable_a2a.
    const mcp = await fetch(`${rt.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...withKey },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(404);
    expect((await fetch(`${rt.url}/.well-known/agent-card.json?assistant_id=agent`, { headers: withKey })).status).toBe(
      404,
    );
    // Health stays served: deployers wait on it.
    expect((await fetch(`${rt.url}/ok`)).status).toBe(200);
  });

  it("without configurable_headers, copies every x- header and user-agent into a run's configurable, never a credential", async () => {
    const client = new Client({
      apiUrl: rt.url,
      apiKey: KEY,
      defaultHeaders: {
        "x-team-id": "team-1",
        "X-Trace-Id": "trace-1",
        "user-agent": "chat-ui/2.1",
        "x-tenant-id": "tenant-1",
        "x-service-key": "service-secret",
        accept: "application/json",
      },
    });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "agent", {
      input: { messages: [{ role: "user", content: "hi" }] },
    });
    const configurable = (
      (run as unknown as { kwargs: unknown }).kwargs as { config: { configurable: Record<string, unknown> } }
    ).config.configurable;
    expect(configurable).toMatchObject({ "x-team-id": "team-1", "x-trace-id": "trace-1", "user-agent": "chat-ui/2.1" });
    for (const name of ["x-api-key", "x-tenant-id", "x-service-key", "accept"])
      expect(configurable).not.toHaveProperty(name);
  });
});

describe("which headers http.configurable_headers copies", () => {
  const settings = (http: unknown) =>
    httpSettingsOf({ configPath: "/project/langgraph.json", json: { graphs: {}, http } } as unknown as GraphProject)
      .configurableHeaders;
  const headers = { "x-team-id": "t", "x-team-secret": "s", "user-agent": "ua", "x-api-key": "k", host: "h" };

  it("takes excludes alone as narrowing the default, and includes as replacing it", () => {
    expect(configurableHeaders(settings(undefined), headers)).toEqual({
      "x-team-id": "t",
      "x-team-secret": "s",
      "user-agent": "ua",
    });
    expect(configurableHeaders(settings({ configurable_headers: null }), headers)).toEqual(
      configurableHeaders(settings(undefined), headers),
    );
    expect(configurableHeaders(settings({ configurable_headers: { excludes: ["x-team-s*"] } }), headers)).toEqual({
      "x-team-id": "t",
      "user-agent": "ua",
    });
    expect(configurableHeaders(settings({ configurable_headers: { includes: ["host"] } }), headers)).toEqual({
      host: "h",
    });
    expect(configurableHeaders(settings({ configurable_headers: { includes: [] } }), headers)).toEqual({});
    // Asked for by name, a credential header still stays out.
    expect(configurableHeaders(settings({ configurable_headers: { includes: ["x-api-key"] } }), headers)).toEqual({});
  });
});
