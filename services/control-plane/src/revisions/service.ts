import { ConflictError, NotFoundError, type Logger } from "@lgp/server-kit";
import type { ControlPlane } from "@lgp/contracts";
import type { Prisma } from "../generated/prisma/client";
import { decodeOffset, nextOffset } from "../deployments/paging";
import { presentDeployment } from "../deployments/presenter";
import type { DeploymentChanges, DeploymentRepository, DeploymentRow } from "../deployments/repository";
import type { Deployment, DeploymentWithKey, SourceConfig, StoredRevisionConfig } from "../deployments/model";
import { mintRuntimeKey } from "../deployments/runtime-key";
import { notFound } from "../deployments/service";
import type { ReconcileQueue } from "../queue";
import { presentLogLine, presentRevision } from "./presenter";
import type { LogFilter, RevisionRepository, RevisionRow } from "./repository";

type Schemas = ControlPlane.components["schemas"];

export interface RevisionListQuery {
  limit?: number;
  offset?: number;
  status?: string;
}

/** Revisions of a tenant's deployment: read, list, redeploy, and their logs. */
export class RevisionService {
  constructor(
    private readonly deployments: DeploymentRepository,
    private readonly revisions: RevisionRepository,
    private readonly queue: ReconcileQueue,
    private readonly logger: Logger,
  ) {}

  private async deployment(tenantId: string, deploymentId: string) {
    const row = await this.deployments.find(tenantId, deploymentId);
    if (!row) throw notFound(deploymentId);
    return row;
  }

  private async revision(tenantId: string, deploymentId: string, revisionId: string): Promise<RevisionRow> {
    await this.deployment(tenantId, deploymentId);
    return this.revisionOf(deploymentId, revisionId);
  }

  /** A revision of a deployment already found for the tenant. */
  private async revisionOf(deploymentId: string, revisionId: string): Promise<RevisionRow> {
    const row = await this.revisions.find(deploymentId, revisionId);
    if (!row) throw new NotFoundError(`Revision ${revisionId} not found`);
    return row;
  }

  private notDeleting(row: DeploymentRow): void {
    if (row.status === "AWAITING_DELETE") throw new ConflictError(`Deployment ${row.id} is being deleted`);
  }

  async get(tenantId: string, deploymentId: string, revisionId: string): Promise<Schemas["Revision"]> {
    return presentRevision(await this.revision(tenantId, deploymentId, revisionId));
  }

  async list(tenantId: string, deploymentId: string, query: RevisionListQuery): Promise<Schemas["RevisionList"]> {
    await this.deployment(tenantId, deploymentId);
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const statuses = query.status ? query.status.split(",") : undefined;
    const rows = await this.revisions.list(deploymentId, statuses, decodeOffset(offset), limit);
    return { resources: rows.map(presentRevision), offset: nextOffset(offset, rows) };
  }

  /**
   * Rollback: a new revision with that revision's configuration (source revision config, resource
   * spec, secrets) and, for source builds, the commit it was built from; it also becomes the
   * deployment's current configuration.
   */
  async redeploy(tenantId: string, deploymentId: string, revisionId: string): Promise<Deployment> {
    const row = await this.deployment(tenantId, deploymentId);
    const target = await this.revisionOf(deploymentId, revisionId);
    this.notDeleting(row);
    return presentDeployment(await this.redeployRow(row, target));
  }

  /**
   * A new API key for the deployment's runtime: the latest configuration is redeployed with it
   * (the old key serves until that revision is DEPLOYED). An external runtime, or a deployment
   * with no revision, only gets the new hash. The key is in the answer and nowhere else.
   */
  async rotateKey(tenantId: string, deploymentId: string): Promise<DeploymentWithKey> {
    const row = await this.deployment(tenantId, deploymentId);
    this.notDeleting(row);
    const runtimeKey = mintRuntimeKey();
    const changes = { runtimeKeyHash: runtimeKey.hash, runtimeKeyPrefix: runtimeKey.prefix };
    const updated =
      row.source === "external_docker" || !row.latestRevisionId
        ? await this.deployments.update(row, changes, null)
        : await this.redeployRow(row, await this.revisionOf(deploymentId, row.latestRevisionId), changes);
    this.logger.info(
      { deployment_id: deploymentId, key_prefix: runtimeKey.prefix },
      "rotated the agent runtime's API key",
    );
    return { ...presentDeployment(updated), api_key: runtimeKey.key };
  }

  /** A new revision of `row` copying `target`'s configuration (with `changes` to the deployment). */
  private async redeployRow(
    row: DeploymentRow,
    target: RevisionRow,
    changes: DeploymentChanges = {},
  ): Promise<DeploymentRow> {
    const revisionConfig = target.sourceRevisionConfig as unknown as StoredRevisionConfig;
    const sourceConfig = {
      ...(row.sourceConfig as unknown as SourceConfig),
      resource_spec: target.resourceSpec ?? null,
    };
    const updated = await this.deployments.update(
      row,
      {
        ...changes,
        sourceConfig: sourceConfig as Prisma.InputJsonValue,
        sourceRevisionConfig: { ...revisionConfig, repo_commit_sha: null } as unknown as Prisma.InputJsonValue,
        secrets: target.secrets as Prisma.InputJsonValue,
      },
      {
        source: row.source,
        sourceRevisionConfig: revisionConfig as unknown as Prisma.InputJsonValue,
        resourceSpec: (target.resourceSpec as Prisma.InputJsonValue | null) ?? null,
        secrets: target.secrets as Prisma.InputJsonValue,
        // A rollback builds the same code, even if the branch moved since.
        repoCommitSha: target.repoCommitSha,
      },
    );
    try {
      await this.queue.enqueue({ type: "revision", revisionId: updated.latestRevisionId! });
    } catch (error) {
      this.logger.error(
        { err: error },
        "could not queue the redeployed revision; the reconciler sweep will queue it again",
      );
    }
    return updated;
  }

  async logs(
    tenantId: string,
    deploymentId: string,
    revisionId: string,
    filter: LogFilter,
  ): Promise<Schemas["LogPage"]> {
    await this.revision(tenantId, deploymentId, revisionId);
    const { lines, next } = await this.revisions.logs({ revisionId }, filter);
    return { logs: lines.map(presentLogLine), next_offset: next };
  }

  /** The log of all a deployment's revisions together, in the order of their lines. */
  async deploymentLogs(tenantId: string, deploymentId: string, filter: LogFilter): Promise<Schemas["LogPage"]> {
    await this.deployment(tenantId, deploymentId);
    const { lines, next } = await this.revisions.logs({ deploymentId }, filter);
    return { logs: lines.map(presentLogLine), next_offset: next };
  }
}
