import type { ControlPlane } from "@lgp/contracts";
import type { DeploymentSource, ResourceSpec, StoredRevisionConfig } from "../deployments/model";
import { presentRevisionConfig } from "../deployments/presenter";
import type { LogLevel, RevisionLogRow, RevisionRow } from "./repository";
import type { RevisionStatus } from "./status";

type Schemas = ControlPlane.components["schemas"];

export function presentRevision(row: RevisionRow): Schemas["Revision"] {
  return {
    id: row.id,
    deployment_id: row.deploymentId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    status: row.status as RevisionStatus,
    status_message: row.statusMessage,
    source: row.source as DeploymentSource,
    source_revision_config: presentRevisionConfig(
      row.sourceRevisionConfig as unknown as StoredRevisionConfig,
      row.repoCommitSha,
    ),
    resource_spec: (row.resourceSpec as unknown as ResourceSpec | null) ?? null,
    url: row.url,
  };
}

export function presentLogLine(row: RevisionLogRow): Schemas["LogLine"] {
  return { message: row.message, level: row.level as LogLevel, timestamp: row.timestamp.toISOString() };
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
