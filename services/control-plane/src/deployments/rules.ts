import { invalid } from "@lgp/server-kit";
import {
  isSourceBuild,
  type DeploymentSource,
  type ResourceSpec,
  type SourceConfig,
  type SourceRevisionConfig,
  type StoredRevisionConfig,
} from "./model";

/**
 * Field rules the contract's schema cannot express (they depend on `source` or on the stored
 * deployment). Each failure is a 422 whose message names the field. Pure functions: no I/O.
 */

const SOURCE_CONFIG_KEYS = [
  "integration_id",
  "repo_url",
  "deployment_type",
  "build_on_push",
  "custom_url",
  "resource_spec",
  "listener_id",
  "listener_config",
  "install_command",
  "build_command",
] as const;

/** Source config fields that cannot change after creation (listener_config.k8s_namespace too). */
const IMMUTABLE_SOURCE_CONFIG_KEYS = ["integration_id", "repo_url", "deployment_type", "listener_id"] as const;

type Spec = NonNullable<ResourceSpec>;

/** Request/limit pairs (a limit below its request is refused) and min/max scale pairs. */
const LIMIT_PAIRS: [keyof Spec, keyof Spec][] = [
  ["cpu", "cpu_limit"],
  ["queue_cpu", "queue_cpu_limit"],
  ["redis_cpu", "redis_cpu_limit"],
  ["orchestrator_cpu", "orchestrator_cpu_limit"],
  ["executor_cpu", "executor_cpu_limit"],
  ["db_cpu", "db_cpu_limit"],
  ["memory_mb", "memory_limit_mb"],
  ["queue_memory_mb", "queue_memory_limit_mb"],
  ["redis_memory_mb", "redis_memory_limit_mb"],
  ["orchestrator_memory_mb", "orchestrator_memory_limit_mb"],
  ["executor_memory_mb", "executor_memory_limit_mb"],
  ["db_memory_mb", "db_memory_limit_mb"],
  ["min_scale", "max_scale"],
  ["queue_min_scale", "queue_max_scale"],
  ["orchestrator_min_scale", "orchestrator_max_scale"],
];

/** Fields of the PATCH body whose presence creates a new revision (reference: PATCH). */
export const REVISION_FIELDS_OF_SOURCE_REVISION_CONFIG = [
  "repo_ref",
  "langgraph_config_path",
  "graph_config_path",
  "image_uri",
  "source_tarball_path",
] as const;

/** The source config as stored: every known key present (null when unset). */
export function normaliseSourceConfig(input: SourceConfig): SourceConfig {
  const result: Record<string, unknown> = {};
  for (const key of SOURCE_CONFIG_KEYS) result[key] = (input as Record<string, unknown>)[key] ?? null;
  return result as SourceConfig;
}

/** Reads the config path from either of its two names; both given must agree. */
function configPathOf(input: SourceRevisionConfig): string | null | undefined {
  const { langgraph_config_path: a, graph_config_path: b } = input;
  if (a !== undefined && a !== null && b !== undefined && b !== null && a !== b) {
    throw invalid(
      ["body", "source_revision_config", "graph_config_path"],
      "graph_config_path and langgraph_config_path name the same value but differ",
    );
  }
  if (a !== undefined && a !== null) return a;
  if (b !== undefined && b !== null) return b;
  if (a === null || b === null) return null;
  return undefined;
}

/** Overlays the given source revision fields on the current ones (`repo_commit_sha` is ignored). */
export function mergeRevisionConfig(
  current: StoredRevisionConfig | null,
  input: SourceRevisionConfig,
): StoredRevisionConfig {
  const base: StoredRevisionConfig = current ?? {
    repo_ref: null,
    langgraph_config_path: null,
    image_uri: null,
    source_tarball_path: null,
  };
  const path = configPathOf(input);
  return {
    repo_ref: input.repo_ref !== undefined ? input.repo_ref : base.repo_ref,
    langgraph_config_path: path !== undefined ? path : base.langgraph_config_path,
    image_uri: input.image_uri !== undefined ? input.image_uri : base.image_uri,
    source_tarball_path: input.source_tarball_path !== undefined ? input.source_tarball_path : base.source_tarball_path,
  };
}

/**
 * The per-source rules, checked on the merged result of a create or a PATCH. `reportedUrl` is the
 * URL the deployer reported (stored as custom_url for non-external sources): sending it back is
 * not an attempt to set it.
 */
/**
 * A deployment the official CLI creates before it has anything to run: `internal_source` with
 * neither a repository nor an uploaded tarball yet, `internal_docker` without an image yet. It has
 * no revision until the PATCH that names the upload or the pushed image.
 */
export function awaitsFirstRevision(
  source: DeploymentSource,
  config: SourceConfig,
  revision: StoredRevisionConfig,
): boolean {
  if (source === "internal_source") return !config.repo_url && !revision.source_tarball_path;
  if (source === "internal_docker") return !revision.image_uri;
  return false;
}

export function checkSourceRules(
  source: DeploymentSource,
  config: SourceConfig,
  revision: StoredRevisionConfig,
  reportedUrl: string | null = null,
  /** The deployment awaits its first revision: what that revision will bring may be missing. */
  pending = false,
): void {
  if (isSourceBuild(source)) {
    if (!revision.langgraph_config_path && !pending) {
      throw invalid(
        ["body", "source_revision_config", "langgraph_config_path"],
        `langgraph_config_path (graph_config_path) is required for source ${source}`,
      );
    }
    if (source === "github" && !config.repo_url) {
      throw invalid(["body", "source_config", "repo_url"], "repo_url is required for source github");
    }
    if (source === "internal_source" && !config.repo_url && !revision.source_tarball_path && !pending) {
      throw invalid(
        ["body", "source_config", "repo_url"],
        "repo_url or source_revision_config.source_tarball_path is required for source internal_source",
      );
    }
  } else {
    if (revision.langgraph_config_path) {
      throw invalid(
        ["body", "source_revision_config", "langgraph_config_path"],
        `langgraph_config_path (graph_config_path) must be null for source ${source}`,
      );
    }
    if (!revision.image_uri && !pending) {
      throw invalid(["body", "source_revision_config", "image_uri"], `image_uri is required for source ${source}`);
    }
  }
  if (config.custom_url) {
    if (source !== "external_docker" && config.custom_url !== reportedUrl) {
      throw invalid(["body", "source_config", "custom_url"], "custom_url may only be set for source external_docker");
    }
    if (!/^https?:\/\/.+/.test(config.custom_url) || !URL.canParse(config.custom_url)) {
      throw invalid(["body", "source_config", "custom_url"], "custom_url must be an http(s) URL");
    }
  }
  if (config.build_on_push && revision.repo_ref?.startsWith("refs/tags/")) {
    throw invalid(
      ["body", "source_config", "build_on_push"],
      "build_on_push cannot be true when repo_ref is a tag (refs/tags/...)",
    );
  }
  if (config.resource_spec) checkResourceSpec(config.resource_spec);
}

function checkResourceSpec(spec: Spec): void {
  for (const [low, high] of LIMIT_PAIRS) {
    const a = spec[low] as number | null | undefined;
    const b = spec[high] as number | null | undefined;
    if (typeof a === "number" && typeof b === "number" && b < a) {
      throw invalid(["body", "source_config", "resource_spec", high], `${high} must not be less than ${low}`);
    }
  }
}

/**
 * Refuses a PATCH that changes an immutable field; sending the current value back is fine.
 * Returns the merged source config.
 */
export function mergeSourceConfigPatch(
  current: SourceConfig,
  patch: SourceConfig | undefined,
  currentName: string,
  currentSource: DeploymentSource,
  body: { name?: string; source?: string },
): SourceConfig {
  if (body.name !== undefined && body.name !== currentName) {
    throw invalid(["body", "name"], "name cannot be changed after creation");
  }
  if (body.source !== undefined && body.source !== currentSource) {
    throw invalid(["body", "source"], "source cannot be changed after creation");
  }
  if (!patch) return current;
  for (const key of IMMUTABLE_SOURCE_CONFIG_KEYS) {
    if (patch[key] !== undefined && (patch[key] ?? null) !== (current[key] ?? null)) {
      throw invalid(["body", "source_config", key], `${key} cannot be changed after creation`);
    }
  }
  if (patch.listener_config !== undefined) {
    const next = patch.listener_config?.k8s_namespace ?? null;
    const now = current.listener_config?.k8s_namespace ?? null;
    if (next !== now) {
      throw invalid(
        ["body", "source_config", "listener_config", "k8s_namespace"],
        "listener_config.k8s_namespace cannot be changed after creation",
      );
    }
  }
  const merged: Record<string, unknown> = { ...current };
  for (const key of ["build_on_push", "install_command", "build_command", "custom_url", "resource_spec"] as const) {
    if (patch[key] === undefined) continue;
    // For sources other than external_docker, custom_url is the URL the deployer reported:
    // sending it back (or null) changes nothing; any other value is refused.
    if (key === "custom_url" && currentSource !== "external_docker") {
      if (patch.custom_url === null || patch.custom_url === current.custom_url) continue;
      throw invalid(["body", "source_config", "custom_url"], "custom_url may only be set for source external_docker");
    }
    merged[key] = patch[key];
  }
  return merged as SourceConfig;
}

/** Does this PATCH body create a new revision? (reference: PATCH /v2/deployments/{id}) */
export function patchCreatesRevision(body: {
  source_config?: SourceConfig;
  source_revision_config?: SourceRevisionConfig;
  secrets?: unknown;
}): boolean {
  if (body.secrets !== undefined) return true;
  if (body.source_config?.resource_spec !== undefined) return true;
  const revision = body.source_revision_config;
  return !!revision && REVISION_FIELDS_OF_SOURCE_REVISION_CONFIG.some((key) => revision[key] !== undefined);
}
