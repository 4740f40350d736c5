// JSON for the wire: LangChain messages become the plain dicts the official client expects
// (`{type, content, id, ...}`) instead of their `lc` constructor form.
import { isBaseMessage, type BaseMessage } from "@langchain/core/messages";

// As the official JS server writes them: the message's own fields and its type, nothing filled in
// (its suite compares message dicts exactly: no `name: null` or `example: false` added).
function messageToDict(message: BaseMessage): Record<string, unknown> {
  const { type, data } = message.toDict();
  return { ...data, type };
}

/** Whether `JSON.stringify` would write the object's own enumerable properties as they are. */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The value with every message made a dict, bigints strings and errors `{error, message}`; the
 * rest as `JSON.stringify` would see it. Done before stringifying rather than in a replacer: a
 * replacer gets a message only after its own `toJSON()` (LangChain's costly constructor form),
 * which `toDict()` then runs again. Containers are copied only where something changed.
 */
function toWire(value: unknown, key: string, ancestors: Set<object>, jsonDone = false): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  // What a message's dict holds is written the same way (a message or a bigint inside it).
  if (isBaseMessage(value)) return toWire(messageToDict(value), key, ancestors, true);
  if (value instanceof Error) return { error: value.name, message: value.message };
  // As JSON.stringify: boxed primitives are their values, and toJSON is called once per value.
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value.valueOf();
  const json = (value as { toJSON?: unknown }).toJSON;
  if (!jsonDone && typeof json === "function") return toWire(json.call(value, key), key, ancestors, true);
  if (ancestors.has(value)) throw new TypeError("Converting circular structure to JSON");
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i += 1) {
        const item = toWire(value[i], String(i), ancestors);
        if (item !== value[i]) copy ??= value.slice();
        if (copy) copy[i] = item;
      }
      return copy ?? value;
    }
    const source = value as Record<string, unknown>;
    // A copy when the object's own toJSON was already asked (the copy has none to ask again).
    let copy: Record<string, unknown> | undefined = isPlain(value) && typeof json !== "function" ? undefined : {};
    for (const name of Object.keys(source)) {
      if (copy && typeof source[name] === "function") continue;
      const item = toWire(source[name], name, ancestors);
      if (item !== source[name] && !copy) copy = { ...source };
      if (copy) copy[name] = item;
    }
    return copy ?? value;
  } finally {
    ancestors.delete(value);
  }
}

/** Serialises any graph output to a JSON string, messages as dicts. */
export function serialize(value: unknown): string {
  return JSON.stringify(toWire(value === undefined ? null : value, "", new Set())) ?? "null";
}

/** The same, parsed back into plain JSON values (for response bodies and JSONB columns). */
export function toPlain<T = unknown>(value: unknown): T {
  return JSON.parse(serialize(value)) as T;
}
