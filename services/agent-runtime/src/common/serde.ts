// JSON for the wire: LangChain messages become the plain dicts the official client expects
// (`{type, content, id, ...}`) instead of their `lc` constructor form.
import { isBaseMessage, type BaseMessage } from "@langchain/core/messages";

// As the official JS server writes them: the message's own fields and its type, nothing filled in
// (its suite compares message dicts exactly: no `name: null` or `example: false` added).
function messageToDict(message: BaseMessage): Record<string, unknown> {
  const { type, data } = message.toDict();
  return { ...data, type };
}

function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // `value` has already been through toJSON(); the raw object is this[key].
  const raw = this[key];
  if (raw && typeof raw === "object" && isBaseMessage(raw)) return messageToDict(raw);
  if (typeof raw === "bigint") return raw.toString();
  if (raw instanceof Error) return { error: raw.name, message: raw.message };
  return value;
}

/** Serialises any graph output to a JSON string, messages as dicts. */
export function serialize(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value, replacer) ?? "null";
}

/** The same, parsed back into plain JSON values (for response bodies and JSONB columns). */
export function toPlain<T = unknown>(value: unknown): T {
  return JSON.parse(serialize(value)) as T;
}
