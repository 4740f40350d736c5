import type { RequestHandler } from "express";
import { ForbiddenError, UnauthorizedError } from "@lgp/server-kit";
import type { ApiKeyResolver } from "../tenants/key-cache";

declare module "express-serve-static-core" {
  interface Request {
    /** The tenant the X-Api-Key belongs to; every control-plane query is scoped by it. */
    tenantId: string;
  }
}

type Operation = { security?: unknown[] };

/**
 * Public operations are the ones the contract marks `security: []` (the OAuth callback a browser
 * follows); everything else needs an X-Api-Key. Paths outside the contract (/ok, /docs) are public.
 */
function publicOperations(apiSpec: Record<string, unknown>): { method: string; pattern: RegExp }[] {
  const paths = (apiSpec.paths ?? {}) as Record<string, Record<string, Operation>>;
  const result: { method: string; pattern: RegExp }[] = [];
  for (const [template, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (Array.isArray(operation?.security) && operation.security.length === 0) {
        const source = template.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\{[^/]+?\\\}/g, "[^/]+");
        result.push({ method: method.toUpperCase(), pattern: new RegExp(`^${source}/?$`) });
      }
    }
  }
  return result;
}

/** `keys`: the cached lookup (tenants/key-resolver.ts) in the service, or the database itself. */
export function apiKeyAuth(keys: ApiKeyResolver, apiSpec: Record<string, unknown>): RequestHandler {
  const open = publicOperations(apiSpec);
  const guarded = /^\/v\d+\//;
  return async (req, _res, next) => {
    try {
      if (!guarded.test(req.path) || open.some((op) => op.method === req.method && op.pattern.test(req.path))) {
        return next();
      }
      const key = req.header("x-api-key");
      if (!key) throw new UnauthorizedError("Missing X-Api-Key header");
      const resolved = await keys.resolve(key);
      if (!resolved) throw new UnauthorizedError("Invalid API key");
      const tenantHeader = req.header("x-tenant-id");
      if (tenantHeader && tenantHeader !== resolved.tenantId) {
        throw new ForbiddenError("X-Tenant-Id does not match the API key's tenant");
      }
      req.tenantId = resolved.tenantId;
      req.log = req.log.child({ tenant_id: resolved.tenantId });
      next();
    } catch (error) {
      next(error);
    }
  };
}
