// The contract validator keeps one express-openapi-validator per shape of path, each with only its
// paths and the components they use (a speed-up): it must answer every request exactly as one
// validator of the whole document does.
import { randomUUID } from "node:crypto";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import request from "supertest";
import { contractValidator, pruneDocument } from "../src/http/contract-validator";

const uuid = { type: "string", format: "uuid" };
const ok = { responses: { "200": { description: "ok" } } };
const apiSpec = {
  openapi: "3.1.0",
  info: { title: "shapes", version: "1.0.0" },
  paths: {
    "/items": { get: ok },
    "/items/search": {
      post: {
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/Search" } },
          },
        },
        ...ok,
      },
    },
    "/items/{id}": {
      get: { parameters: [{ $ref: "#/components/parameters/Id" }], ...ok },
      delete: { parameters: [{ name: "id", in: "path", required: true, schema: uuid }], ...ok },
    },
    "/items/{id}/parts": {
      get: {
        parameters: [
          { name: "id", in: "path", required: true, schema: uuid },
          { name: "limit", in: "query", schema: { type: "integer", maximum: 10 } },
        ],
        ...ok,
      },
    },
    "/other/{x}": {
      get: { parameters: [{ name: "x", in: "path", required: true, schema: { type: "string" } }], ...ok },
    },
  },
  components: {
    schemas: {
      Search: { type: "object", required: ["q"], properties: { q: { $ref: "#/components/schemas/Query" } } },
      Query: { type: "string" },
      Unused: { type: "integer" },
    },
    parameters: { Id: { name: "id", in: "path", required: true, schema: uuid } },
  },
};

const options = {
  validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true },
  validateResponses: false as const,
  validateSecurity: false as const,
  ignoreUndocumented: false,
  ignorePaths: /^\/ok$/,
};

function appWith(validator: RequestHandler | RequestHandler[]) {
  const app = express();
  app.use(express.json());
  app.use(validator);
  app.all(
    /.*/,
    (req, res) =>
      void res.json({
        path: req.path,
        params: (req as { openapi?: { pathParams?: unknown } }).openapi?.pathParams ?? null,
      }),
  );
  const errors: ErrorRequestHandler = (error, _req, res, _next) =>
    void res.status(error.status ?? 500).json({ message: error.message, errors: error.errors ?? null });
  app.use(errors);
  return app;
}

const single = appWith(OpenApiValidator.middleware({ ...options, apiSpec: apiSpec as never }));
const byShape = appWith(contractValidator(apiSpec, options));

const id = randomUUID();
const cases: [method: "get" | "post" | "put" | "delete", path: string, body?: unknown][] = [
  ["get", "/items"],
  ["post", "/items/search", { q: "x" }],
  ["post", "/items/search", { q: 1 }],
  ["post", "/items/search", {}],
  ["get", `/items/${id}`],
  ["get", "/items/not-a-uuid"],
  ["delete", `/items/${id}`],
  ["put", `/items/${id}`],
  ["get", `/items/${id}/`],
  ["get", `/ITEMS/${id}`],
  ["get", `/items/${id}/parts?limit=3`],
  ["get", `/items/${id}/parts?limit=30`],
  ["get", `/items/${id}/parts?unknown=1`],
  ["get", `/items/${id}/unknown`],
  ["get", `/items/${id}/parts/more`],
  ["get", "/other/thing"],
  ["get", "/nothing/here"],
  ["get", "/"],
  ["get", "/ok"],
];

test.each(cases.map(([method, path, body]) => ({ method, path, body })))(
  "$method $path is answered as by one validator of the whole document",
  async ({ method, path, body }) => {
    const send = async (app: express.Express) => {
      const pending = request(app)[method](path);
      const response = body === undefined ? await pending : await pending.send(body as object);
      return { status: response.status, body: response.body };
    };
    const expected = await send(single);
    expect(await send(byShape)).toEqual(expected);
  },
);

test("the cases cover refusals as well as answers", async () => {
  const statuses = new Set<number>();
  for (const [method, path, body] of cases) {
    const pending = request(byShape)[method](path);
    statuses.add((body === undefined ? await pending : await pending.send(body as object)).status);
  }
  expect([...statuses].sort()).toEqual([200, 400, 404, 405]);
});

test("a shape's document holds its paths and the components they reach, through other components too", () => {
  const paths = { "/items/search": apiSpec.paths["/items/search"] };
  expect(pruneDocument(apiSpec, paths)).toEqual({
    ...apiSpec,
    paths,
    components: { schemas: { Search: apiSpec.components.schemas.Search, Query: { type: "string" } } },
  });
  const byId = { "/items/{id}": apiSpec.paths["/items/{id}"] };
  expect(pruneDocument(apiSpec, byId)?.components).toEqual({ parameters: apiSpec.components.parameters });
});

test("a shape whose paths use references of another form is served by the whole document", () => {
  const deep = {
    "/items/search": { post: { ...ok, requestBody: { $ref: "#/components/schemas/Search/properties/q" } } },
  };
  const escaped = { "/items/search": { post: { ...ok, requestBody: { $ref: "#/components/schemas/a~1b" } } } };
  const missing = { "/items/search": { post: { ...ok, requestBody: { $ref: "#/components/schemas/Nowhere" } } } };
  for (const paths of [deep, escaped, missing]) expect(pruneDocument(apiSpec, paths)).toBeUndefined();
});
