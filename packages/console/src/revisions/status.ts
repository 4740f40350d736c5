import { isTerminalRevisionStatus } from "@lgp/contracts/src/revision-status";

/** A revision still on its way (the screens follow it live): not in a terminal status. */
export const isMoving = (status: string): boolean => !isTerminalRevisionStatus(status);
