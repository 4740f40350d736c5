import type { components } from "./generated/control-plane";

type RevisionStatus = components["schemas"]["RevisionStatus"];

/**
 * A revision in one of these is done moving: the reconciler stops driving it, the official CLI
 * stops polling it, and the console stops following it live. Free of the bundled documents, so a
 * browser bundle can import it alone.
 */
export const TERMINAL_REVISION_STATUSES: readonly RevisionStatus[] = [
  "DEPLOYED",
  "CREATE_FAILED",
  "BUILD_FAILED",
  "DEPLOY_FAILED",
  "SKIPPED",
  "INTERRUPTED",
  "UNKNOWN",
];

export function isTerminalRevisionStatus(status: string): boolean {
  return (TERMINAL_REVISION_STATUSES as readonly string[]).includes(status);
}
