// Maps the API's stream modes to LangGraph's, and graph stream chunks to SSE events.
import { isBaseMessageChunk } from "@langchain/core/messages";
import { serialize } from "../common/serde";

export const DEFAULT_STREAM_MODES = ["values"];

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

/**
 * Turns one chunk of `graph.stream(..., {streamMode: [...], subgraphs})` into SSE events.
 * `messages-tuple` gives `messages` events `[chunk, metadata]`; `messages` gives the
 * `messages/metadata`, `messages/partial` and `messages/complete` events.
 */
export class EventMapper {
  private readonly seenMessages = new Set<string>();
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
    // The executor always streams values (for the final state); only requested ones go out.
    if (mode === "values" && !this.values) return [];
    if (mode !== "messages") return [{ event: `${mode}${suffix}`, data: serialize(payload) }];
    const events: OutEvent[] = [];
    const [message, metadata] = payload as [{ id?: string }, Record<string, unknown>];
    if (this.tuple) events.push({ event: `messages${suffix}`, data: serialize([message, metadata]) });
    if (this.classic) {
      const id = message?.id ?? "";
      if (!this.seenMessages.has(id)) {
        this.seenMessages.add(id);
        events.push({ event: `messages/metadata${suffix}`, data: serialize({ [id]: { metadata } }) });
      }
      const kind = isBaseMessageChunk(message) ? "partial" : "complete";
      events.push({ event: `messages/${kind}${suffix}`, data: serialize([message]) });
    }
    return events;
  }
}
