// Tolerant input for services whose clients grow faster than the server: official SDKs add fields
// and query parameters, the Python SDK sends `null` for every optional field it was not given, and
// pass-through proxies drop `Content-Type`. What is tolerated here never reaches a handler as a
// wrong value: types, formats and ranges are still the validator's to refuse.
import type { RequestHandler } from "express";

type Json = Record<string, unknown>;
type Schema = Json;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Body types read as JSON: what `fetch` says for a string body, and what `curl -d` says. */
const READ_AS_JSON = ["text/plain", "application/x-www-form-urlencoded"];

/**
 * A body without `Content-Type`, or sent as `text/plain` (what `fetch` says for a string body) or
 * as a form (what `curl -d` says), is read as JSON, as the official servers read it; a body that is
 * not JSON is then a 422, as any.
 */
export const defaultJsonContentType: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
  const type = req.headers["content-type"]?.toLowerCase();
  if (hasBody && (!type || READ_AS_JSON.some((readAsJson) => type.startsWith(readAsJson))))
    req.headers["content-type"] = "application/json";
  next();
};

/** Follows local `$ref`s (`#/components/...`) of the bundled document. */
function resolver(document: Json): (schema: unknown) => Schema | undefined {
  return function resolve(schema: unknown, depth = 0): Schema | undefined {
    if (!isObject(schema)) return undefined;
    const ref = schema.$ref;
    if (typeof ref !== "string" || depth > 32) return schema;
    let target: unknown = document;
    for (const segment of ref.replace(/^#\//, "").split("/")) target = isObject(target) ? target[segment] : undefined;
    return resolve(target, depth + 1);
  } as (schema: unknown) => Schema | undefined;
}

/** Whether a schema accepts `null` itself (OpenAPI 3.1 type arrays, `nullable`, `{}` or a null branch). */
function allowsNull(schema: Schema, resolve: (schema: unknown) => Schema | undefined, depth = 0): boolean {
  if (depth > 16) return true;
  const type = schema.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null")) || schema.nullable === true) return true;
  const branches = [schema.oneOf, schema.anyOf].filter(Array.isArray).flat() as unknown[];
  if (branches.length) return branches.some((branch) => allowsNull(resolve(branch) ?? {}, resolve, depth + 1));
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  if ("const" in schema) return schema.const === null;
  // No constraint at all: any value, null included (user data such as metadata or state values).
  return type === undefined && !schema.properties && !schema.items && !schema.allOf;
}

/** The properties an object schema declares, its oneOf/anyOf/allOf object branches included. */
function propertiesOf(
  schema: Schema,
  resolve: (schema: unknown) => Schema | undefined,
  depth = 0,
): Map<string, Schema[]> {
  const found = new Map<string, Schema[]>();
  if (depth > 16) return found;
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      const resolved = resolve(property);
      if (resolved) found.set(name, [...(found.get(name) ?? []), resolved]);
    }
  }
  const branches = [schema.oneOf, schema.anyOf, schema.allOf].filter(Array.isArray).flat() as unknown[];
  for (const branch of branches) {
    const resolved = resolve(branch);
    if (!resolved) continue;
    for (const [name, schemas] of propertiesOf(resolved, resolve, depth + 1))
      found.set(name, [...(found.get(name) ?? []), ...schemas]);
  }
  return found;
}

/** Array item schemas of a schema (its branches included). */
function itemsOf(schema: Schema, resolve: (schema: unknown) => Schema | undefined): Schema[] {
  const own = resolve(schema.items);
  const branches = [schema.oneOf, schema.anyOf].filter(Array.isArray).flat() as unknown[];
  return [
    ...(own ? [own] : []),
    ...branches.flatMap((branch) => {
      const resolved = resolve(branch);
      return resolved ? itemsOf(resolved, resolve) : [];
    }),
  ];
}

/** What dropNulls needs of a list of schemas, worked out once per list (see `shapes`). */
interface Shape {
  /** Each declared property: its schemas, and whether `null` is dropped from it. */
  properties: Map<string, { schemas: Schema[]; dropNull: boolean }>;
  /** The item schemas, for an array value. */
  items: Schema[];
}

/**
 * The shapes of the schema lists dropNulls meets, by their lists' identity: the lists are built
 * here from the document's own schema objects and kept, so a request walks its body against
 * answers worked out on the first request of its kind rather than the schema's branches again.
 */
function shapes(resolve: (schema: unknown) => Schema | undefined): (schemas: Schema[]) => Shape {
  const known = new WeakMap<Schema[], Shape>();
  return (schemas) => {
    let shape = known.get(schemas);
    if (shape) return shape;
    const declared = new Map<string, Schema[]>();
    const required = new Set<string>();
    for (const schema of schemas) {
      for (const [name, found] of propertiesOf(schema, resolve))
        declared.set(name, [...(declared.get(name) ?? []), ...found]);
      if (Array.isArray(schema.required)) for (const name of schema.required) required.add(String(name));
    }
    const properties: Shape["properties"] = new Map();
    for (const [name, found] of declared)
      properties.set(name, {
        schemas: found,
        dropNull: !required.has(name) && !found.some((schema) => allowsNull(schema, resolve)),
      });
    shape = { properties, items: schemas.flatMap((schema) => itemsOf(schema, resolve)) };
    known.set(schemas, shape);
    return shape;
  };
}

/**
 * Removes `null` from the properties whose schema does not accept it, at any depth the schema
 * describes: `null` for such a field means "not given". Properties whose schema accepts anything
 * (metadata values, state values, store values) keep their nulls; a required property given `null`
 * is left for the validator to refuse.
 */
function dropNulls(value: unknown, schemas: Schema[], shapeOf: (schemas: Schema[]) => Shape, depth = 0): void {
  if (depth > 32 || !schemas.length) return;
  if (Array.isArray(value)) {
    const { items } = shapeOf(schemas);
    for (const item of value) dropNulls(item, items, shapeOf, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  const { properties } = shapeOf(schemas);
  if (!properties.size) return;
  for (const name in value) {
    const declared = properties.get(name);
    if (!declared) continue;
    const item = value[name];
    if (item === null) {
      if (declared.dropNull) delete value[name];
    } else {
      dropNulls(item, declared.schemas, shapeOf, depth + 1);
    }
  }
}

interface Operation {
  method: string;
  pattern: RegExp;
  /** Its JSON body's schema, as the one-element list dropNulls starts from. */
  body?: Schema[];
}

/** The JSON request-body schema of every operation of the document, by method and path pattern. */
function operationsOf(document: Json, resolve: (schema: unknown) => Schema | undefined): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    const pattern = new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
        .join("[^/]+")}/?$`,
    );
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation)) continue;
      const requestBody = resolve(operation.requestBody);
      const content = requestBody && isObject(requestBody.content) ? requestBody.content : {};
      const media = content["application/json"];
      const body = isObject(media) ? resolve(media.schema) : undefined;
      if (body) operations.push({ method: method.toUpperCase(), pattern, body: [body] });
    }
  }
  // Literal paths before templated ones (`/threads/search` before `/threads/{thread_id}`).
  return operations.sort((a, b) => a.pattern.source.split("[^/]+").length - b.pattern.source.split("[^/]+").length);
}

/** Reads `null` as "not given" for optional request-body fields, guided by the contract's schemas. */
export function nullAsAbsent(document: Json): RequestHandler {
  const resolve = resolver(document);
  const operations = operationsOf(document, resolve);
  const shapeOf = shapes(resolve);
  return (req, _res, next) => {
    if (isObject(req.body) || Array.isArray(req.body)) {
      const path = req.path;
      const operation = operations.find((candidate) => candidate.method === req.method && candidate.pattern.test(path));
      if (operation?.body) dropNulls(req.body, operation.body, shapeOf);
    }
    next();
  };
}
