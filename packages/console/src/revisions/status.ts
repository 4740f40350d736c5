import type { RevisionStatus } from "../api/control-plane";

const SETTLED: string[] = [
  "DEPLOYED",
  "CREATE_FAILED",
  "BUILD_FAILED",
  "DEPLOY_FAILED",
  "SKIPPED",
  "INTERRUPTED",
  "UNKNOWN",
];

/** A revision still on its way (the screens follow it live). */
export const isMoving = (status: RevisionStatus | string): boolean => !SETTLED.includes(status);
