// JSON for the wire: LangChain messages become the plain dicts the official client expects
// (`{type, content, id, ...}`) instead of their `lc` constructor form.
import * as messages from "@langchain/core/messages";
import type { BaseMessage } from "@langchain/core/messages";

// As the official JS server writes them: the message's own fields and its type, nothing filled in
// (its suite compares message dicts exactly: no `name: null` or `example: false` added).
/** The dict by LangChain's own `toDict()`: the reference, and the way for any message the fast path declines. */
export function exactMessageDict(message: BaseMessage): Record<string, unknown> {
  const { type, data } = message.toDict();
  return { ...data, type };
}

/** A message as the wire writes it: its fields and its type. */
export function messageToDict(message: BaseMessage): Record<string, unknown> {
  return fastMessageDict(message) ?? exactMessageDict(message);
}

// `toDict()` runs LangChain's `toJSON()`: for each message it walks the class chain for aliases,
// secrets and attributes (getters that build new objects) and deep-copies every field, escaping
// objects that look serialized. That is most of what writing a state costs (about 100 µs for 20
// messages), on every values event and every run's end, growing with the thread. For LangChain's
// own message classes, checked once per class to declare no secrets or attributes and alias each
// field to its own name, the dict is the message's fields as they are, whenever the copy would
// change nothing: no key renamed, no value escaped, no object other than plain data. Otherwise,
// and for any other class, `toDict()` itself.
// (`instanceof` cannot tell: BaseMessage answers it by a mark its instances carry.)
const CORE_CLASSES = new Set<unknown>(
  Object.values(messages).filter(
    (value) =>
      typeof value === "function" &&
      Object.prototype.isPrototypeOf.call(messages.BaseMessage.prototype, value.prototype),
  ),
);
const plainClasses = new Map<unknown, boolean>();

/** Whether `toJSON()` of this message's class keeps its fields' names and adds nothing. */
function isPlainClass(message: BaseMessage): boolean {
  let plain = plainClasses.get(message.constructor);
  if (plain === undefined) {
    plain = CORE_CLASSES.has(message.constructor);
    for (let proto = Object.getPrototypeOf(message); plain && proto; proto = Object.getPrototypeOf(proto)) {
      const aliases = (Reflect.get(proto, "lc_aliases", message) ?? {}) as Record<string, unknown>;
      const secrets = (Reflect.get(proto, "lc_secrets", message) ?? {}) as object;
      const attributes = (Reflect.get(proto, "lc_attributes", message) ?? {}) as object;
      plain =
        Object.entries(aliases).every(([field, name]) => field === name) &&
        Object.keys(secrets).length === 0 &&
        Object.keys(attributes).length === 0;
    }
    plainClasses.set(message.constructor, plain);
  }
  return plain;
}

/** A key `toJSON()` writes as it is (its snake_case is itself). */
const SNAKE_KEY = /^[a-z0-9_]*$/;

/** LangChain's serialisable objects, which `toJSON()` leaves as they are inside a message. */
function isSerializableLike(value: object): boolean {
  return "lc_serializable" in value && typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/** Whether `toJSON()`'s copy of the value writes the same JSON as the value (nothing escaped or lost). */
function copiedAsIs(value: unknown, ancestors: object[]): boolean {
  if (value === null || typeof value !== "object") return true;
  if (ancestors.includes(value)) return false;
  if (Array.isArray(value)) {
    ancestors.push(value);
    const same = value.every((item) => copiedAsIs(item, ancestors));
    ancestors.pop();
    return same;
  }
  if (isSerializableLike(value)) return true;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Object.keys(value);
  if ("lc" in value || "toJSON" in value || (keys.length === 1 && "__lc_escaped__" in value)) return false;
  ancestors.push(value);
  const same = keys.every((key) => copiedAsIs((value as Record<string, unknown>)[key], ancestors));
  ancestors.pop();
  return same;
}

function fastMessageDict(message: BaseMessage): Record<string, unknown> | undefined {
  if (!message.lc_serializable || !isPlainClass(message)) return undefined;
  const fields = message.lc_kwargs as Record<string, unknown> | undefined;
  if (fields === null || typeof fields !== "object" || Array.isArray(fields) || isSerializableLike(fields)) {
    return undefined;
  }
  const dict: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) {
    if (!SNAKE_KEY.test(key) || key.includes("__")) return undefined;
    const value = key in message ? (message as unknown as Record<string, unknown>)[key] : fields[key];
    if (!copiedAsIs(value, [message])) return undefined;
    dict[key] = value;
  }
  dict.type = message.getType();
  return dict;
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
  if (messages.isBaseMessage(value)) return toWire(messageToDict(value), key, ancestors, true);
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
  return JSON.stringify(toWireValue(value)) ?? "null";
}

/**
 * The value as `serialize` would write it (messages as dicts, bigints strings, errors
 * `{error, message}`), without writing it: where nothing changes it is the value itself, so it
 * must be stringified before the graph can change it. For code that reshapes a graph's output on
 * its way to JSON (the protocol's events), one walk instead of `toPlain`'s stringify and parse.
 */
export function toWireValue(value: unknown): unknown {
  return toWire(value === undefined ? null : value, "", new Set());
}

/** The same, parsed back into plain JSON values (for response bodies and JSONB columns). */
export function toPlain<T = unknown>(value: unknown): T {
  return JSON.parse(serialize(value)) as T;
}
