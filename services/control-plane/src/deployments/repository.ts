import { ConflictError } from "@lgp/server-kit";
import type { Db } from "../db";
import { Prisma, type Deployment as DeploymentRow } from "../generated/prisma/client";
import { insertRevision, type NewRevision } from "../revisions/repository";
import type { Tx } from "../listeners/repository";
import type { PagePosition } from "./paging";

export type { DeploymentRow };

export interface DeploymentFilters {
  name?: string;
  nameContains?: string;
  status?: string;
  remoteReconciled?: boolean;
  tagValueIds?: string[];
  imageVersion?: string;
  deploymentType?: string;
  ids?: string[];
}

export interface NewDeployment {
  tenantId: string;
  name: string;
  source: string;
  sourceConfig: Prisma.InputJsonValue;
  sourceRevisionConfig: Prisma.InputJsonValue;
  secrets: Prisma.InputJsonValue;
  secretReferences: Prisma.InputJsonValue;
  deploymentType: string | null;
  remoteReconciled: boolean;
  imageVersion: string | null;
  tagValueIds: Prisma.InputJsonValue;
  /** The runtime's API key as `sha256:<hex>`, and its first characters. */
  runtimeKeyHash: string | null;
  runtimeKeyPrefix: string | null;
  /** The listener it is placed on (listeners/placement.ts), if any. */
  listenerId?: string | null;
}

export type DeploymentChanges = Partial<Omit<NewDeployment, "tenantId" | "name" | "source" | "listenerId">>;

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === "P2002";
}

/** Prisma's `contains` is a LIKE pattern: escape its wildcards so a name filter is literal text. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Deployment rows; every query is scoped by tenant. Knows nothing of HTTP. */
export class DeploymentRepository {
  constructor(private readonly db: Db) {}

  /**
   * A deployment and its first revision (none for a deployment that awaits its upload or image), in
   * one transaction; `check` runs first in it (the placement check, which holds its listener).
   */
  async create(
    data: NewDeployment,
    revision: Omit<NewRevision, "deploymentId"> | null,
    check?: (tx: Tx) => Promise<void>,
  ): Promise<DeploymentRow> {
    try {
      return await this.db.$transaction(async (tx) => {
        if (check) await check(tx);
        const created = await tx.deployment.create({ data });
        if (!revision) return created;
        const first = await insertRevision(tx, { ...revision, deploymentId: created.id });
        return tx.deployment.update({ where: { id: created.id }, data: { latestRevisionId: first.id } });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`A deployment named ${data.name} already exists`);
      throw error;
    }
  }

  find(tenantId: string, id: string): Promise<DeploymentRow | null> {
    return this.db.deployment.findFirst({ where: { id, tenantId } });
  }

  /**
   * A page, newest first (see paging.ts). Raw SQL: this is the hot path of the API, and the
   * (tenant_id, seq) index serves both forms of position. A plain offset first finds the `seq` at
   * that position with a narrow (index-only when unfiltered) scan, then reads the page by keyset.
   */
  async list(
    tenantId: string,
    filters: DeploymentFilters,
    position: PagePosition,
    limit: number,
  ): Promise<DeploymentRow[]> {
    const conditions: Prisma.Sql[] = [Prisma.sql`tenant_id = ${tenantId}::uuid`];
    if (filters.name !== undefined) conditions.push(Prisma.sql`name = ${filters.name}`);
    if (filters.nameContains) conditions.push(Prisma.sql`name ILIKE ${`%${likeLiteral(filters.nameContains)}%`}`);
    if (filters.status) conditions.push(Prisma.sql`status = ${filters.status}`);
    if (filters.remoteReconciled !== undefined)
      conditions.push(Prisma.sql`remote_reconciled = ${filters.remoteReconciled}`);
    if (filters.imageVersion !== undefined) conditions.push(Prisma.sql`image_version = ${filters.imageVersion}`);
    if (filters.deploymentType) conditions.push(Prisma.sql`deployment_type = ${filters.deploymentType}`);
    if (filters.ids) conditions.push(Prisma.sql`id = ANY(${filters.ids}::uuid[])`);
    if (filters.tagValueIds)
      conditions.push(Prisma.sql`jsonb_exists_any(tag_value_ids, ${filters.tagValueIds}::text[])`);
    if (position.beforeSeq !== undefined) conditions.push(Prisma.sql`seq < ${position.beforeSeq}`);
    if (position.skip > 0) {
      const [boundary] = await this.db.$queryRaw<{ seq: bigint }[]>`
        SELECT seq FROM deployments WHERE ${Prisma.join(conditions, " AND ")}
        ORDER BY seq DESC LIMIT 1 OFFSET ${position.skip}`;
      if (!boundary) return [];
      conditions.push(Prisma.sql`seq <= ${boundary.seq}`);
    }
    return this.db.$queryRaw<DeploymentRow[]>`
      SELECT id, seq, tenant_id AS "tenantId", name, source, status, source_config AS "sourceConfig",
        source_revision_config AS "sourceRevisionConfig", secrets, secret_references AS "secretReferences",
        deployment_type AS "deploymentType", remote_reconciled AS "remoteReconciled", image_version AS "imageVersion",
        tag_value_ids AS "tagValueIds", latest_revision_id AS "latestRevisionId", active_revision_id AS "activeRevisionId",
        runtime_key_hash AS "runtimeKeyHash", runtime_key_prefix AS "runtimeKeyPrefix", listener_id AS "listenerId", created_at AS "createdAt", updated_at AS "updatedAt"
      FROM deployments WHERE ${Prisma.join(conditions, " AND ")}
      ORDER BY seq DESC LIMIT ${limit}`;
  }

  /**
   * Applies a PATCH (and its new revision, if any) unless the row changed since it was read
   * (`expectedUpdatedAt`) or is being deleted: two concurrent PATCHes never lose one's secrets.
   */
  async update(
    current: DeploymentRow,
    changes: DeploymentChanges,
    revision: Omit<NewRevision, "deploymentId"> | null,
  ): Promise<DeploymentRow> {
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.deployment.updateMany({
        where: {
          id: current.id,
          tenantId: current.tenantId,
          updatedAt: current.updatedAt,
          status: { not: "AWAITING_DELETE" },
        },
        data: changes,
      });
      if (count === 0) {
        throw new ConflictError(`Deployment ${current.id} changed or is being deleted; read it again and retry`);
      }
      if (revision) {
        const created = await insertRevision(tx, { ...revision, deploymentId: current.id });
        await tx.deployment.update({ where: { id: current.id }, data: { latestRevisionId: created.id } });
      }
      return tx.deployment.findUniqueOrThrow({ where: { id: current.id } });
    });
  }

  /** Moves the deployment to AWAITING_DELETE; false when it does not exist for this tenant. */
  async markDeleting(tenantId: string, id: string): Promise<boolean> {
    const found = await this.db.deployment.findFirst({ where: { id, tenantId }, select: { status: true } });
    if (!found) return false;
    if (found.status !== "AWAITING_DELETE") {
      await this.db.deployment.updateMany({ where: { id, tenantId }, data: { status: "AWAITING_DELETE" } });
    }
    return true;
  }
}
