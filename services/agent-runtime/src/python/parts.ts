// langgraph.json's `auth.path` and `http.app` naming Python: answered by the Python graph host.
// - The auth handler: the same calls as a JS `Auth`'s (see auth/custom-auth.ts), each a call to
//   the host (`authenticate` with the request's method, path, query and headers; a handler with
//   the user, the resource action and its value, which it may change).
// - The app (Starlette, FastAPI): the requests its routes match (their path patterns, from the host
//   at start) go to it, with their body; the others go on to the built-in routes.
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { PythonHost, LoadReport } from "./host";

/** What a handler of a JS `Auth` is called with (and a Python one here). */
interface HandlerRequest {
  resource: string;
  action: string;
  value: unknown;
  permissions: string[];
  user: Record<string, unknown>;
}

/** The shape of a JS `Auth`'s handler cache, which CustomAuth calls. */
export interface HostedAuthHandlers {
  authenticate?: (request: globalThis.Request) => Promise<unknown>;
  callbacks: Record<string, (request: HandlerRequest) => Promise<unknown>>;
}

interface HttpErrorWire {
  status: number;
  detail: string;
  headers: Record<string, string>;
}

/** An `HTTPException` of the Python handler, as CustomAuth reads a JS one (status, message, headers). */
function httpException(error: HttpErrorWire): Error & { status: number; headers: Record<string, string> } {
  return Object.assign(new Error(error.detail), { status: error.status, headers: error.headers });
}

/** Copies what the handler made of the value back into it (JS handlers change it in place). */
function adopt(target: unknown, changed: unknown): void {
  if (!target || typeof target !== "object" || !changed || typeof changed !== "object") return;
  const record = target as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!(key in (changed as object))) delete record[key];
  Object.assign(record, changed);
}

export function hostedAuth(host: PythonHost, described: NonNullable<LoadReport["auth"]>): HostedAuthHandlers {
  if ("error" in described) throw new Error(described.error);
  const callbacks: HostedAuthHandlers["callbacks"] = {};
  for (const key of described.handlers) {
    callbacks[key] = async ({ resource, action, value, permissions, user }) => {
      const answer = await host.call<{ result?: unknown; value?: unknown; error?: HttpErrorWire }>("auth.authorize", {
        resource,
        action,
        value,
        permissions,
        user,
      });
      if (answer.error) throw httpException(answer.error);
      adopt(value, answer.value);
      return answer.result;
    };
  }
  return {
    callbacks,
    ...(described.authenticate && {
      authenticate: async (request: globalThis.Request) => {
        const url = new URL(request.url);
        const answer = await host.call<{ user?: unknown; error?: HttpErrorWire }>("auth.authenticate", {
          method: request.method,
          path: url.pathname,
          query: url.search.slice(1),
          headers: [...request.headers.entries()],
        });
        if (answer.error) throw httpException(answer.error);
        return answer.user;
      },
    }),
  };
}

/** A Python regular expression of a route (`(?P<id>...)`) as JavaScript's. */
const jsPattern = (pattern: string) => new RegExp(pattern.replace(/\(\?P</g, "(?<"));

/** Request headers the app is not sent (hop by hop). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade"]);

async function bodyOf(req: Request): Promise<Buffer> {
  if (req.method === "GET" || req.method === "HEAD") return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function hostedApp(host: PythonHost, described: NonNullable<LoadReport["app"]>): RequestHandler {
  if ("error" in described) throw new Error(described.error);
  const routes = described.routes.map((route) => ({ pattern: jsPattern(route.pattern), methods: route.methods }));
  return async (req: Request, res: Response, next: NextFunction) => {
    const method = req.method === "HEAD" ? "GET" : req.method;
    const matched = routes.some(
      (route) =>
        route.pattern.test(req.path) &&
        (!route.methods || route.methods.includes(req.method) || route.methods.includes(method)),
    );
    if (!matched) return next();
    try {
      const body = await bodyOf(req);
      const answer = await host.call<{ status: number; headers: [string, string][]; body: string }>("http.request", {
        method: req.method,
        path: req.path,
        query: req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?") + 1) : "",
        headers: Object.entries(req.headers).flatMap(([name, value]) =>
          HOP_BY_HOP.has(name) || value === undefined ? [] : ([] as string[]).concat(value).map((v) => [name, v]),
        ),
        client: req.socket.remoteAddress,
        body: body.toString("base64"),
      });
      res.status(answer.status);
      for (const [name, value] of answer.headers) if (!HOP_BY_HOP.has(name.toLowerCase())) res.append(name, value);
      res.end(Buffer.from(answer.body, "base64"));
    } catch (error) {
      next(error);
    }
  };
}
