// Idempotent creates in the control plane: server-kit's mechanism (packages/server-kit/src/idempotency)
// on the routes that make something (deployments, revisions, listeners, OAuth providers), with
// keys kept per tenant in the `idempotency_keys` table and answers encrypted at rest.
import { Router, type RequestHandler } from "express";
import { idempotentCreates, PostgresIdempotencyStorage, type IdempotencyStorage, type Logger } from "@lgp/server-kit";
import type { Db } from "../db";
import type { SecretCipher } from "../secrets/cipher";

/**
 * The table through Prisma. A kept answer is sealed with the secrets cipher: a new deployment's
 * answer carries its runtime API key, shown once and otherwise kept only as a hash.
 */
export function controlPlaneIdempotencyStorage(db: Db, cipher: SecretCipher): PostgresIdempotencyStorage {
  return new PostgresIdempotencyStorage(
    (text, values) => db.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values),
    {
      seal: (plain) => cipher.encrypt(plain),
      open: (sealed) => cipher.decrypt(sealed),
    },
  );
}

/**
 * The guard in front of the creates, mounted before their routers: it looks at nothing but the
 * header unless a request carries an `Idempotency-Key`. A PATCH of a deployment counts as a create
 * (it makes a revision when the source or configuration changes), as do a redeploy and a key
 * rotation (a new key and a revision that applies it).
 */
export function idempotentRoutes(options: {
  storage: IdempotencyStorage;
  ttlSeconds: number;
  waitMs: number;
  logger: Logger;
}): RequestHandler {
  const idempotent = idempotentCreates({
    storage: options.storage,
    ttlSeconds: options.ttlSeconds,
    waitMs: options.waitMs,
    logger: options.logger,
    // Set by the API key middleware on every /v2 route.
    scopeOf: (req) => req.tenantId,
  })();
  const router = Router();
  router.post("/v2/deployments", idempotent);
  router.patch("/v2/deployments/:deployment_id", idempotent);
  router.post("/v2/deployments/:deployment_id/revisions/:revision_id/redeploy", idempotent);
  // A rotation's answer is the only copy of the new key: a retry must not mint another.
  router.post("/v2/deployments/:deployment_id/api-key", idempotent);
  router.post("/v2/listeners", idempotent);
  router.post("/v2/auth/providers", idempotent);
  return (req, res, next) => (req.headers["idempotency-key"] === undefined ? next() : router(req, res, next));
}
