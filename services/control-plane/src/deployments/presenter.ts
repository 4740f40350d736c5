import type { DeploymentRow } from "./repository";
import { normaliseSourceConfig } from "./rules";
import { maskSecrets } from "./secrets";
import type {
  Deployment,
  DeploymentSource,
  DeploymentStatus,
  SecretReference,
  SourceConfig,
  SourceRevisionConfig,
  StoredRevisionConfig,
  StoredSecret,
} from "./model";

/** The stored revision config, as the API returns it: the config path under both of its names. */
export function presentRevisionConfig(
  stored: StoredRevisionConfig,
  repoCommitSha: string | null,
): SourceRevisionConfig {
  return {
    repo_ref: stored.repo_ref ?? null,
    langgraph_config_path: stored.langgraph_config_path ?? null,
    graph_config_path: stored.langgraph_config_path ?? null,
    image_uri: stored.image_uri ?? null,
    source_tarball_path: stored.source_tarball_path ?? null,
    repo_commit_sha: repoCommitSha,
  };
}

export function presentDeployment(row: DeploymentRow): Deployment {
  const revisionConfig = row.sourceRevisionConfig as unknown as StoredRevisionConfig & {
    repo_commit_sha?: string | null;
  };
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    source: row.source as DeploymentSource,
    source_config: normaliseSourceConfig(row.sourceConfig as unknown as SourceConfig),
    source_revision_config: presentRevisionConfig(revisionConfig, revisionConfig.repo_commit_sha ?? null),
    secrets: maskSecrets(row.secrets as unknown as StoredSecret[]),
    secret_references: row.secretReferences as unknown as SecretReference[],
    image_version: row.imageVersion,
    tag_value_ids: row.tagValueIds as unknown as string[],
    status: row.status as DeploymentStatus,
    latest_revision_id: row.latestRevisionId,
    active_revision_id: row.activeRevisionId,
    api_key_prefix: row.runtimeKeyPrefix,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
