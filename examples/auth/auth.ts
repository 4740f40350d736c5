// Per-user access for the notes agent: a request carries a JWT (HS256, signed with AUTH_SECRET;
// mint one with `npx tsx examples/auth/token.ts alice`). Each user sees only the threads,
// assistants, runs and crons they made, and only their own corner of the store.
import { Auth, HTTPException } from "@langchain/langgraph-sdk/auth";
import { jwtVerify } from "jose";

function secret(): Uint8Array {
  const value = process.env.AUTH_SECRET;
  if (!value || value.length < 32) throw new Error("AUTH_SECRET must be set (32 characters or more)");
  return new TextEncoder().encode(value);
}

export const auth = new Auth()
  .authenticate(async (request) => {
    const header = request.headers.get("authorization") ?? "";
    const token = /^Bearer\s+(.+)$/i.exec(header)?.[1];
    if (!token)
      throw new HTTPException(401, { message: "Missing bearer token", headers: { "WWW-Authenticate": "Bearer" } });
    try {
      const { payload } = await jwtVerify(token, secret(), { algorithms: ["HS256"] });
      if (typeof payload.sub !== "string") throw new Error("no subject");
      const scopes = Array.isArray(payload.scopes) ? payload.scopes.filter((s) => typeof s === "string") : [];
      return { identity: payload.sub, display_name: String(payload.name ?? payload.sub), permissions: scopes };
    } catch {
      throw new HTTPException(401, { message: "Invalid or expired token", headers: { "WWW-Authenticate": "Bearer" } });
    }
  })
  // Threads, assistants and crons: stamp the owner on what a user creates, and show each user only
  // what they own (the filter is applied to every read, search, count, update, delete and run path).
  .on(["threads", "assistants", "crons"], ({ action, value, user }) => {
    if (["create", "update", "create_run"].includes(action)) {
      const target = value as { metadata?: Record<string, unknown> | null };
      target.metadata = { ...(target.metadata ?? {}), owner: user.identity };
    }
    return { owner: user.identity };
  })
  // The store: every namespace a user touches starts with their identity.
  .on("store", ({ value, user }) => {
    const target = value as { namespace?: string[] };
    if (target.namespace !== undefined && target.namespace[0] !== user.identity) {
      target.namespace = [user.identity, ...target.namespace];
    }
    return { namespace: { $contains: user.identity } };
  });
