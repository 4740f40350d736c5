// Thread state and history reads that go from a checkpoint's stored JSON to the API's JSON without
// reviving its messages into LangChain class instances. LangGraph's serde revives each message
// (an async walk of the whole value, then per message a stringify, a parse and a constructor, about
// 40 µs each): a state of 3,333 messages took ~100 ms to read, and a history page ten such states,
// only for the API to turn every instance back into the dict it was stored as. Inside `readPlain`,
// a blob's messages of LangChain's own classes, stored in the shape those classes write and read
// back unchanged, are parsed into those dicts directly; any other serialized object (another
// class, a message holding one, a secret, LangGraph's own records) is revived as before, alone.
// Runs never read inside it: a graph's nodes get instances.
import { AsyncLocalStorage } from "node:async_hooks";
import { ERROR, INTERRUPT, JsonPlusSerializer, SCHEDULED, type CheckpointTuple } from "@langchain/langgraph-checkpoint";

const plainReads = new AsyncLocalStorage<true>();

/** Runs a state read (getState, getStateHistory) whose messages may come back as the API's dicts. */
export function readPlain<T>(read: () => T): T {
  return plainReads.run(true, read);
}

/** Pending writes the latest state's read leaves out of its channels (LangGraph's snapshot skips them). */
const KEPT_ASIDE = new Set<string>([ERROR, INTERRUPT, SCHEDULED]);

/** The task id of writes made outside any task (an update's): every snapshot applies them. */
const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";

/**
 * Whether a checkpoint read inside `readPlain` must be read again with its messages revived: its
 * pending writes go through the graph's reducers, which must get the instances they always get.
 * LangGraph's snapshot applies writes made outside a task always, and the next tasks' writes
 * only to the latest state (`latest`: a getState without a checkpoint id); a history page's
 * checkpoints keep their tasks' writes apart.
 */
export function needsRevived(tuple: CheckpointTuple | undefined, latest: boolean): boolean {
  if (plainReads.getStore() !== true) return false;
  return (tuple?.pendingWrites ?? []).some(
    ([taskId, channel]) => taskId === NULL_TASK_ID || (latest && !KEPT_ASIDE.has(channel)),
  );
}

/** A read outside `readPlain` (messages revived), from inside it. */
export function readRevived<T>(read: () => T): T {
  return plainReads.exit(read);
}

/**
 * The message classes whose stored kwargs are their API dict as they are (with the class's type):
 * their constructors keep these fields as given, and `toDict()` writes them back unchanged.
 */
const MESSAGE_TYPES: Record<string, string> = {
  HumanMessage: "human",
  AIMessage: "ai",
  SystemMessage: "system",
  ToolMessage: "tool",
};

/** Fields every message's constructor sets when they are absent; and an AI message's. */
const DEFAULTED = ["additional_kwargs", "response_metadata"];
const AI_DEFAULTED = [...DEFAULTED, "tool_calls", "invalid_tool_calls"];

/** Fields a constructor of these classes rewrites (tool calls parsed from raw ones, v1 content blocks). */
function rewritten(kwargs: Record<string, unknown>): boolean {
  if ("type" in kwargs || "contentBlocks" in kwargs || "content_blocks" in kwargs) return true;
  const additional = kwargs.additional_kwargs as Record<string, unknown> | undefined;
  if (additional !== undefined && (additional === null || typeof additional !== "object" || "tool_calls" in additional))
    return true;
  const metadata = kwargs.response_metadata as Record<string, unknown> | undefined;
  if (metadata !== undefined && (metadata === null || typeof metadata !== "object" || "output_version" in metadata))
    return true;
  for (const key of ["tool_calls", "invalid_tool_calls"]) if (key in kwargs && !Array.isArray(kwargs[key])) return true;
  return false;
}

/** Whether a value holds nothing LangChain's or LangGraph's loaders would revive or unescape. */
function inert(value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every(inert);
  if ("lc" in value || "__lc_escaped__" in value) return false;
  for (const key in value) if (!inert((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** A serialized object left to LangGraph's reviver: where it goes, and what it is. */
type Revival = { container: Record<string, unknown> | unknown[]; key: string | number; record: object };

/**
 * The parsed value with its messages made the API's dicts, in place; every other serialized
 * object (an `lc` record) is listed in `revivals`, for LangGraph's reviver, whose answer for an
 * object depends on that object alone. Plain objects and arrays stay as they were parsed, as its
 * copies of them would be.
 */
function plain(value: unknown, container: Revival["container"], key: string | number, revivals: Revival[]): void {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) plain(value[i], value, i, revivals);
    return;
  }
  const record = value as Record<string, unknown>;
  if ("lc" in record) {
    const dict = messageDict(record);
    if (dict) (container as Record<string, unknown>)[key as string] = dict;
    else revivals.push({ container, key, record });
    return;
  }
  for (const name in record) plain(record[name], record, name, revivals);
}

/** The API's dict of a stored message of one of MESSAGE_TYPES, if it is stored in their shape. */
function messageDict(record: Record<string, unknown>): Record<string, unknown> | undefined {
  const { lc, type, id, kwargs } = record as { lc: unknown; type: unknown; id: unknown; kwargs: unknown };
  if (lc !== 1 || type !== "constructor" || !Array.isArray(id) || id.length !== 3) return undefined;
  if (id[0] !== "langchain_core" || id[1] !== "messages" || !Object.hasOwn(MESSAGE_TYPES, id[2])) return undefined;
  if (kwargs === null || typeof kwargs !== "object" || Array.isArray(kwargs)) return undefined;
  const fields = kwargs as Record<string, unknown>;
  // Fields a constructor adds when absent (a message stored by another writer or an older
  // @langchain/core): such a message is revived, so its dict has them as the official server's.
  const defaulted = id[2] === "AIMessage" ? AI_DEFAULTED : DEFAULTED;
  if (!defaulted.every((name) => name in fields)) return undefined;
  if (rewritten(fields) || !inert(fields)) return undefined;
  return { ...fields, type: MESSAGE_TYPES[id[2]] };
}

/**
 * LangGraph's serializer, whose JSON blobs read inside `readPlain` come back with their messages
 * as the API's dicts when they can (see above); the same serializer otherwise.
 */
export class RuntimeSerializer extends JsonPlusSerializer {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the base class's own signature
  override async loadsTyped(type: string, data: Uint8Array | string): Promise<any> {
    if (type !== "json" || !plainReads.getStore()) return super.loadsTyped(type, data);
    const text = typeof data === "string" ? data : new TextDecoder().decode(data);
    const root = { value: JSON.parse(text) as unknown };
    const revivals: Revival[] = [];
    plain(root.value, root as Record<string, unknown>, "value", revivals);
    for (const { container, key, record } of revivals)
      (container as Record<string, unknown>)[key as string] = await super.loadsTyped("json", JSON.stringify(record));
    return root.value;
  }
}
