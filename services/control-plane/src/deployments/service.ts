import { invalid, NotFoundError, ConflictError, type Logger } from "@lgp/server-kit";
import type { Prisma } from "../generated/prisma/client";
import type { ReconcileJob, ReconcileQueue } from "../queue";
import type { SecretCipher } from "../secrets/cipher";
import type {
  BulkDeleteResult,
  Deployment,
  DeploymentCreate,
  DeploymentList,
  DeploymentPatch,
  DeploymentSource,
  DeploymentWithKey,
  ListDeploymentsQuery,
  SourceConfig,
  StoredRevisionConfig,
  StoredSecret,
} from "./model";
import { decodeOffset, nextOffset } from "./paging";
import { presentDeployment } from "./presenter";
import { DeploymentRepository, type DeploymentChanges, type DeploymentRow } from "./repository";
import {
  awaitsFirstRevision,
  checkSourceRules,
  mergeRevisionConfig,
  mergeSourceConfigPatch,
  normaliseSourceConfig,
  patchCreatesRevision,
} from "./rules";
import { mintRuntimeKey, runtimeKeyOf } from "./runtime-key";
import { encryptSecrets, mergeSecrets } from "./secrets";
import { UploadStore } from "../uploads/store";
import { checkPlacement, requestedPlacement } from "../listeners/placement";

const MAX_BULK_DELETE = 100;

function json(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

export function notFound(id: string): NotFoundError {
  return new NotFoundError(`Deployment ${id} not found`);
}

export function splitIds(value: string | undefined): string[] | undefined {
  return value ? [...new Set(value.split(",").map((id) => id.toLowerCase()))] : undefined;
}

/** The deployments capability: the rules of create/read/list/update/delete. Knows nothing of HTTP. */
export class DeploymentService {
  constructor(
    private readonly repository: DeploymentRepository,
    private readonly cipher: SecretCipher,
    private readonly queue: ReconcileQueue,
    private readonly logger: Logger,
    /** Source uploads: a `source_tarball_path` naming one must be an arrived upload of the deployment. */
    private readonly uploads?: UploadStore,
  ) {}

  /** 422 unless an upload's object path names an upload of `deploymentId` that has arrived. */
  private async checkUpload(revision: StoredRevisionConfig, deploymentId: string | undefined): Promise<void> {
    const value = revision.source_tarball_path;
    if (!value || !UploadStore.isObjectPath(value)) return;
    if (!deploymentId || !(await this.uploads?.has(value, deploymentId))) {
      throw invalid(
        ["body", "source_revision_config", "source_tarball_path"],
        `${value} is not an upload of this deployment: ask POST /v2/deployments/{id}/upload-url for one and PUT the tarball there`,
      );
    }
  }

  /**
   * Creates the deployment and its first revision (none yet for a deployment that awaits its upload
   * or image: see awaitsFirstRevision); the answer carries its runtime's key, once. `runtimeKey`:
   * a runtime that already has its key (npm start's own), whose hash is kept instead of a new one's.
   */
  async create(tenantId: string, body: DeploymentCreate, runtimeKeyGiven?: string): Promise<DeploymentWithKey> {
    const sourceConfig = normaliseSourceConfig(body.source_config);
    const revisionConfig = mergeRevisionConfig(null, body.source_revision_config);
    const pending = awaitsFirstRevision(body.source, sourceConfig, revisionConfig);
    checkSourceRules(body.source, sourceConfig, revisionConfig, null, pending);
    // An upload belongs to a deployment that exists already.
    await this.checkUpload(revisionConfig, undefined);
    const placement = requestedPlacement(sourceConfig);
    const secrets = encryptSecrets(this.cipher, body.secrets ?? []);
    const runtimeKey = runtimeKeyGiven ? runtimeKeyOf(runtimeKeyGiven) : mintRuntimeKey();
    const row = await this.repository.create(
      {
        tenantId,
        name: body.name,
        source: body.source,
        sourceConfig: json(sourceConfig),
        sourceRevisionConfig: json(revisionConfig),
        secrets: json(secrets),
        secretReferences: json(body.secret_references ?? []),
        deploymentType: sourceConfig.deployment_type ?? null,
        remoteReconciled: Boolean(sourceConfig.listener_id),
        imageVersion: body.image_version ?? null,
        tagValueIds: json(body.tag_value_ids ?? []),
        runtimeKeyHash: runtimeKey.hash,
        runtimeKeyPrefix: runtimeKey.prefix,
        listenerId: placement?.listenerId ?? null,
      },
      pending
        ? null
        : {
            source: body.source,
            sourceRevisionConfig: json(revisionConfig),
            resourceSpec: sourceConfig.resource_spec ? json(sourceConfig.resource_spec) : null,
            secrets: json(secrets),
          },
      placement ? (tx) => checkPlacement(tx, tenantId, placement) : undefined,
    );
    if (row.latestRevisionId) await this.enqueue({ type: "revision", revisionId: row.latestRevisionId });
    return { ...presentDeployment(row), api_key: runtimeKey.key };
  }

  async get(tenantId: string, id: string): Promise<Deployment> {
    return presentDeployment(await this.find(tenantId, id));
  }

  async find(tenantId: string, id: string): Promise<DeploymentRow> {
    const row = await this.repository.find(tenantId, id);
    if (!row) throw notFound(id);
    return row;
  }

  async list(tenantId: string, query: ListDeploymentsQuery): Promise<DeploymentList> {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const rows = await this.repository.list(
      tenantId,
      {
        name: query.name,
        nameContains: query.name_contains,
        status: query.status,
        remoteReconciled: query.remote_reconciled,
        tagValueIds: splitIds(query.tag_value_ids),
        imageVersion: query.image_version,
        deploymentType: query.deployment_type,
        ids: splitIds(query.deployment_ids),
      },
      decodeOffset(offset),
      limit,
    );
    return { resources: rows.map(presentDeployment), offset: nextOffset(offset, rows) };
  }

  async update(tenantId: string, id: string, body: DeploymentPatch): Promise<Deployment> {
    const row = await this.find(tenantId, id);
    if (row.status === "AWAITING_DELETE") throw new ConflictError(`Deployment ${id} is being deleted`);
    const source = row.source as DeploymentSource;
    const currentConfig = normaliseSourceConfig(row.sourceConfig as unknown as SourceConfig);
    const sourceConfig = mergeSourceConfigPatch(currentConfig, body.source_config, row.name, source, body);
    const currentRevision = row.sourceRevisionConfig as unknown as StoredRevisionConfig & {
      repo_commit_sha?: string | null;
    };
    const revisionConfig = body.source_revision_config
      ? mergeRevisionConfig(currentRevision, body.source_revision_config)
      : currentRevision;
    // The official CLI names the source of the revision it sends; it must be the deployment's.
    if (body.revision_source !== undefined && body.revision_source !== source) {
      throw invalid(
        ["body", "revision_source"],
        `revision_source ${body.revision_source} does not match the deployment's source ${source}`,
      );
    }
    // A deployment still without a revision gets one only once its upload or image is named.
    const pending = !row.latestRevisionId && awaitsFirstRevision(source, sourceConfig, revisionConfig);
    checkSourceRules(
      source,
      sourceConfig,
      revisionConfig,
      source === "external_docker" ? null : (currentConfig.custom_url ?? null),
      pending,
    );
    if (body.source_revision_config?.source_tarball_path !== undefined) await this.checkUpload(revisionConfig, row.id);
    const stored = row.secrets as unknown as StoredSecret[];
    const secrets = body.secrets !== undefined ? mergeSecrets(this.cipher, stored, body.secrets) : stored;
    const createsRevision = patchCreatesRevision(body) && !pending;

    const changes: DeploymentChanges = {
      sourceConfig: json(sourceConfig),
      // A new revision has not been built yet: its commit is unknown until the build records it.
      sourceRevisionConfig: json(createsRevision ? { ...revisionConfig, repo_commit_sha: null } : revisionConfig),
      secrets: json(secrets),
    };
    if (body.secret_references !== undefined) changes.secretReferences = json(body.secret_references);
    if (body.image_version !== undefined) changes.imageVersion = body.image_version;
    if (body.tag_value_ids !== undefined) changes.tagValueIds = json(body.tag_value_ids);
    const updated = await this.repository.update(
      row,
      changes,
      createsRevision
        ? {
            source,
            sourceRevisionConfig: json({ ...revisionConfig, repo_commit_sha: undefined }),
            resourceSpec: sourceConfig.resource_spec ? json(sourceConfig.resource_spec) : null,
            secrets: json(secrets),
          }
        : null,
    );
    if (createsRevision) await this.enqueue({ type: "revision", revisionId: updated.latestRevisionId! });
    return presentDeployment(updated);
  }

  /** Marks the deployment AWAITING_DELETE and queues its teardown; it is gone once that is done. */
  async delete(tenantId: string, id: string): Promise<void> {
    if (!(await this.repository.markDeleting(tenantId, id))) throw notFound(id);
    await this.enqueue({ type: "delete", deploymentId: id });
  }

  async deleteMany(tenantId: string, idList: string): Promise<{ complete: boolean; body: BulkDeleteResult }> {
    const ids = splitIds(idList) ?? [];
    if (ids.length > MAX_BULK_DELETE) {
      throw invalid(["query", "deployment_ids"], `at most ${MAX_BULK_DELETE} deployment ids per request`);
    }
    const results: BulkDeleteResult["results"] = [];
    for (const id of ids) {
      if (await this.repository.markDeleting(tenantId, id)) {
        await this.enqueue({ type: "delete", deploymentId: id });
        results.push({ deployment_id: id, status: 204, detail: null });
      } else {
        results.push({ deployment_id: id, status: 404, detail: `Deployment ${id} not found` });
      }
    }
    return { complete: results.every((result) => result.status === 204), body: { results } };
  }

  /**
   * The row is committed before the job is queued; if queueing fails the work is not lost: the
   * reconciler queues unfinished revisions and deletions again (at start and in its sweep).
   */
  private async enqueue(job: ReconcileJob): Promise<void> {
    try {
      await this.queue.enqueue(job);
    } catch (error) {
      this.logger.error({ err: error, job }, "could not queue reconcile job; the reconciler sweep will queue it again");
    }
  }
}
