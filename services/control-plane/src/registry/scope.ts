// Docker registry token scopes (`repository:<name>:<actions>`) and the part of the registry that
// belongs to one deployment: every repository under `deployments/<deployment id>/`.
import type { RegistryAction } from "./credentials";

export interface AccessEntry {
  type: string;
  name: string;
  actions: string[];
}

/** `repository:deployments/x/agent:pull,push` → an entry; a name may hold colons only before the last one (a port). */
export function parseScope(scope: string): AccessEntry | undefined {
  const first = scope.indexOf(":");
  const last = scope.lastIndexOf(":");
  if (first <= 0 || last <= first) return undefined;
  return {
    type: scope.slice(0, first),
    name: scope.slice(first + 1, last),
    actions: scope
      .slice(last + 1)
      .split(",")
      .filter(Boolean),
  };
}

/** The repository path prefix of a deployment in the registry: below the registry's own path, if any. */
export function deploymentRepositoryPrefix(deploymentId: string, registryPath = ""): string {
  return registryPath ? `${registryPath}/deployments/${deploymentId}` : `deployments/${deploymentId}`;
}

/**
 * What a credential may do with a requested scope: the requested actions it holds, on a repository
 * of its deployment (the registry's path prefix, if any, included); nothing anywhere else.
 */
export function grant(
  requested: AccessEntry,
  registryPath: string,
  deploymentId: string,
  held: RegistryAction[],
): AccessEntry | undefined {
  if (requested.type !== "repository") return undefined;
  const prefix = deploymentRepositoryPrefix(deploymentId, registryPath);
  if (requested.name !== prefix && !requested.name.startsWith(`${prefix}/`)) return undefined;
  // Sorted: the registry asks in no fixed order (a Go map's).
  const actions = requested.actions.filter((action) => (held as string[]).includes(action)).sort();
  return actions.length ? { type: "repository", name: requested.name, actions } : undefined;
}
