import type { Router } from "express";
import type { ControlPlaneDeps } from "../deps";
import { InProcessQueue } from "../queue";
import { RevisionRepository, RevisionService, revisionsRouter } from "../revisions";
import { SecretCipher } from "../secrets/cipher";
import { DeploymentRepository } from "./repository";
import { deploymentsRouter } from "./routes";
import { DeploymentService } from "./service";

/**
 * The routers of deployments, revisions and logs. Without a reconcile queue in the deps (an app
 * built only to test other capabilities) jobs wait in an unstarted in-process queue and are
 * picked up from the database when a reconciler starts.
 */
export function deploymentRouters(deps: ControlPlaneDeps): Router[] {
  const cipher = SecretCipher.fromEncodedKey(deps.config.SECRETS_ENCRYPTION_KEY);
  const queue = deps.reconcileQueue ?? new InProcessQueue(deps.logger);
  const deployments = new DeploymentRepository(deps.db);
  const revisions = new RevisionRepository(deps.db);
  return [
    deploymentsRouter(new DeploymentService(deployments, cipher, queue, deps.logger)),
    revisionsRouter(new RevisionService(deployments, revisions, queue, deps.logger)),
  ];
}
