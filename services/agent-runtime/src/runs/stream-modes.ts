// Maps the API's stream modes to LangGraph's, and graph stream chunks to SSE events as the official
// server shapes them. Messages are recognised by their shape, never with `instanceof`: a graph may
// bundle its own copy of @langchain/core, whose classes are not ours.
import { serialize } from "../common/serde";

export const DEFAULT_STREAM_MODES = ["values"];

/** The modes a run request asks for; none (absent, `""` or `[]`: "not given" to some clients) is the default. */
export function requestedModes(value: string | readonly string[] | null | undefined): string[] {
  const modes = ([] as (string | null | undefined)[]).concat(value).filter((mode): mode is string => !!mode);
  return modes.length ? modes : DEFAULT_STREAM_MODES;
}

const GRAPH_MODE: Record<string, string | undefined> = {
  values: "values",
  updates: "updates",
  messages: "messages",
  "messages-tuple": "messages",
  custom: "custom",
  debug: "debug",
  checkpoints: "checkpoints",
  tasks: "tasks",
  events: undefined,
};

/** The LangGraph stream modes needed for the requested API modes. */
export function graphModes(apiModes: string[]): string[] {
  return [...new Set(apiModes.map((mode) => GRAPH_MODE[mode]).filter((mode): mode is string => !!mode))];
}

export interface OutEvent {
  event: string;
  data: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any */

/** A message chunk (a streamed token) can be concatenated; a whole message cannot. */
const isChunk = (message: any): boolean => typeof message?.concat === "function";
const isMessage = (value: any): boolean =>
  typeof value?._getType === "function" || typeof value?.getType === "function";

/** `{thread_id, checkpoint_ns, checkpoint_id, checkpoint_map}` of a config, or null without a thread. */
function checkpointRef(config: any, task = false): Record<string, unknown> | null {
  const configurable = config?.configurable;
  if (!configurable?.thread_id || (!task && !configurable.checkpoint_id)) return null;
  return {
    thread_id: configurable.thread_id,
    checkpoint_id: configurable.checkpoint_id ?? null,
    checkpoint_ns: configurable.checkpoint_ns || "",
    checkpoint_map: configurable.checkpoint_map || null,
  };
}

/** A config without LangGraph's internal `__` keys and callbacks (they are not data). */
function publicConfig(config: any): any {
  if (!config?.configurable || typeof config.configurable !== "object") return config;
  const { callbacks: _callbacks, ...rest } = config;
  return {
    ...rest,
    configurable: Object.fromEntries(Object.entries(config.configurable).filter(([key]) => !key.startsWith("__"))),
  };
}

/** A task of the debug/tasks modes: a subgraph's state config becomes the `checkpoint` that addresses it. */
function debugTask(task: any): any {
  if (!task || typeof task !== "object" || !checkpointRef(task.state, true)) return task;
  const { state, ...rest } = task;
  return { ...rest, checkpoint: checkpointRef(state, true) };
}

/** A debug checkpoint with `checkpoint` / `parent_checkpoint` refs and snake_case `parent_config`. */
function debugCheckpoint(payload: any): any {
  const { parentConfig, ...rest } = payload ?? {};
  return {
    ...rest,
    config: publicConfig(rest.config),
    checkpoint: checkpointRef(rest.config),
    parent_checkpoint: checkpointRef(parentConfig),
    tasks: Array.isArray(rest.tasks) ? rest.tasks.map(debugTask) : rest.tasks,
    parent_config: publicConfig(parentConfig),
  };
}

function reshape(mode: string, payload: any): unknown {
  switch (mode) {
    case "debug":
      if (payload?.type === "checkpoint") return { ...payload, payload: debugCheckpoint(payload.payload) };
      if (payload?.type === "task_result" || payload?.type === "task")
        return { ...payload, payload: debugTask(payload.payload) };
      return payload;
    case "checkpoints":
      // The official server's checkpoints events: the snapshot, not its configs.
      return { values: payload?.values, metadata: payload?.metadata, next: payload?.next };
    case "tasks":
      return debugTask(payload);
    default:
      return payload;
  }
}

/**
 * Turns one chunk of `graph.stream(..., {streamMode: [...], subgraphs})` into SSE events.
 * `messages-tuple` gives `messages` events `[chunk, metadata]`. The legacy `messages` mode gives
 * `messages/metadata` (once per message), `messages/partial` (the message so far, tokens
 * concatenated) and `messages/complete` (each new message of the root state, after its values).
 */
export class EventMapper {
  /** Streamed messages so far, by id (dropped once complete). */
  private readonly partial = new Map<string, any>();
  private readonly completed = new Set<string>();
  private readonly tuple: boolean;
  private readonly classic: boolean;
  private readonly values: boolean;

  constructor(apiModes: string[]) {
    this.tuple = apiModes.includes("messages-tuple");
    this.classic = apiModes.includes("messages");
    this.values = apiModes.includes("values");
  }

  map(chunk: unknown, subgraphs: boolean): OutEvent[] {
    let namespace: string[] = [];
    let mode: string;
    let payload: unknown;
    if (subgraphs) [namespace, mode, payload] = chunk as [string[], string, unknown];
    else [mode, payload] = chunk as [string, unknown];
    const suffix = namespace.length ? `|${namespace.join("|")}` : "";
    if (mode === "values") {
      // The executor always streams values (for the final state); only requested ones go out.
      const events: OutEvent[] = this.values ? [{ event: `values${suffix}`, data: serialize(payload) }] : [];
      if (this.classic && !namespace.length) this.complete(payload, events);
      return events;
    }
    if (mode !== "messages") return [{ event: `${mode}${suffix}`, data: serialize(reshape(mode, payload)) }];
    const events: OutEvent[] = [];
    const [message, metadata] = payload as [any, Record<string, unknown>];
    if (this.tuple) events.push({ event: `messages${suffix}`, data: serialize([message, metadata]) });
    const id: string | undefined = message?.id;
    if (this.classic && id && !this.completed.has(id)) {
      const previous = this.partial.get(id);
      if (previous === undefined) {
        events.push({ event: `messages/metadata${suffix}`, data: serialize({ [id]: { metadata } }) });
      }
      // A token is added to what came before; a whole message (a node's output) stands alone.
      const sofar =
        previous !== undefined && isChunk(previous) && isChunk(message) ? previous.concat(message) : message;
      this.partial.set(id, sofar);
      events.push({ event: `messages/partial${suffix}`, data: serialize([sofar]) });
    }
    return events;
  }

  /** `messages/complete` with the messages of a root values chunk not completed before. */
  private complete(values: any, events: OutEvent[]): void {
    if (!values || typeof values !== "object" || isMessage(values) || !("messages" in values)) return;
    const messages = Array.isArray(values.messages) ? values.messages : [values.messages];
    const fresh = messages.filter((message: any) => message?.id && !this.completed.has(message.id));
    if (!fresh.length) return;
    for (const message of fresh) {
      this.completed.add(message.id);
      this.partial.delete(message.id);
    }
    events.push({ event: "messages/complete", data: serialize(fresh) });
  }
}
