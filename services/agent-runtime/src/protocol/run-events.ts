// A protocol run's events, as the worker executing it writes them to its thread's log. LangGraph's
// `streamEvents(..., {version: "v3"})` already yields protocol-shaped events; this adds what only
// the server knows: the root graph's lifecycle (running, then completed, interrupted or failed, from
// the run's outcome), interrupts as `input.requested` (once each), state in the protocol's shape.
import { inferChannel } from "@langchain/langgraph/stream";
import { toWireValue } from "../common/serde";
import type { ThreadLog } from "../queue/types";
import { protocolState } from "./state";

export type LifecycleEvent = "running" | "completed" | "interrupted" | "failed";

/** An event of LangGraph's v3 event stream. */
export interface GraphProtocolEvent {
  method: string;
  params: { namespace?: string[]; node?: string; data: unknown };
}

type Dict = Record<string, unknown>;
const isRecord = (value: unknown): value is Dict =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `[{id, value}]` (an `__interrupt__` list) as `input.requested` payloads. */
function inputRequests(value: unknown): { interrupt_id: string; payload: unknown }[] {
  const list = Array.isArray(value)
    ? value
    : isRecord(value) && Array.isArray(value.__interrupt__)
      ? value.__interrupt__
      : [];
  return list.flatMap((entry: unknown) =>
    isRecord(entry) && typeof entry.id === "string" ? [{ interrupt_id: entry.id, payload: entry.value }] : [],
  );
}

/** Events sent in one append at most; and how many may wait before the run waits for the log. */
const BATCH = 64;
const BACKLOG = 256;

export class ProtocolRunEvents {
  private readonly requested = new Set<string>();
  private ended = false;
  /** Events given but not yet in the log, in order (the first ones may be on their way). */
  private readonly pending: { method: string; params: string }[] = [];
  private flushing?: Promise<void>;
  /** Why the last append failed; its events stay pending, for `written()` to send again. */
  private failure?: unknown;

  constructor(
    private readonly log: Pick<ThreadLog, "appendMany">,
    private readonly threadId: string,
    private readonly graphName: string,
  ) {}

  /**
   * Queues an event for the log. A run's events come in bursts (a superstep's tasks, checkpoint,
   * values and updates at once): while one append is on its way, those that follow gather and go
   * in the next, one round trip for many (a run of the echo graph: 17 events in 4 appends).
   * The order is kept; an append that failed is reported by the next event (the run then goes back
   * to the queue, as it did when each append was waited for) or by `written()`.
   */
  private async write(method: string, namespace: string[], data: unknown, node?: string): Promise<void> {
    this.add(method, namespace, data, node);
    await this.send();
  }

  /**
   * Queues an event at once: its data is written to JSON here, before anything is awaited, since
   * it may hold the graph's own objects (see `toWireValue`), which a later step may change.
   */
  private add(method: string, namespace: string[], data: unknown, node?: string): void {
    if (this.failure) throw this.failure;
    this.queue(method, namespace, data, node);
  }

  /** Sends what is queued; waits for the log when too much is pending. */
  private async send(): Promise<void> {
    this.flush();
    if (this.pending.length >= BACKLOG) await this.flushing;
  }

  /** Adds an event, as the log holds it, behind those pending. */
  private queue(method: string, namespace: string[], data: unknown, node?: string): void {
    // `namespace` first, then `timestamp`: readers find the namespace without parsing the rest.
    const params = { namespace, timestamp: Date.now(), ...(node !== undefined ? { node } : {}), data };
    this.pending.push({ method, params: JSON.stringify(params) });
  }

  /** Sends the pending events, a batch at a time, unless that is under way already. */
  private flush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      try {
        while (this.pending.length) {
          const batch = this.pending.slice(0, BATCH);
          await this.log.appendMany(this.threadId, batch);
          this.pending.splice(0, batch.length);
        }
      } catch (error) {
        this.failure = error;
      }
    })().finally(() => (this.flushing = undefined));
  }

  /** Resolves once every event given so far is in the log; an append that failed is tried again once. */
  async written(): Promise<void> {
    // The sending under way goes on while events are pending: once it settles, what is left (if
    // anything) is what an append failed to write.
    while (this.flushing) await this.flushing;
    this.failure = undefined;
    if (!this.pending.length) return;
    this.flush();
    while (this.flushing) await this.flushing;
    if (this.failure) throw this.failure;
  }

  /**
   * The root's `running` lifecycle, sent at once, ahead of the graph's events (readers see it
   * first). The graph does not wait for its round trip: should the append fail, the graph's next
   * event reports it (the run then goes back to the queue and resumes from its last checkpoint).
   */
  async start(): Promise<void> {
    await this.write("lifecycle", [], { event: "running", graph_name: this.graphName });
  }

  async event(event: GraphProtocolEvent): Promise<void> {
    const namespace = event.params.namespace ?? [];
    const { method } = event;
    switch (method) {
      case "lifecycle":
        // The root's lifecycle follows the run (see `end`); LangGraph's says `completed` even when
        // the graph stopped at an interrupt.
        if (namespace.length) await this.write("lifecycle", namespace, toWireValue(event.params.data));
        return;
      case "values": {
        const values = toWireValue(event.params.data);
        this.requestInput(namespace, values);
        const state = protocolState(values);
        if (!isRecord(state) || Object.keys(state).length) this.add("values", namespace, state);
        return this.send();
      }
      case "updates": {
        const { node, values } = (event.params.data ?? {}) as { node?: string; values?: unknown };
        if (node === "__interrupt__") {
          this.requestInput(namespace, toWireValue(values));
          return this.send();
        }
        const plain = toWireValue(values);
        await this.write("updates", namespace, protocolState(isRecord(plain) ? plain : { value: plain }), node);
        return;
      }
      case "messages":
      case "tools":
      case "custom":
      case "checkpoints":
      case "tasks":
        await this.write(method, namespace, toWireValue(event.params.data));
        return;
      default:
        // A graph's own stream channel, `custom:<name>`; nothing else (debug) is part of the protocol.
        if (method.startsWith("custom:") && method.length > 7)
          await this.write("custom", namespace, { name: method.slice(7), payload: toWireValue(event.params.data) });
    }
  }

  /** Queues an `input.requested` for each interrupt not asked for yet. */
  private requestInput(namespace: string[], value: unknown): void {
    for (const request of inputRequests(value)) {
      if (this.requested.has(request.interrupt_id)) continue;
      this.requested.add(request.interrupt_id);
      this.add("input.requested", namespace, request);
    }
  }

  /**
   * The root's terminal lifecycle, once (`failed` carries the error's message); resolves when it
   * and every event before it are in the log. Called again after a failure, it sends what is left.
   */
  async end(event: Exclude<LifecycleEvent, "running">, error?: string): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      // Behind the events before it, even those an append failed to write: the log keeps the order.
      this.queue("lifecycle", [], { event, graph_name: this.graphName, ...(error !== undefined ? { error } : {}) });
    }
    await this.written();
  }
}

const NAMESPACE_START = '{"namespace":';
const NAMESPACE_END = ',"timestamp":';

/**
 * What a reader routes a logged event by, its namespace and channel, read from the start of its
 * params (as `queue` writes them) rather than by parsing all of them: a run's values and tasks
 * events carry its state, and most readers want only a few channels. A `custom` event's channel
 * is named in its data, and params written otherwise are parsed whole.
 */
export function routingOf(method: string, params: string): { namespace: string[]; channel: string | undefined } {
  if (method !== "custom" && params.startsWith(NAMESPACE_START)) {
    // A string in the namespace cannot hold an unescaped quote, so the first `,"timestamp":` ends it.
    const end = params.indexOf(NAMESPACE_END, NAMESPACE_START.length);
    if (end > 0) {
      const namespace = params.slice(NAMESPACE_START.length, end);
      return {
        namespace: namespace === "[]" ? [] : (JSON.parse(namespace) as string[]),
        channel: inferChannel({ method, params: {} } as Parameters<typeof inferChannel>[0]),
      };
    }
  }
  const parsed = JSON.parse(params) as { namespace?: string[]; data?: unknown };
  return {
    namespace: parsed.namespace ?? [],
    channel: inferChannel({ method, params: parsed } as Parameters<typeof inferChannel>[0]),
  };
}
