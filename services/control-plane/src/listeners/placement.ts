import { invalid } from "@lgp/server-kit";
import { holdListener, type Tx } from "./repository";

/**
 * Placing a deployment on a listener, at its creation: `source_config.listener_id` names a
 * listener of the deployment's tenant and `listener_config.k8s_namespace` one of its namespaces,
 * the namespace the kubernetes deployer runs it in (other deployers ignore the placement). Without
 * either the deployment is placed nowhere in particular (the kubernetes deployer's K8S_NAMESPACE).
 */

export interface Placement {
  listenerId: string;
  namespace: string | null;
}

interface PlacementConfig {
  listener_id?: string | null;
  listener_config?: { k8s_namespace?: string | null } | null;
}

const LISTENER_ID = ["body", "source_config", "listener_id"];
const NAMESPACE = ["body", "source_config", "listener_config", "k8s_namespace"];

/** The placement a create asks for (null: none); a namespace alone names no listener and is refused. */
export function requestedPlacement(config: PlacementConfig): Placement | null {
  const listenerId = config.listener_id || null;
  const namespace = config.listener_config?.k8s_namespace || null;
  if (!listenerId && namespace) {
    throw invalid(
      LISTENER_ID,
      `listener_config.k8s_namespace ${namespace} needs the listener_id of a listener serving it (GET /v2/listeners lists them)`,
    );
  }
  return listenerId ? { listenerId, namespace } : null;
}

/**
 * Checks the placement inside the create's transaction, holding the listener until it commits
 * (its namespaces cannot change under the new deployment). Another tenant's listener is not found.
 */
export async function checkPlacement(tx: Tx, tenantId: string, placement: Placement): Promise<void> {
  const listener = await holdListener(tx, tenantId, placement.listenerId);
  if (!listener) {
    throw invalid(
      LISTENER_ID,
      `Listener ${placement.listenerId} not found in this tenant (GET /v2/listeners lists its listeners)`,
    );
  }
  const choices = listener.k8sNamespaces.join(", ");
  if (!placement.namespace) {
    throw invalid(NAMESPACE, `listener_config.k8s_namespace is required with listener_id: one of ${choices}`);
  }
  if (!listener.k8sNamespaces.includes(placement.namespace)) {
    throw invalid(
      NAMESPACE,
      `Listener ${listener.id} does not serve namespace ${placement.namespace}: choose one of ${choices}`,
    );
  }
}
