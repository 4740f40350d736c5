// An Express request as a standard `Request` (method, URL, headers, and a body when given): what
// custom auth handlers and a project's Hono app receive.
import type { Request as ExpressRequest } from "express";

export function standardRequest(req: ExpressRequest, body?: ReadableStream<Uint8Array>): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
  return new Request(url, { method: req.method, headers, ...(body ? { body, duplex: "half" } : {}) } as RequestInit);
}
