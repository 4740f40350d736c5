import type { Router } from "express";
import type { ControlPlaneDeps } from "../deps";
import { ListenerRepository, ListenerService, listenersRouter } from "../listeners";
import { InProcessQueue } from "../queue";
import { RegistryService, registryRouter, registrySettingsOf } from "../registry";
import { RevisionRepository, RevisionService, revisionsRouter } from "../revisions";
import { SecretCipher } from "../secrets/cipher";
import { UploadService, uploadSigningKeys, uploadStoreOf, uploadsRouter } from "../uploads";
import { DeploymentRepository } from "./repository";
import { deploymentsRouter } from "./routes";
import { customUrlCheck } from "./url-check";
import { DeploymentService } from "./service";

/**
 * The routers of deployments, revisions and logs, source uploads, the registry's tokens and the
 * listeners deployments are placed on. Without a reconcile queue in the deps (an app built only to test other
 * capabilities) jobs wait in an unstarted in-process queue and are picked up from the database
 * when a reconciler starts.
 */
export function deploymentRouters(deps: ControlPlaneDeps): Router[] {
  const cipher = SecretCipher.fromConfig(deps.config);
  const queue = deps.reconcileQueue ?? new InProcessQueue(deps.logger);
  const deployments = new DeploymentRepository(deps.db);
  const revisions = new RevisionRepository(deps.db);
  const uploads = uploadStoreOf(deps.config);
  return [
    customUrlCheck(deps.config.OUTBOUND_ALLOW),
    deploymentsRouter(new DeploymentService(deployments, cipher, queue, deps.logger, uploads)),
    revisionsRouter(new RevisionService(deployments, revisions, queue, deps.logger)),
    uploadsRouter(
      new UploadService(deployments, uploads, {
        publicUrl: deps.config.PUBLIC_URL,
        keys: uploadSigningKeys(deps.config),
        ttlMs: deps.config.UPLOAD_URL_TTL_SECONDS * 1000,
      }),
    ),
    registryRouter(new RegistryService(deployments, registrySettingsOf(deps.config), deps.logger)),
    listenersRouter(new ListenerService(new ListenerRepository(deps.db))),
  ];
}
