import { textOf } from "../runtime";

/** One event of a run's stream, as the client got it, with the debugger's run it came in. */
export interface RawEvent {
  seq: number;
  /** 1 for the session's first run, then one more for each step or continue. */
  run: number;
  event: string;
  data: unknown;
}

/** The modes the debugger streams with (`streamSubgraphs` too): all a panel shows comes from these. */
export const DEBUG_STREAM_MODES = ["values", "updates", "messages-tuple", "custom", "tasks"] as const;

/** `tasks|research:<task id>` → `["research"]`: the nodes of the subgraphs an event came from. */
export function namespaceOf(event: string): string[] {
  return event
    .split("|")
    .slice(1)
    .map((segment) => segment.split(":")[0]);
}

const kindOf = (event: string) => event.split("|")[0];

/** A node's path as xray names it: `research:search` for `search` inside `research`. */
const pathOf = (event: string, node: string) => [...namespaceOf(event), node].join(":");

interface TaskEvent {
  id: string;
  name: string;
  input?: unknown;
  result?: unknown;
  error?: unknown;
}

/**
 * Which nodes run now and which ran, from the `tasks` events (a task's start carries its input,
 * its end its result or error). Node paths, subgraphs' nodes included.
 */
export function taskProgress(events: RawEvent[]) {
  const running = new Map<string, string>();
  const visited = new Set<string>();
  const failed = new Set<string>();
  for (const { event, data } of events) {
    if (kindOf(event) !== "tasks") continue;
    const task = data as TaskEvent;
    const path = pathOf(event, task.name);
    const key = `${event}|${task.id}`;
    if ("input" in task && !("result" in task) && !("error" in task && task.error)) {
      running.set(key, path);
      continue;
    }
    running.delete(key);
    visited.add(path);
    if (task.error) failed.add(path);
  }
  return { running: new Set(running.values()), visited, failed };
}

interface WireMessage {
  id?: string;
  type?: string;
  content?: unknown;
  tool_calls?: { id?: string; name: string; args: unknown }[];
  tool_call_id?: string;
  status?: string;
}

/** A message as `messages-tuple` streamed it: chunks (tokens) joined, in order of arrival. */
export interface StreamedMessage {
  id: string;
  node: string;
  type: string;
  text: string;
  /** The events it came in: its tokens when streamed, 1 for a message a node returned whole. */
  tokens: number;
}

export function streamedMessages(events: RawEvent[]): StreamedMessage[] {
  const byId = new Map<string, StreamedMessage>();
  for (const { event, data, seq } of events) {
    if (kindOf(event) !== "messages" || !Array.isArray(data)) continue;
    const [message, metadata] = data as [WireMessage, { langgraph_node?: string } | undefined];
    const id = message?.id ?? `#${seq}`;
    const text = textOf(message?.content);
    // As the official client's stream does: what comes again under a message's id is its next chunk
    // (typed `AIMessageChunk` by Python servers, `ai` by JS ones).
    const known = byId.get(id);
    if (known) {
      known.text += text;
      known.tokens += 1;
    } else {
      byId.set(id, {
        id,
        node: pathOf(event, metadata?.langgraph_node ?? "?"),
        type: (message?.type ?? "message").replace(/^AIMessageChunk$/, "ai"),
        text:
          text ||
          (message?.tool_calls?.length ? `(calls ${message.tool_calls.map((call) => call.name).join(", ")})` : ""),
        tokens: 1,
      });
    }
  }
  return [...byId.values()];
}

/** A tool call a node asked for, and its result once a tool node gave it. */
export interface ToolCall {
  id: string;
  name: string;
  args: unknown;
  node: string;
  result?: string;
  status?: string;
}

/** Tool calls and their results, from the messages each node's update adds (once per call id). */
export function toolCalls(events: RawEvent[]): ToolCall[] {
  const calls = new Map<string, ToolCall>();
  const results = new Map<string, WireMessage>();
  for (const update of nodeUpdates(events)) {
    const value = (update.value ?? {}) as { messages?: WireMessage | WireMessage[] };
    for (const message of ([] as (WireMessage | undefined)[]).concat(value.messages)) {
      if (!message || typeof message !== "object") continue;
      for (const call of message.tool_calls ?? []) {
        const id = call.id ?? `${call.name}#${calls.size}`;
        if (!calls.has(id)) calls.set(id, { id, name: call.name, args: call.args, node: update.node });
      }
      if (message.type === "tool" && message.tool_call_id) results.set(message.tool_call_id, message);
    }
  }
  return [...calls.values()].map((call) => {
    const result = results.get(call.id);
    return result ? { ...call, result: textOf(result.content), status: result.status } : call;
  });
}

/** Each node's update as `updates` streamed it: `{node: update}` per event, subgraphs' included. */
export function nodeUpdates(events: RawEvent[]): { seq: number; node: string; value: unknown }[] {
  const updates: { seq: number; node: string; value: unknown }[] = [];
  for (const { event, data, seq } of events) {
    if (kindOf(event) !== "updates" || !data || typeof data !== "object") continue;
    // `__interrupt__` says a stop came: the stop's state shows it, the raw panel has it.
    for (const [node, value] of Object.entries(data))
      if (!node.startsWith("__")) updates.push({ seq, node: pathOf(event, node), value });
  }
  return updates;
}

/** What nodes wrote to the custom stream, with the subgraph path they wrote from. */
export function customEvents(events: RawEvent[]): { seq: number; from: string; data: unknown }[] {
  return events
    .filter(({ event }) => kindOf(event) === "custom")
    .map(({ event, data, seq }) => ({ seq, from: namespaceOf(event).join(":"), data }));
}

/** The run's `error` event, as a sentence. */
export function runError(events: RawEvent[]): string | null {
  const failure = events.findLast(({ event }) => kindOf(event) === "error");
  if (!failure) return null;
  const data = failure.data as { error?: string; message?: string } | string;
  if (typeof data === "string") return data;
  return [data?.error, data?.message].filter(Boolean).join(": ") || "The run failed.";
}
