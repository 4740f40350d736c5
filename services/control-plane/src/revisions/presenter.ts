import type { ControlPlane } from "@lgp/contracts";
import type { DeploymentSource, ResourceSpec, StoredRevisionConfig } from "../deployments/model";
import { presentRevisionConfig } from "../deployments/presenter";
import type { LogLevel, RevisionLogRow, RevisionRow, StoredStatusChange } from "./repository";
import { CREATION_STATUS, type RevisionStatus } from "./status";

type Schemas = ControlPlane.components["schemas"];

export function presentRevision(row: RevisionRow): Schemas["Revision"] {
  return {
    id: row.id,
    deployment_id: row.deploymentId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    status: row.status as RevisionStatus,
    status_message: row.statusMessage,
    status_history: presentStatusHistory(row),
    source: row.source as DeploymentSource,
    source_revision_config: presentRevisionConfig(
      row.sourceRevisionConfig as unknown as StoredRevisionConfig,
      row.repoCommitSha,
    ),
    resource_spec: (row.resourceSpec as unknown as ResourceSpec | null) ?? null,
    url: row.url,
  };
}

/**
 * The creation status at `created_at`, then the stored changes. A revision made before changes
 * were stored (none stored, yet no longer in its creation status) ends with its current status at
 * `updated_at`, the last time it changed.
 */
function presentStatusHistory(row: RevisionRow): Schemas["RevisionStatusChange"][] {
  const stored = (row.statusHistory as unknown as StoredStatusChange[] | null) ?? [];
  const changes = stored.map((change) => ({
    status: change.status,
    at: new Date(change.at).toISOString(),
    message: change.message ?? null,
  }));
  if (!changes.length && row.status !== CREATION_STATUS) {
    changes.push({ status: row.status as RevisionStatus, at: row.updatedAt.toISOString(), message: row.statusMessage });
  }
  return [{ status: CREATION_STATUS, at: row.createdAt.toISOString(), message: null }, ...changes];
}

export function presentLogLine(row: RevisionLogRow): Schemas["LogLine"] {
  return {
    id: String(row.id),
    message: row.message,
    level: row.level as LogLevel,
    timestamp: row.timestamp.toISOString(),
    ...(row.fields ? { fields: row.fields as Record<string, unknown> } : {}),
  };
}

const CLI_LEVELS: Record<LogLevel, Schemas["CliLogLine"]["level"]> = {
  debug: "DEBUG",
  info: "INFO",
  warn: "WARNING",
  error: "ERROR",
};

/** A page of log lines as the official CLI reads them (`/v1/projects/...`): levels in upper case. */
export function presentCliLogPage(page: Schemas["LogPage"]): Schemas["CliLogPage"] {
  return { ...page, logs: page.logs.map((line) => ({ ...line, level: CLI_LEVELS[line.level] })) };
}
