// A router mounted with `app.use(router)` is entered by every request, which then tests its routes
// one by one: with a dozen such routers, a request tested some eighty routes' patterns on its way
// to its own. Scoped, a router is entered only by paths whose first segment one of its routes
// starts with, and skipped at once by the rest; what it answers is unchanged.
import type { RequestHandler, Router } from "express";

interface RouteLayer {
  route?: unknown;
  rawPath?: unknown;
}

/** The first path segments (lower case: Express matches case-insensitively) its routes start with; null for any. */
function firstSegments(router: Router): Set<string> | null {
  const segments = new Set<string>();
  for (const layer of router.stack as RouteLayer[]) {
    // Plain middleware runs for every path; so does a pattern that starts with a parameter.
    if (!layer.route) return null;
    const paths = Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath];
    for (const path of paths) {
      if (typeof path !== "string") return null;
      const segment = path.split("/")[1] ?? "";
      if (/[:*({\\]/.test(segment)) return null;
      segments.add(segment.toLowerCase());
    }
  }
  return segments;
}

function firstSegmentOf(path: string): string {
  const end = path.indexOf("/", 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/** The router, entered only by requests whose path could match one of its routes. */
export function scopedRouter(router: Router): RequestHandler {
  // Worked out again if routes are added after mounting (the stack grows).
  let seen = -1;
  let segments: Set<string> | null = null;
  return (req, res, next) => {
    if (router.stack.length !== seen) {
      segments = firstSegments(router);
      seen = router.stack.length;
    }
    if (segments && !segments.has(firstSegmentOf(req.path))) return next();
    router(req, res, next);
  };
}
