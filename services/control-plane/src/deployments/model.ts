import type { ControlPlane } from "@lgp/contracts";

type Schemas = ControlPlane.components["schemas"];

export type Deployment = Schemas["Deployment"];
export type DeploymentWithKey = Schemas["DeploymentWithKey"];
export type DeploymentCreate = Schemas["DeploymentCreate"];
export type DeploymentPatch = Schemas["DeploymentPatch"];
export type DeploymentList = Schemas["DeploymentList"];
export type DeploymentSource = Schemas["DeploymentSource"];
export type DeploymentStatus = Schemas["DeploymentStatus"];
export type SourceConfig = Schemas["SourceConfig"];
export type SourceRevisionConfig = Schemas["SourceRevisionConfig"];
export type ResourceSpec = Schemas["ResourceSpec"];
export type Secret = Schemas["Secret"];
export type SecretReference = Schemas["SecretReference"];
export type BulkDeleteResult = Schemas["BulkDeleteResult"];
export type ListDeploymentsQuery = NonNullable<ControlPlane.operations["listDeployments"]["parameters"]["query"]>;

/** What a secret's value reads as on output; sending it back in a PATCH keeps the stored value. */
export const SECRET_MASK = "********";

export const DOCKER_SOURCES: readonly DeploymentSource[] = ["external_docker", "internal_docker"];

/** Sources whose revisions are built from a repository or a source directory. */
export function isSourceBuild(source: DeploymentSource): boolean {
  return source === "github" || source === "internal_source";
}

/** A secret as stored: the value encrypted with the SecretCipher. */
export interface StoredSecret {
  name: string;
  value: string;
}

/**
 * The revision-level settings stored on the deployment (values of its latest revision). The
 * config path is stored once, as `langgraph_config_path`; output adds `graph_config_path`.
 */
export interface StoredRevisionConfig {
  repo_ref: string | null;
  langgraph_config_path: string | null;
  image_uri: string | null;
  source_tarball_path: string | null;
}
