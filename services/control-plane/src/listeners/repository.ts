import { ConflictError } from "@lgp/server-kit";
import type { Db } from "../db";
import { Prisma, type Listener as ListenerRow } from "../generated/prisma/client";
import type { PagePosition } from "../deployments/paging";

export type { ListenerRow };

export interface NewListener {
  tenantId: string;
  computeType: string;
  computeId: string;
  k8sNamespaces: string[];
  version: string | null;
}

export type ListenerChanges = Partial<Pick<NewListener, "k8sNamespaces" | "version">>;

/** A deployment placed on a listener, and the namespace it is placed in. */
export interface Placed {
  name: string;
  namespace: string | null;
}

/** What reading a listener inside a transaction needs (a deployment's create runs in one). */
export type Tx = Pick<Db, "$queryRaw">;

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === "P2002";
}

/** A foreign key refused the change: here, a deployment placed on the listener appeared meanwhile. */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === "P2003" || /foreign key/i.test(String((error as Error)?.message));
}

/**
 * The tenant's listener, held (FOR SHARE) until the transaction ends: while a deployment is being
 * placed on it, its namespaces cannot change and it cannot be deleted (those take FOR UPDATE).
 */
export async function holdListener(
  tx: Tx,
  tenantId: string,
  id: string,
): Promise<{ id: string; k8sNamespaces: string[] } | null> {
  const [row] = await tx.$queryRaw<{ id: string; k8sNamespaces: string[] | null }[]>`
    SELECT id, k8s_namespaces AS "k8sNamespaces" FROM listeners
    WHERE id = ${id}::uuid AND tenant_id = ${tenantId}::uuid FOR SHARE`;
  return row ? { id: row.id, k8sNamespaces: row.k8sNamespaces ?? [] } : null;
}

/** Listener rows; every query is scoped by tenant. Knows nothing of HTTP. */
export class ListenerRepository {
  constructor(private readonly db: Db) {}

  async create(data: NewListener): Promise<ListenerRow> {
    try {
      return await this.db.listener.create({ data });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ConflictError(`A listener for compute_id ${data.computeId} already exists`);
      throw error;
    }
  }

  find(tenantId: string, id: string): Promise<ListenerRow | null> {
    return this.db.listener.findFirst({ where: { id, tenantId } });
  }

  /** A page, newest first, by the deployments' paging positions (deployments/paging.ts). */
  async list(tenantId: string, position: PagePosition, limit: number): Promise<ListenerRow[]> {
    const where: Prisma.ListenerWhereInput = { tenantId };
    if (position.beforeSeq !== undefined) where.seq = { lt: position.beforeSeq };
    return this.db.listener.findMany({ where, orderBy: { seq: "desc" }, skip: position.skip, take: limit });
  }

  /**
   * Applies what `decide` makes of the listener and the deployments placed on it, with the
   * listener held (FOR UPDATE) so no deployment is placed on it meanwhile. Null: no such listener.
   */
  async update(
    tenantId: string,
    id: string,
    decide: (current: ListenerRow, placed: Placed[]) => ListenerChanges,
  ): Promise<ListenerRow | null> {
    return this.db.$transaction(async (tx) => {
      if (!(await this.holdForChange(tx, tenantId, id))) return null;
      const current = await tx.listener.findUniqueOrThrow({ where: { id } });
      const changes = decide(current, await this.placed(tx, id));
      return tx.listener.update({ where: { id }, data: changes });
    });
  }

  /** Deletes the listener unless `allow` refuses (it throws) given the deployments placed on it. */
  async delete(tenantId: string, id: string, allow: (placed: Placed[]) => void): Promise<boolean> {
    try {
      return await this.db.$transaction(async (tx) => {
        if (!(await this.holdForChange(tx, tenantId, id))) return false;
        allow(await this.placed(tx, id));
        await tx.listener.delete({ where: { id } });
        return true;
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new ConflictError(`Listener ${id} has deployments placed on it`);
      throw error;
    }
  }

  /** Holds the tenant's listener (FOR UPDATE) until the transaction ends; false: there is none. */
  private async holdForChange(tx: Tx, tenantId: string, id: string): Promise<boolean> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM listeners WHERE id = ${id}::uuid AND tenant_id = ${tenantId}::uuid FOR UPDATE`;
    return rows.length > 0;
  }

  /** The deployments placed on the listener (those still being deleted too), by name. */
  private placed(tx: Tx, id: string): Promise<Placed[]> {
    return tx.$queryRaw<Placed[]>`
      SELECT name, source_config->'listener_config'->>'k8s_namespace' AS namespace
      FROM deployments WHERE listener_id = ${id}::uuid ORDER BY name`;
  }
}
