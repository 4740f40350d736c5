// The services' contract validators skip checking the document itself at start-up (it halves the
// time each app takes to build its validator); this is where each bundled document is checked
// against the OpenAPI schema instead, with the validator's own check.
import express from "express";
import * as OpenApiValidator from "express-openapi-validator";
import request from "supertest";
import { agentRuntimeApi, controlPlaneApi } from "../src";

/** The status and text a request gets through a validator that checks its document first. */
async function throughCheckedValidator(apiSpec: object): Promise<{ status: number; text: string }> {
  const app = express();
  app.use(OpenApiValidator.middleware({ apiSpec: structuredClone(apiSpec) as never, validateApiSpec: true }));
  app.use((_req, res) => {
    res.status(204).end();
  });
  app.use(
    (error: { status?: number; message?: string }, _req: express.Request, res: express.Response, _next: unknown) => {
      res.status(error.status ?? 500).send(error.message ?? "");
    },
  );
  const response = await request(app).get("/ok");
  return { status: response.status, text: response.text };
}

test.each([
  ["agent runtime", agentRuntimeApi],
  ["control plane", controlPlaneApi],
])("the %s contract is a valid OpenAPI document", async (_name, document) => {
  const { status, text } = await throughCheckedValidator(document);
  expect(text).not.toMatch(/apiDoc was invalid/);
  expect(status).not.toBe(500);
});

test("a document that is not valid OpenAPI is refused by that check", async () => {
  const { status, text } = await throughCheckedValidator({
    openapi: "3.1.0",
    info: { title: "broken" },
    paths: { "/ok": { get: { responses: "none" } } },
  });
  expect(status).toBe(500);
  expect(text).toMatch(/apiDoc was invalid/);
});

type Operation = { responses?: Record<string, { $ref?: string }>; parameters?: { $ref?: string }[] };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { headers?: Record<string, unknown> }> };
};
const METHODS = ["get", "put", "post", "patch", "delete", "head", "options"];
const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );

test.each([
  ["agent runtime", agentRuntimeApi],
  ["control plane", controlPlaneApi],
])("every operation of the %s contract may answer 429 with Retry-After and the RateLimit fields", (_name, api) => {
  // Any caller may be over its budget, and an address past its failed authentications is refused everything.
  const document = api as unknown as Document;
  const without = operationsOf(document)
    .filter(({ operation }) => operation.responses?.["429"]?.$ref !== "#/components/responses/TooManyRequests")
    .map(({ name }) => name);
  expect(without).toEqual([]);
  expect(Object.keys(document.components.responses.TooManyRequests?.headers ?? {}).sort()).toEqual([
    "RateLimit",
    "RateLimit-Policy",
    "Retry-After",
  ]);
});
