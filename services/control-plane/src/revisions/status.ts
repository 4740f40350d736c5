import { isTerminalRevisionStatus, type ControlPlane } from "@lgp/contracts";

export type RevisionStatus = ControlPlane.components["schemas"]["RevisionStatus"];

/** The status every revision is created with (the column's default): the first entry of its history. */
export const CREATION_STATUS: RevisionStatus = "CREATING";

/**
 * The reconciler's path: CREATING -> QUEUED -> AWAITING_BUILD -> BUILDING -> AWAITING_DEPLOY ->
 * DEPLOYING -> DEPLOYED (docker sources go QUEUED -> AWAITING_DEPLOY). Terminal states end a
 * revision's processing; the official CLI stops polling on the same set (in the contract package,
 * which the console shares).
 */
export const isTerminal = isTerminalRevisionStatus;

export const ACTIVE_STATUSES: readonly RevisionStatus[] = [
  "CREATING",
  "QUEUED",
  "AWAITING_BUILD",
  "BUILDING",
  "AWAITING_DEPLOY",
  "DEPLOYING",
];
