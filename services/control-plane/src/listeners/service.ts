import { ConflictError, invalid, NotFoundError } from "@lgp/server-kit";
import { decodeOffset, nextOffset } from "../deployments/paging";
import type { Listener, ListenerCreate, ListenerList, ListenerPatch, ListListenersQuery } from "./model";
import type { ListenerChanges, ListenerRepository, ListenerRow, Placed } from "./repository";

/**
 * What a listener means here. On the hosted platform a listener is an agent running in the
 * customer's Kubernetes cluster that pulls its deployments from the control plane. Here the control
 * plane's kubernetes deployer applies the workloads itself, in the cluster its kubeconfig reaches,
 * so a listener is the tenant's record of that cluster (`compute_id`, its name for it) and of the
 * namespaces in it that the tenant's deployments may be placed in. A deployment is placed with
 * `source_config.listener_id` + `listener_config.k8s_namespace` (see placement.ts), fixed at its
 * creation; a listener cannot lose a namespace, or be deleted, while deployments are placed there.
 */

export function presentListener(row: ListenerRow): Listener {
  return {
    id: row.id,
    compute_type: row.computeType as Listener["compute_type"],
    compute_id: row.computeId,
    compute_config: { k8s_namespaces: row.k8sNamespaces },
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Listener ${id} not found`);
}

/** Names a few of the deployments, enough to find them. */
function someNames(placed: Placed[]): string {
  const shown = placed.slice(0, 5).map((deployment) => deployment.name);
  return placed.length > shown.length
    ? `${shown.join(", ")} and ${placed.length - shown.length} more`
    : shown.join(", ");
}

/** The contract checks each name (a DNS-1123 label); a namespace named twice is refused here. */
function checkNamespaces(namespaces: string[]): string[] {
  const seen = new Set<string>();
  namespaces.forEach((namespace, index) => {
    if (seen.has(namespace)) {
      throw invalid(["body", "compute_config", "k8s_namespaces", index], `namespace ${namespace} is listed twice`);
    }
    seen.add(namespace);
  });
  return namespaces;
}

/** The listeners capability: the rules of create/read/list/update/delete. Knows nothing of HTTP. */
export class ListenerService {
  constructor(private readonly repository: ListenerRepository) {}

  async create(tenantId: string, body: ListenerCreate): Promise<Listener> {
    const row = await this.repository.create({
      tenantId,
      computeType: body.compute_type,
      computeId: body.compute_id,
      k8sNamespaces: checkNamespaces(body.compute_config.k8s_namespaces),
      version: body.version ?? null,
    });
    return presentListener(row);
  }

  async get(tenantId: string, id: string): Promise<Listener> {
    const row = await this.repository.find(tenantId, id);
    if (!row) throw notFound(id);
    return presentListener(row);
  }

  async list(tenantId: string, query: ListListenersQuery): Promise<ListenerList> {
    const offset = query.offset ?? 0;
    const rows = await this.repository.list(tenantId, decodeOffset(offset), query.limit ?? 20);
    return { resources: rows.map(presentListener), offset: nextOffset(offset, rows) };
  }

  async update(tenantId: string, id: string, body: ListenerPatch): Promise<Listener> {
    const row = await this.repository.update(tenantId, id, (current, placed) => {
      if (body.compute_type !== undefined && body.compute_type !== current.computeType) {
        throw invalid(["body", "compute_type"], "compute_type cannot be changed after creation");
      }
      if (body.compute_id !== undefined && body.compute_id !== current.computeId) {
        throw invalid(["body", "compute_id"], "compute_id cannot be changed after creation");
      }
      const changes: ListenerChanges = {};
      if (body.version !== undefined) changes.version = body.version;
      if (body.compute_config !== undefined) {
        const kept = new Set(checkNamespaces(body.compute_config.k8s_namespaces));
        const stranded = placed.filter((deployment) => deployment.namespace && !kept.has(deployment.namespace));
        if (stranded.length > 0) {
          const namespaces = [...new Set(stranded.map((deployment) => deployment.namespace))].join(", ");
          throw new ConflictError(
            `Listener ${id} still has deployments placed in namespace ${namespaces} (${someNames(stranded)}): ` +
              "keep the namespace, or delete those deployments first",
          );
        }
        changes.k8sNamespaces = [...kept];
      }
      return changes;
    });
    if (!row) throw notFound(id);
    return presentListener(row);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    const deleted = await this.repository.delete(tenantId, id, (placed) => {
      if (placed.length > 0) {
        throw new ConflictError(
          `Listener ${id} has ${placed.length} deployment(s) placed on it (${someNames(placed)}): ` +
            "delete them first (a deployment being deleted holds it until it is gone)",
        );
      }
    });
    if (!deleted) throw notFound(id);
  }
}
