import { ConflictError } from "@lgp/server-kit";
import type { Db } from "../db";
import type { Deployment as DeploymentRow, Prisma } from "../generated/prisma/client";
import { insertRevision, type NewRevision } from "../revisions/repository";
import type { PagePosition } from "./paging";

export type { DeploymentRow };

export interface DeploymentFilters {
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
}

export type DeploymentChanges = Partial<Omit<NewDeployment, "tenantId" | "name" | "source">>;

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

  /** Creates the deployment and its first revision in one transaction. */
  async create(data: NewDeployment, revision: Omit<NewRevision, "deploymentId">): Promise<DeploymentRow> {
    try {
      return await this.db.$transaction(async (tx) => {
        const created = await tx.deployment.create({ data });
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

  /** A page, newest first (see paging.ts). */
  list(tenantId: string, filters: DeploymentFilters, position: PagePosition, limit: number): Promise<DeploymentRow[]> {
    const where: Prisma.DeploymentWhereInput = { tenantId };
    if (position.beforeSeq !== undefined) where.seq = { lt: position.beforeSeq };
    if (filters.nameContains) where.name = { contains: likeLiteral(filters.nameContains), mode: "insensitive" };
    if (filters.status) where.status = filters.status;
    if (filters.remoteReconciled !== undefined) where.remoteReconciled = filters.remoteReconciled;
    if (filters.imageVersion !== undefined) where.imageVersion = filters.imageVersion;
    if (filters.deploymentType) where.deploymentType = filters.deploymentType;
    if (filters.ids) where.id = { in: filters.ids };
    if (filters.tagValueIds) where.OR = filters.tagValueIds.map((tag) => ({ tagValueIds: { array_contains: [tag] } }));
    return this.db.deployment.findMany({ where, orderBy: { seq: "desc" }, skip: position.skip, take: limit });
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
