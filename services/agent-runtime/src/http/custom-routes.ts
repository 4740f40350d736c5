// langgraph.json's `http.app`: the project's own routes and middleware, mounted after CORS and the
// runtime's auth and before the built-in routes, as the official server mounts them. Two kinds of
// app are taken: a Hono app (what the official JS server takes) and an Express app or router.
// A Hono app's middleware also wraps the built-in routes: a request no route of the app answers
// goes on to them, with the headers its middleware set.
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { GraphConfigError, type GraphProject } from "../graphs/config";
import { loadProjectExport } from "../graphs/modules";
import { standardRequest } from "./standard-request";

/** Hono's cache of what was read of a request's body, by how it was read (`c.req.bodyCache`). */
type BodyCache = Partial<Record<"json" | "text" | "arrayBuffer" | "blob" | "formData", Promise<unknown>>>;

/** What a Hono app offers that this bridge uses. */
interface HonoLike {
  fetch(request: globalThis.Request): globalThis.Response | Promise<globalThis.Response>;
  notFound(handler: (c: { req: { raw: globalThis.Request; bodyCache?: BodyCache } }) => globalThis.Response): unknown;
  /** Hono's router: what a request would reach (its routes and its middleware). */
  router?: { match(method: string, path: string): [unknown[], ...unknown[]] };
}

/** Whether any route or middleware of the app matches: a request nothing matches skips the bridge. */
function reaches(app: HonoLike, method: string, path: string): boolean {
  if (!app.router) return true;
  try {
    return app.router.match(method === "HEAD" ? "GET" : method, path)[0].length > 0;
  } catch {
    return true;
  }
}

/** Marks the answer of a request no custom route took: the built-in routes answer it. */
const PASS_THROUGH = "x-lgp-custom-routes-pass";

function isHono(value: unknown): value is HonoLike {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as HonoLike).fetch === "function" &&
    typeof (value as HonoLike).notFound === "function"
  );
}

function isExpress(value: unknown): value is RequestHandler {
  return (
    typeof value === "function" &&
    typeof (value as { use?: unknown }).use === "function" &&
    typeof (value as { handle?: unknown }).handle === "function"
  );
}

export interface CustomRoutes {
  kind: "hono" | "express" | "python";
  /** `http.app` as written. */
  source: string;
  handler: RequestHandler;
}

/**
 * Loads `http.app` relative to langgraph.json; a wrong path or export stops start-up. A Python
 * ASGI app (`hosted`) is answered by the Python graph host.
 */
export async function loadCustomRoutes(
  project: GraphProject,
  spec: string | undefined,
  hosted?: (spec: string) => RequestHandler | undefined,
): Promise<CustomRoutes | undefined> {
  if (!spec) return undefined;
  const inPython = hosted?.(spec);
  if (inPython) return { kind: "python", source: spec, handler: inPython };
  const { exported, file, exportName } = await loadProjectExport(project.configPath, "http.app", spec);
  if (isHono(exported)) return { kind: "hono", source: spec, handler: honoBridge(exported) };
  if (isExpress(exported)) return { kind: "express", source: spec, handler: exported };
  throw new GraphConfigError(
    `http.app ${spec}: export "${exportName}" of ${file} is neither a Hono app nor an Express app or router`,
  );
}

/** A request body the Hono app reads only if it asks: untouched, the built-in routes still get it. */
function lazyBody(req: Request): globalThis.ReadableStream<Uint8Array> | undefined {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (Readable.toWeb(req) as unknown as globalThis.ReadableStream<Uint8Array>).getReader();
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    },
    { highWaterMark: 0 },
  );
}

/** A body the app's middleware read: JSON text parsed as `express.json` would, or its error. */
function parseJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw Object.assign(error as Error, { type: "entity.parse.failed", status: 400 });
  }
}

/**
 * A body the app's middleware read has left the request's stream: the built-in route gets it as
 * the middleware read it. Parsed JSON comes as it is now, with the middleware's changes where its
 * Hono keeps the parsed object (as the official server's handlers see them); text or bytes are
 * parsed. Unread, the stream is untouched and parsed as usual.
 */
async function adoptBody(req: Request, cache: BodyCache | undefined): Promise<void> {
  if (!cache) return;
  let body: unknown;
  if (cache.json) body = await cache.json;
  else if (cache.text) body = parseJson((await cache.text) as string);
  else if (cache.arrayBuffer) body = parseJson(Buffer.from((await cache.arrayBuffer) as ArrayBuffer).toString("utf8"));
  else if (cache.blob) body = parseJson(await ((await cache.blob) as Blob).text());
  else return;
  req.body = body;
}

function honoBridge(app: HonoLike): RequestHandler {
  /** What the app read of each request's body, for the requests it passes on. */
  const bodiesRead = new WeakMap<globalThis.Request, BodyCache>();
  app.notFound((c) => {
    if (c.req.bodyCache && Object.keys(c.req.bodyCache).length) bodiesRead.set(c.req.raw, c.req.bodyCache);
    return new Response(null, { status: 404, headers: { [PASS_THROUGH]: "1" } });
  });
  return async (req: Request, res: Response, next: NextFunction) => {
    // Most requests of an app with a few routes and no `*` middleware are the built-in routes':
    // they go straight on, without a Request object made for the app.
    if (!reaches(app, req.method, req.path)) {
      next();
      return;
    }
    try {
      const request = standardRequest(req, lazyBody(req));
      const answer = await app.fetch(request);
      if (answer.headers.get(PASS_THROUGH)) {
        // The app's middleware ran around "no route": its headers go on the built-in answer.
        answer.headers.forEach((value, name) => {
          if (name !== PASS_THROUGH && name !== "content-length" && name !== "content-type") res.setHeader(name, value);
        });
        await adoptBody(req, bodiesRead.get(request));
        next();
        return;
      }
      res.status(answer.status);
      answer.headers.forEach((value, name) => res.append(name, value));
      if (!answer.body) {
        res.end();
        return;
      }
      Readable.fromWeb(answer.body as unknown as WebReadableStream).pipe(res);
    } catch (error) {
      next(error);
    }
  };
}
