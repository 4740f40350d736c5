// The contract's validation of requests (and, in tests, responses), with express-openapi-validator.
// That validator finds a request's route by trying each route of its document in turn, compiling
// each route's path pattern again on every request: with the agent runtime's 49 paths, most of what
// validation costs. So there is one validator per shape of path (first segment and number of
// segments: a path of another shape can never match the request), each holding only the paths of
// that shape and the components they use, so a lookup tries a handful; and one of the whole
// document for a request of a shape no path has, which answers it as the single validator did.
// Each is built on the first request of its shape: an app pays only for the shapes it serves, and
// a small document builds fast (every validator loads, copies and dereferences its own document).
import type { RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";

type Json = Record<string, unknown>;
type ValidatorOptions = Omit<Parameters<typeof OpenApiValidator.middleware>[0], "apiSpec">;

/** Runs the handlers in turn, as Express would (an error, or the last one, goes to `next`). */
function chain(handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown) => {
      if (error !== undefined || index === handlers.length) return next(error);
      const handler = handlers[index++];
      try {
        handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/** `/threads/{thread_id}/runs` -> `threads/3` (a trailing slash aside, as the matching ignores it). */
function shapeOf(path: string): string {
  const segments = path.replace(/\/+$/, "").split("/");
  return `${segments[1] ?? ""}/${segments.length - 1}`;
}

/**
 * The document with only the given paths, and only the components they reach through local
 * `$ref`s (directly or through other components). Security schemes are kept whole. Undefined when
 * a reference is of another form (into a component, `~`-escaped, outside components): the whole
 * document then serves those paths.
 */
export function pruneDocument(document: Json, paths: Json): Json | undefined {
  const components = (document.components ?? {}) as Record<string, Json>;
  const kept: Record<string, Json> = {};
  let prunable = true;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== "object" || value === null || !prunable) return;
    for (const [key, item] of Object.entries(value)) {
      if (key !== "$ref" || typeof item !== "string") {
        visit(item);
        continue;
      }
      const match = /^#\/components\/([^/~]+)\/([^/~]+)$/.exec(item);
      if (!match || components[match[1]]?.[match[2]] === undefined) {
        prunable = false;
        return;
      }
      const [, kind, name] = match;
      if (kept[kind]?.[name] !== undefined) continue;
      (kept[kind] ??= {})[name] = components[kind][name];
      visit(components[kind][name]);
    }
  };
  visit(paths);
  if (!prunable) return undefined;
  if (components.securitySchemes) kept.securitySchemes = components.securitySchemes;
  return { ...document, paths, components: kept };
}

export function contractValidator(apiSpec: Json, options: ValidatorOptions): RequestHandler {
  const validator = (document: Json) =>
    chain(OpenApiValidator.middleware({ ...options, apiSpec: document as never }) as RequestHandler[]);
  let whole: RequestHandler | undefined;
  const wholeDocument: RequestHandler = (req, res, next) => (whole ??= validator(apiSpec))(req, res, next);
  const groups = new Map<string, Json>();
  for (const [path, item] of Object.entries((apiSpec.paths ?? {}) as Json)) {
    // A parameter first (`/{tenant}/...`) could match any segment: only the whole document will do.
    if (/^\/[{:]/.test(path)) return wholeDocument;
    const shape = shapeOf(path);
    groups.set(shape, { ...groups.get(shape), [path]: item });
  }
  const byShape = new Map<string, RequestHandler>();
  return (req, res, next) => {
    const shape = shapeOf(req.path);
    let handler = byShape.get(shape);
    if (!handler) {
      const paths = groups.get(shape);
      if (!paths) return wholeDocument(req, res, next);
      const pruned = pruneDocument(apiSpec, paths);
      handler = pruned ? validator(pruned) : wholeDocument;
      byShape.set(shape, handler);
    }
    handler(req, res, next);
  };
}
