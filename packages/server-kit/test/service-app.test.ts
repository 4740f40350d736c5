import type { Express } from "express";
import request from "supertest";
import { createLogger, createServiceApp, NotFoundError, ConflictError, invalid } from "../src";

// A small contract of its own, so the shell is tested apart from either service's routes.
const apiSpec = {
  openapi: "3.1.0",
  info: { title: "shell test", version: "1.0.0" },
  paths: {
    "/v1/things": {
      get: {
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
        ],
        responses: { "200": { description: "ok" } },
      },
      post: {
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name"],
                properties: {
                  name: { type: "string", pattern: "^[a-z]+$" },
                  spec: { type: "object", properties: { cpu: { type: "number", minimum: 0.1 } } },
                },
              },
            },
          },
        },
        responses: { "201": { description: "created" } },
      },
    },
    "/v1/things/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
        responses: { "200": { description: "ok" } },
      },
    },
  },
};

function buildApp(style: "list" | "message"): Express {
  return createServiceApp({
    service: "shell-test",
    logger: createLogger("shell-test", "silent"),
    apiSpec,
    validationStyle: style,
    routes: (app) => {
      app.get("/v1/things", (req, res) => {
        res.json({ limit: req.query.limit });
      });
      app.post("/v1/things", (req) => {
        if (req.body.name === "taken") throw new ConflictError("thing taken already exists");
        if (req.body.name === "invalid") throw invalid(["body", "name"], "name is reserved");
        throw new Error("database exploded: SELECT * FROM secret_table");
      });
      app.get("/v1/things/:id", (req) => {
        throw new NotFoundError(`Thing ${req.params.id} not found`);
      });
    },
  }).app;
}

describe("the service shell", () => {
  const app = buildApp("list");

  it("answers GET /ok", async () => {
    await request(app).get("/ok").expect(200, { ok: true });
  });

  it("serves its OpenAPI document and a browsable reference", async () => {
    const spec = await request(app).get("/openapi.json").expect(200);
    expect(spec.body.info.title).toBe("shell test");
    const docs = await request(app).get("/docs/").expect(200);
    expect(docs.text).toContain("swagger-ui");
  });

  it("exposes Prometheus metrics, counting requests by route template", async () => {
    await request(app).get("/v1/things?limit=3").expect(200);
    const metrics = await request(app).get("/metrics").expect(200);
    expect(metrics.text).toContain(
      'http_request_duration_seconds_count{service="shell-test",method="GET",route="/v1/things",status="200"} 1',
    );
  });

  it("gives every response a request id, keeping a sane incoming one", async () => {
    const fresh = await request(app).get("/ok");
    expect(fresh.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await request(app).get("/ok").set("X-Request-Id", "abc-123");
    expect(kept.headers["x-request-id"]).toBe("abc-123");
  });

  it("applies the contract's query defaults and coercion before the handler", async () => {
    await request(app).get("/v1/things").expect(200, { limit: 20 });
    await request(app).get("/v1/things?limit=7").expect(200, { limit: 7 });
  });

  it("answers 422 with loc naming the query parameter", async () => {
    const response = await request(app).get("/v1/things?limit=0").expect(422);
    expect(response.body.detail).toEqual([{ loc: ["query", "limit"], msg: expect.any(String), type: "minimum" }]);
  });

  it("answers 422 with loc naming a nested body field", async () => {
    const response = await request(app)
      .post("/v1/things")
      .send({ name: "ok", spec: { cpu: 0 } })
      .expect(422);
    expect(response.body.detail).toEqual([{ loc: ["body", "spec", "cpu"], msg: expect.any(String), type: "minimum" }]);
  });

  it("rejects unknown query parameters and malformed JSON with 422", async () => {
    const unknown = await request(app).get("/v1/things?colour=red").expect(422);
    expect(unknown.body.detail[0].loc).toEqual(["query", "colour"]);
    const malformed = await request(app)
      .post("/v1/things")
      .set("Content-Type", "application/json")
      .send("{not json")
      .expect(422);
    expect(malformed.body.detail).toEqual([
      { loc: ["body"], msg: "Request body is not valid JSON", type: "json_invalid" },
    ]);
  });

  it("maps the error hierarchy to its status and {detail}", async () => {
    await request(app).post("/v1/things").send({ name: "taken" }).expect(409, { detail: "thing taken already exists" });
    const invalidName = await request(app).post("/v1/things").send({ name: "invalid" }).expect(422);
    expect(invalidName.body).toEqual({
      detail: [{ loc: ["body", "name"], msg: "name is reserved", type: "value_error" }],
    });
    const id = "9b2d3f9e-4b4f-4b8e-9d61-2f1c0f3a1a11";
    await request(app)
      .get(`/v1/things/${id}`)
      .expect(404, { detail: `Thing ${id} not found` });
  });

  it("answers 404 and 405 for what the contract does not have", async () => {
    await request(app).get("/v1/nothing").expect(404, { detail: "Not Found" });
    await request(app).delete("/v1/things").expect(405, { detail: "Method Not Allowed" });
  });

  it("never leaks an unexpected error's text: 500 with the request id only", async () => {
    const response = await request(app).post("/v1/things").send({ name: "boom" }).expect(500);
    expect(response.body).toEqual({ detail: "Internal Server Error", request_id: response.headers["x-request-id"] });
    expect(JSON.stringify(response.body)).not.toContain("secret_table");
  });

  it("answers 413 for a body over the limit", async () => {
    const small = createServiceApp({
      service: "shell-test",
      logger: createLogger("shell-test", "silent"),
      apiSpec,
      validationStyle: "list",
      bodyLimit: "1kb",
      routes: () => {},
    }).app;
    await request(small)
      .post("/v1/things")
      .send({ name: "a".repeat(5000) })
      .expect(413);
  });

  it("says a runtime-style 422 as one message", async () => {
    const runtime = buildApp("message");
    const response = await request(runtime).get("/v1/things?limit=500").expect(422);
    expect(typeof response.body.detail).toBe("string");
    expect(response.body.detail).toContain("query.limit");
  });
});

describe("request logs", () => {
  it("never record a query string (it can carry an OAuth code or state)", async () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => lines.push(line) };
    const pino = (await import("pino")).default;
    const captured = pino({ level: "info" }, destination);
    const app = createServiceApp({
      service: "shell-test",
      logger: captured,
      apiSpec,
      validationStyle: "list",
      routes: (routes) => routes.get("/v1/things", (_req, res) => void res.json({})),
    }).app;
    // Refused (the contract has no `code`), and logged all the same.
    await request(app).get("/v1/things?limit=5&code=secret-code").expect(422);
    const completed = lines.map((line) => JSON.parse(line)).find((line) => line.msg === "request completed");
    expect(completed.req).toMatchObject({ method: "GET", path: "/v1/things" });
    expect(lines.join("\n")).not.toContain("secret-code");
  });
});

describe("text PostgreSQL cannot store: NUL characters and lone surrogates", () => {
  const app = buildApp("list");

  it("are refused with 422 in a query parameter", async () => {
    const response = await request(app).get("/v1/things?limit=%00").expect(422);
    expect(response.body.detail[0].loc).toEqual(["query", "limit"]);
  });

  it("are refused with 422 anywhere in a body, naming the field", async () => {
    const response = await request(app)
      .post("/v1/things")
      .send({ name: "ok", spec: { note: "a\u0000b" } })
      .expect(422);
    expect(response.body).toEqual({
      detail: [
        { loc: ["body", "spec", "note"], msg: "text may not contain NUL (\\u0000) characters", type: "value_error" },
      ],
    });
  });

  it.each([
    [
      "a lone high surrogate in a nested value",
      '{"name":"ok","spec":{"tags":["fine","x\\ud800"]}}',
      ["body", "spec", "tags", 1],
    ],
    ["a lone low surrogate", '{"name":"\\udc00"}', ["body", "name"]],
    ["a lone surrogate in a key", '{"name":"ok","spec":{"\\ud83d":1}}', ["body", "spec", "\ud83d"]],
  ])("refuses %s with 422", async (_case, body, loc) => {
    const response = await request(app)
      .post("/v1/things")
      .set("Content-Type", "application/json")
      .send(body)
      .expect(422);
    expect(response.body.detail[0]).toMatchObject({ loc, msg: expect.stringMatching(/surrogate/) });
  });

  it("accepts a well-formed surrogate pair (an emoji, escaped or not)", async () => {
    const response = await request(app)
      .post("/v1/things")
      .set("Content-Type", "application/json")
      .send('{"name":"ok","spec":{"note":"\\ud83d\\ude00 \u{1F600}"}}');
    // Past the check: the handler's own answer (a 422 would name the field).
    expect(response.body.detail?.[0]?.loc).toBeUndefined();
  });
});
