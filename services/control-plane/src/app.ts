import type { Express } from "express";
import { controlPlaneApi } from "@lgp/contracts";
import { createServiceApp } from "@lgp/server-kit";
import { apiKeyAuth } from "./auth/middleware";
import { consoleRouter, DEFAULT_CONSOLE_DIR } from "./console/router";
import { localRuntimeRouter } from "./local-runtime";
import { createOAuthRouter } from "./oauth/mount";
import { deploymentRouters } from "./deployments/mount";
import { TenantRepository, TenantService, tenantsRouter } from "./tenants";
import { uncachedApiKeys } from "./tenants/key-resolver";
import { controlPlaneRateLimiter, controlPlaneRateLimits } from "./rate-limits";
import type { ControlPlaneDeps } from "./deps";
import { controlPlaneIdempotencyStorage, idempotentRoutes } from "./idempotency";
import { SecretCipher } from "./secrets/cipher";

export function createControlPlaneApp(deps: ControlPlaneDeps): Express {
  const { app } = createServiceApp({
    service: "control-plane",
    logger: deps.logger,
    apiSpec: controlPlaneApi,
    validationStyle: "list",
    validateResponses: process.env.VALIDATE_RESPONSES === "true",
    metrics: deps.metrics,
    trustProxy: deps.config.TRUST_PROXY,
    // The console's files are outside the contract: served before its validator.
    early: deps.config.CONSOLE_ENABLED
      ? [consoleRouter(deps.config.CONSOLE_DIR ?? DEFAULT_CONSOLE_DIR, deps.logger)]
      : [],
    before: [apiKeyAuth(deps.apiKeys ?? uncachedApiKeys(deps.db), controlPlaneApi)],
    rateLimit: controlPlaneRateLimits(deps.rateLimiter ?? controlPlaneRateLimiter(deps.config, deps.logger)),
    ready: async () => {
      await deps.db.$queryRaw`SELECT 1`;
    },
    routes: (app) => {
      // Creates that carry an Idempotency-Key are done once per key and tenant (idempotency/).
      app.use(
        idempotentRoutes({
          storage: controlPlaneIdempotencyStorage(deps.db, SecretCipher.fromConfig(deps.config)),
          ttlSeconds: deps.config.IDEMPOTENCY_KEY_TTL_SECONDS,
          waitMs: deps.config.IDEMPOTENCY_WAIT_MS,
          logger: deps.logger,
        }),
      );
      // Each capability mounts its router here (deployments, revisions, auth).
      app.use(tenantsRouter(new TenantService(new TenantRepository(deps.db))));
      app.use(createOAuthRouter(deps));
      for (const router of deploymentRouters(deps)) app.use(router);
      app.use(localRuntimeRouter(deps.localRuntime ?? (() => undefined)));
    },
  });
  return app;
}
