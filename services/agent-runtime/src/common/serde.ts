// JSON for the wire: LangChain messages become the plain dicts the official client expects
// (`{type, content, id, ...}`) instead of their `lc` constructor form.
import { isBaseMessage, type BaseMessage } from "@langchain/core/messages";

function messageToDict(message: BaseMessage): Record<string, unknown> {
  const { type, data } = message.toDict();
  const base: Record<string, unknown> = {
    content: "",
    additional_kwargs: {},
    response_metadata: {},
    type,
    name: null,
    id: null,
    example: false,
  };
  if (type === "ai") Object.assign(base, { tool_calls: [], invalid_tool_calls: [], usage_metadata: null });
  for (const [key, value] of Object.entries(data)) if (value !== undefined) base[key] = value;
  base.type = type;
  return base;
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
