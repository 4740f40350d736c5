import type { Express } from "express";
import { controlPlaneApi } from "@lgp/contracts";
import { createServiceApp, type Logger, type ServiceMetrics } from "@lgp/server-kit";
import { apiKeyAuth } from "./auth/middleware";
import { createOAuthRouter } from "./oauth/mount";
import type { ControlPlaneConfig } from "./config";
import type { Db } from "./db";
import { deploymentRouters } from "./deployments/mount";
import type { ReconcileQueue } from "./queue";

/** Everything the HTTP layer needs; built once in main.ts (or by a test). */
export interface ControlPlaneDeps {
  config: ControlPlaneConfig;
  db: Db;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Where the API queues revision and deletion jobs for the reconciler. */
  reconcileQueue?: ReconcileQueue;
}

export function createControlPlaneApp(deps: ControlPlaneDeps): Express {
  const { app } = createServiceApp({
    service: "control-plane",
    logger: deps.logger,
    apiSpec: controlPlaneApi,
    validationStyle: "list",
    validateResponses: process.env.VALIDATE_RESPONSES === "true",
    metrics: deps.metrics,
    before: [apiKeyAuth(deps.db, controlPlaneApi)],
    ready: async () => {
      await deps.db.$queryRaw`SELECT 1`;
    },
    routes: (app) => {
      // Each capability mounts its router here (deployments, revisions, auth).
      app.use(createOAuthRouter(deps));
      for (const router of deploymentRouters(deps)) app.use(router);
    },
  });
  return app;
}
