// CORS as the official server configures it: any origin by default with the headers the official
// client reads exposed; langgraph.json's http.cors (origins, a regex, credentials, headers, max age);
// the environment over both. Preflights are answered before validation.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startTestRuntime } from "../support/harness";
import { loadAgentRuntimeConfig } from "../../src/config";
import { corsSettingsOf, resolveCorsSettings } from "../../src/http/cors";

type Runtime = Awaited<ReturnType<typeof startTestRuntime>>;

const CONFIGURED = path.join(__dirname, "fixtures/langgraph.json");

function preflight(rt: Runtime, origin: string, path = "/threads") {
  return fetch(`${rt.url}${path}`, {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type,x-api-key",
    },
  });
}

describe("without configuration", () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await startTestRuntime({ workers: 1 });
  });
  afterAll(async () => {
    await rt?.close();
  });

  test("a preflight from any origin is answered 204 with the method and headers allowed", async () => {
    const response = await preflight(
      rt,
      "http://localhost:5173",
      "/threads/00000000-0000-0000-0000-000000000000/runs/stream",
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")).toBe("content-type,x-api-key");
  });

  test("a run stream exposes Content-Location and Location; a search exposes its pagination headers", async () => {
    const response = await fetch(`${rt.url}/runs/stream`, {
      method: "POST",
      headers: { Origin: "http://localhost:5173", "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "agent", input: { messages: [] } }),
    });
    await response.text();
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = response.headers.get("access-control-expose-headers")?.split(",") ?? [];
    expect(exposed).toEqual(
      expect.arrayContaining(["Content-Location", "Location", "X-Pagination-Total", "X-Pagination-Next"]),
    );
  });
});

describe("http.cors in langgraph.json", () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await startTestRuntime({ workers: 1, env: { LANGGRAPH_JSON: CONFIGURED } });
  });
  afterAll(async () => {
    await rt?.close();
  });

  test("a listed origin and one matching the regex are allowed, with credentials and max age", async () => {
    for (const origin of ["http://app.example", "https://feature.preview.example"]) {
      const response = await preflight(rt, origin);
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe(origin);
      expect(response.headers.get("access-control-allow-credentials")).toBe("true");
      expect(response.headers.get("access-control-allow-headers")).toBe("content-type,x-api-key");
      expect(response.headers.get("access-control-max-age")).toBe("120");
    }
  });

  test("another origin gets no CORS headers (the browser refuses it)", async () => {
    for (const origin of ["http://evil.example", "https://x.preview.example.evil"]) {
      const response = await preflight(rt, origin);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  test("the regex must match the whole origin", async () => {
    for (const origin of ["https://feature.preview.example.evil.io", "http://x.https://feature.preview.example"])
      expect((await preflight(rt, origin)).headers.get("access-control-allow-origin")).toBeNull();
  });

  test("a write from a page of another origin is refused, even one a browser sends without a preflight", async () => {
    // A text/plain POST is a "simple" request: the browser sends it without asking first.
    const forged = await fetch(`${rt.url}/threads`, {
      method: "POST",
      headers: { Origin: "http://evil.example", "content-type": "text/plain" },
      body: JSON.stringify({ metadata: { forged: true } }),
    });
    expect(forged.status).toBe(403);
    expect(await rt.client.threads.search({ metadata: { forged: true } })).toEqual([]);
    // An allowed origin, and a client that is no browser page (no Origin), write as usual.
    const allowed = await fetch(`${rt.url}/threads`, {
      method: "POST",
      headers: { Origin: "http://app.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(allowed.status).toBe(200);
    expect((await fetch(`${rt.url}/threads`, { method: "POST", body: "{}" })).status).toBe(200);
    // Reads from another origin are answered (the browser withholds them from the page).
    expect((await fetch(`${rt.url}/info`, { headers: { Origin: "http://evil.example" } })).status).toBe(200);
  });

  test("expose_headers keeps the client's headers beside its own", async () => {
    const response = await fetch(`${rt.url}/assistants/search`, {
      method: "POST",
      headers: { Origin: "http://app.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-expose-headers")?.split(",")).toEqual(
      expect.arrayContaining(["X-Custom", "Content-Location", "X-Pagination-Total", "Retry-After", "RateLimit"]),
    );
  });
});

describe("the environment over langgraph.json", () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await startTestRuntime({
      workers: 1,
      env: { LANGGRAPH_JSON: CONFIGURED, CORS_ALLOW_ORIGINS: "http://ops.example, http://other.example" },
    });
  });
  afterAll(async () => {
    await rt?.close();
  });

  test("CORS_ALLOW_ORIGINS replaces the json's origins", async () => {
    expect((await preflight(rt, "http://ops.example")).headers.get("access-control-allow-origin")).toBe(
      "http://ops.example",
    );
    expect((await preflight(rt, "http://app.example")).headers.get("access-control-allow-origin")).toBeNull();
  });
});

test("a bad http.cors or CORS_CONFIG stops start-up naming the key", () => {
  const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/unused" };
  expect(() => loadAgentRuntimeConfig({ ...env, CORS_CONFIG: '{"max_age": "long"}' })).toThrow(/CORS_CONFIG.*max_age/);
  expect(() => loadAgentRuntimeConfig({ ...env, CORS_CONFIG: "not json" })).toThrow(/CORS_CONFIG/);
  expect(() => resolveCorsSettings({}, { allow_origin_regex: "(" })).toThrow(/http\.cors\.allow_origin_regex/);
  // Read with the rest of langgraph.json before the runtime touches its database.
  const dir = mkdtempSync(path.join(tmpdir(), "lgp-cors-"));
  const json = path.join(dir, "langgraph.json");
  writeFileSync(json, JSON.stringify({ graphs: { agent: "./agent.ts:graph" }, http: { cors: { max_age: -1 } } }));
  expect(() => corsSettingsOf(loadAgentRuntimeConfig({ ...env, LANGGRAPH_JSON: json }))).toThrow(/http\.cors\.max_age/);
  rmSync(dir, { recursive: true });
  expect(() => resolveCorsSettings({}, { allow_origins: "http://a.example" })).toThrow(/http\.cors\.allow_origins/);
});
