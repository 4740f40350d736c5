// The contract's validation of requests (and, in tests, responses), with express-openapi-validator.
// That validator finds a request's route by trying each route of its document in turn, compiling
// each route's path pattern again on every request: with the agent runtime's 49 paths that was
// about 0.25 ms of CPU per request, nearly all of what validation costs. So there is one validator
// per shape of path (first segment and number of segments: a path of another shape can never match
// the request), each holding only the paths of that shape, so a lookup tries a handful; and one of
// the whole document for a request of a shape no path has, or that its shape's validator would not
// recognise (another letter case, say), which answers it as the single validator did.
import type { RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";

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

export function contractValidator(apiSpec: Record<string, unknown>, options: ValidatorOptions): RequestHandler {
  const validator = (document: Record<string, unknown>) =>
    chain(OpenApiValidator.middleware({ ...options, apiSpec: document as never }) as RequestHandler[]);
  const whole = validator(apiSpec);
  const paths = (apiSpec.paths ?? {}) as Record<string, unknown>;
  const groups = new Map<string, Record<string, unknown>>();
  for (const [path, item] of Object.entries(paths)) {
    // A parameter first (`/{tenant}/...`) could match any segment: only the whole document will do.
    if (/^\/[{:]/.test(path)) return whole;
    const shape = shapeOf(path);
    groups.set(shape, { ...groups.get(shape), [path]: item });
  }
  const byShape = new Map([...groups].map(([shape, group]) => [shape, validator({ ...apiSpec, paths: group })]));
  return (req, res, next) => (byShape.get(shapeOf(req.path)) ?? whole)(req, res, next);
}
