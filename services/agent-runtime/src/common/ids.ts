import { v5 as uuidv5, v7 as uuidv7, validate } from "uuid";

/** Namespace of default assistants' ids (the same as the reference server's). */
export const DEFAULT_ASSISTANT_NAMESPACE = "6ba7b821-9dad-11d1-80b4-00c04fd430c8";

/** Ids of graph names seen, so a run naming its graph costs no SHA-1 (bounded: names come from clients). */
const defaultIds = new Map<string, string>();

export function defaultAssistantId(graphId: string): string {
  let id = defaultIds.get(graphId);
  if (id === undefined) {
    id = uuidv5(graphId, DEFAULT_ASSISTANT_NAMESPACE);
    if (defaultIds.size < 1000) defaultIds.set(graphId, id);
  }
  return id;
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
