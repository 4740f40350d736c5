import { v5 as uuidv5, v7 as uuidv7, validate } from "uuid";

/** Namespace of default assistants' ids (the same as the reference server's). */
export const DEFAULT_ASSISTANT_NAMESPACE = "6ba7b821-9dad-11d1-80b4-00c04fd430c8";

export function defaultAssistantId(graphId: string): string {
  return uuidv5(graphId, DEFAULT_ASSISTANT_NAMESPACE);
}

/** Time-ordered ids: runs sort in creation order by id, which the per-thread queue relies on. */
export function newRunId(): string {
  return uuidv7();
}

export function newId(): string {
  return uuidv7();
}

export function isUuid(value: string): boolean {
  return validate(value);
}
