// What the deployer is handed for a revision: the deployment with the revision's own resource spec
// and secrets (decrypted, in memory only), and the revision's source revision config.
import type { DeploymentTarget, RevisionTarget } from "../deployers/deployer";
import type { DeploymentSource, StoredSecret } from "../deployments/model";
import { decryptSecrets } from "../deployments/secrets";
import type { Deployment as DeploymentRow } from "../generated/prisma/client";
import type { RevisionRow } from "../revisions/repository";
import type { SecretCipher } from "../secrets/cipher";

/** What the deployer gets: the revision's own resource spec and secrets (decrypted, in memory). */
export function targetOf(
  cipher: SecretCipher,
  deployment: DeploymentRow,
  revision: Pick<RevisionRow, "resourceSpec" | "secrets">,
): DeploymentTarget {
  return {
    id: deployment.id,
    tenantId: deployment.tenantId,
    name: deployment.name,
    source: deployment.source as DeploymentSource,
    sourceConfig: {
      ...(deployment.sourceConfig as Record<string, unknown>),
      resource_spec: revision.resourceSpec ?? null,
    },
    secrets: decryptSecrets(cipher, revision.secrets as unknown as StoredSecret[]),
    // The deployment's current key, not the revision's: a rollback must not bring back an old key.
    runtimeKeyHash: deployment.runtimeKeyHash,
  };
}

export function revisionTarget(revision: RevisionRow): RevisionTarget {
  return {
    id: revision.id,
    sourceRevisionConfig: {
      ...(revision.sourceRevisionConfig as Record<string, unknown>),
      repo_commit_sha: revision.repoCommitSha,
    },
  };
}
