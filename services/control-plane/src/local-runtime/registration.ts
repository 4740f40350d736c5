// The agent runtime `npm start` runs beside the control plane, known to the control plane as a
// deployment of the bootstrap tenant: the console lists it and opens its playground like any other.
import type { Logger } from "@lgp/server-kit";
import { runtimeKeyHash } from "@lgp/server-kit";
import type { DeploymentRepository } from "../deployments/repository";
import type { DeploymentService } from "../deployments/service";
import { runtimeKeyOf } from "../deployments/runtime-key";

/** The deployment's name: found by it at each start, so a restart registers nothing twice. */
export const LOCAL_DEPLOYMENT_NAME = "local";

/** What the revision names as its image: the runtime npm start runs from this checkout. */
const LOCAL_IMAGE = "langgraph-platform/agent-runtime:local";

export interface LocalRuntime {
  url: string;
  apiKey: string;
}

/** What the control plane knows of its local runtime once registered (held in memory, never stored). */
export interface LocalRuntimeEntry extends LocalRuntime {
  tenantId: string;
  deploymentId: string;
}

/**
 * Finds or creates deployment "local" (source external_docker at the runtime's URL) in the tenant.
 * A changed URL makes a new revision; a changed key replaces the kept hash. The control plane
 * stores the key's hash only, as for every deployment.
 */
export async function registerLocalRuntime(
  service: DeploymentService,
  repository: DeploymentRepository,
  tenantId: string,
  runtime: LocalRuntime,
  logger: Logger,
): Promise<LocalRuntimeEntry> {
  const { resources } = await service.list(tenantId, { name: LOCAL_DEPLOYMENT_NAME, limit: 1 });
  const existing = resources[0];
  let deploymentId: string;
  if (!existing) {
    const created = await service.create(
      tenantId,
      {
        name: LOCAL_DEPLOYMENT_NAME,
        source: "external_docker",
        source_config: { custom_url: runtime.url },
        // The API asks external_docker for an image; the local deployer only checks custom_url's /ok.
        source_revision_config: { image_uri: LOCAL_IMAGE },
      },
      runtime.apiKey,
    );
    deploymentId = created.id;
    logger.info({ deployment_id: deploymentId, url: runtime.url }, "registered the local agent runtime");
  } else {
    deploymentId = existing.id;
    if (existing.source !== "external_docker") {
      logger.warn(
        { deployment_id: deploymentId },
        `deployment "${LOCAL_DEPLOYMENT_NAME}" is not the local runtime's (source ${existing.source}): left as it is`,
      );
      return { ...runtime, tenantId, deploymentId };
    }
    if (existing.source_config.custom_url !== runtime.url) {
      // A revision of its own, so the deployer checks the new URL.
      await service.update(tenantId, deploymentId, {
        source_config: { custom_url: runtime.url },
        source_revision_config: { image_uri: LOCAL_IMAGE },
      });
      logger.info({ deployment_id: deploymentId, url: runtime.url }, "the local agent runtime moved: new revision");
    }
    const row = await service.find(tenantId, deploymentId);
    if (row.runtimeKeyHash !== runtimeKeyHash(runtime.apiKey)) {
      const key = runtimeKeyOf(runtime.apiKey);
      await repository.update(row, { runtimeKeyHash: key.hash, runtimeKeyPrefix: key.prefix }, null);
    }
  }
  return { ...runtime, tenantId, deploymentId };
}
