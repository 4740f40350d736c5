// Sends every operation of an OpenAPI document requests of every shape (path ids valid, unknown
// and malformed; query values of any type; bodies built from the operation's own field names with
// values of any kind, and arbitrary JSON) and reports each answer that is a 5xx or never comes.
import fc from "fast-check";

/* eslint-disable @typescript-eslint/no-explicit-any -- an OpenAPI document is plain JSON */
type Doc = any;

export interface FuzzOptions {
  baseUrl: string;
  document: Doc;
  headers?: Record<string, string>;
  /** Real values of path parameters, by name (an existing thread id...), tried among the wrong ones. */
  pathValues?: Record<string, string[]>;
  /** Requests per operation. */
  samples?: number;
  seed?: number;
  /** How long an answer's status may take. */
  timeoutMs?: number;
}

export interface FuzzFailure {
  method: string;
  url: string;
  body: unknown;
  status: number | "no answer";
  text: string;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

function resolve(document: Doc, schema: Doc, depth = 0): Doc {
  if (!schema || depth > 10) return schema;
  if (schema.$ref) {
    const target = (schema.$ref as string)
      .replace(/^#\//, "")
      .split("/")
      .reduce((node: Doc, part: string) => node?.[part], document);
    return resolve(document, target, depth + 1);
  }
  return schema;
}

/** Field names and literal values (enums, defaults) a schema mentions, one level down. */
function shapeOf(document: Doc, schema: Doc, depth = 0): { keys: string[]; literals: unknown[] } {
  const resolved = resolve(document, schema);
  const keys = new Set<string>();
  const literals: unknown[] = [];
  if (!resolved || depth > 4) return { keys: [], literals };
  for (const part of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]) {
    const inner = shapeOf(document, part, depth + 1);
    inner.keys.forEach((key) => keys.add(key));
    literals.push(...inner.literals);
  }
  for (const [key, property] of Object.entries(resolved.properties ?? {})) {
    keys.add(key);
    const value = resolve(document, property);
    if (Array.isArray(value?.enum)) literals.push(...value.enum);
    if (value?.default !== undefined) literals.push(value.default);
  }
  return { keys: [...keys], literals };
}

/** A value the schema accepts, as plain as can be: required fields only, first enum values. */
function example(document: Doc, schema: Doc, depth = 0): unknown {
  const resolved = resolve(document, schema);
  if (!resolved || depth > 6) return null;
  if (resolved.default !== undefined) return resolved.default;
  if (Array.isArray(resolved.enum)) return resolved.enum[0];
  if (resolved.const !== undefined) return resolved.const;
  if (resolved.allOf?.length) {
    return Object.assign({}, ...resolved.allOf.map((part: Doc) => example(document, part, depth + 1) ?? {}));
  }
  const first = (resolved.oneOf ?? resolved.anyOf)?.[0];
  if (first) return example(document, first, depth + 1);
  const type = Array.isArray(resolved.type) ? resolved.type.find((t: string) => t !== "null") : resolved.type;
  if (type === "object" || resolved.properties) {
    return Object.fromEntries(
      (resolved.required ?? []).map((key: string) => [key, example(document, resolved.properties?.[key], depth + 1)]),
    );
  }
  if (type === "array") return [];
  if (type === "integer" || type === "number") return resolved.minimum ?? 1;
  if (type === "boolean") return false;
  if (type === "string") return resolved.format === "uuid" ? "00000000-0000-4000-8000-000000000000" : "x";
  return null;
}

/** A valid body, the same with one field of any value, fields of any value, or any JSON. */
function bodies(valid: unknown, keys: string[], values: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const names = fc.constantFrom(...(keys.length ? keys : ["x"]));
  const base = valid && typeof valid === "object" && !Array.isArray(valid) ? valid : {};
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(valid) },
    { weight: 3, arbitrary: fc.tuple(names, values).map(([key, value]) => ({ ...base, [key]: value })) },
    { weight: 2, arbitrary: fc.dictionary(names, values, { maxKeys: 6 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

const wrongIds = ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "%20", "x".repeat(300), "%E2%80%AE"];

function anyValue(literals: unknown[]) {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(
      null,
      "",
      -1,
      0,
      1e12,
      1.5,
      true,
      "*",
      "lone \ud800 surrogate",
      "nul \u0000",
      [],
      {},
      ...(literals.length ? literals : ["x"]),
    ),
  );
}

interface Sample {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export async function fuzzOperations(options: FuzzOptions): Promise<{ requests: number; failures: FuzzFailure[] }> {
  const { document } = options;
  const failures: FuzzFailure[] = [];
  let requests = 0;
  for (const [template, item] of Object.entries<Doc>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: Doc) =>
        resolve(document, p),
      );
      const pathNames = parameters.filter((p: Doc) => p.in === "path").map((p: Doc) => p.name as string);
      const queryParams = parameters.filter((p: Doc) => p.in === "query");
      const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
      const shape = bodySchema ? shapeOf(document, bodySchema) : { keys: [], literals: [] };
      const values = anyValue(shape.literals);
      const sample: fc.Arbitrary<Sample> = fc.record({
        path: fc.record(
          Object.fromEntries(
            pathNames.map((name: string) => {
              const real = options.pathValues?.[name] ?? [];
              const wrong = fc.constantFrom(...wrongIds);
              return [name, real.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, wrong) : wrong];
            }),
          ),
        ),
        query: fc.record(
          Object.fromEntries(
            queryParams.map((p: Doc) => {
              const schema = resolve(document, p.schema) ?? {};
              return [
                p.name,
                fc.option(
                  fc.oneof(
                    anyValue([...(schema.enum ?? []), schema.default].filter((v) => v !== undefined)),
                    fc.string(),
                  ),
                  { nil: undefined },
                ),
              ];
            }),
          ),
        ) as fc.Arbitrary<Record<string, unknown>>,
        body: bodySchema ? bodies(example(document, bodySchema), shape.keys, values) : fc.constant(undefined),
      });
      for (const request of fc.sample(sample, { numRuns: options.samples ?? 10, seed: options.seed ?? 42 })) {
        const path = template.replace(/\{([^}]+)\}/g, (_match, name: string) =>
          request.path[name].startsWith("%") ? request.path[name] : encodeURIComponent(request.path[name]),
        );
        const query = new URLSearchParams();
        for (const [name, value] of Object.entries(request.query)) {
          if (value !== undefined) query.set(name, typeof value === "string" ? value : JSON.stringify(value));
        }
        const url = `${options.baseUrl}${path}${query.size ? `?${query}` : ""}`;
        requests += 1;
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 5_000);
        try {
          const response = await fetch(url, {
            method: method.toUpperCase(),
            headers: {
              ...(request.body !== undefined ? { "content-type": "application/json" } : {}),
              ...options.headers,
            },
            body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
            signal: controller.signal,
            // A redirect is an answer (the OAuth callback sends the browser on): not followed.
            redirect: "manual",
          });
          const streaming = response.headers.get("content-type")?.includes("text/event-stream");
          const text = streaming ? "" : await response.text().catch(() => "");
          if (streaming) await response.body?.cancel().catch(() => undefined);
          if (response.status >= 500) failures.push({ method, url, body: request.body, status: response.status, text });
        } catch (error) {
          failures.push({ method, url, body: request.body, status: "no answer", text: String(error) });
        } finally {
          clearTimeout(timer);
          controller.abort();
        }
      }
    }
  }
  return { requests, failures };
}
