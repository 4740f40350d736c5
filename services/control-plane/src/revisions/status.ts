import type { ControlPlane } from "@lgp/contracts";

export type RevisionStatus = ControlPlane.components["schemas"]["RevisionStatus"];

/**
 * The reconciler's path: CREATING -> QUEUED -> AWAITING_BUILD -> BUILDING -> AWAITING_DEPLOY ->
 * DEPLOYING -> DEPLOYED (docker sources go QUEUED -> AWAITING_DEPLOY). Terminal states end a
 * revision's processing; the official CLI stops polling on the same set.
 */
/** The status every revision is created with (the column's default): the first entry of its history. */
export const CREATION_STATUS: RevisionStatus = "CREATING";

export const TERMINAL_STATUSES: readonly RevisionStatus[] = [
  "DEPLOYED",
  "CREATE_FAILED",
  "BUILD_FAILED",
  "DEPLOY_FAILED",
  "SKIPPED",
  "INTERRUPTED",
  "UNKNOWN",
];

export const ACTIVE_STATUSES: readonly RevisionStatus[] = [
  "CREATING",
  "QUEUED",
  "AWAITING_BUILD",
  "BUILDING",
  "AWAITING_DEPLOY",
  "DEPLOYING",
];

export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}
