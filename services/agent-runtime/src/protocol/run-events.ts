// A protocol run's events, as the worker executing it writes them to its thread's log. LangGraph's
// `streamEvents(..., {version: "v3"})` already yields protocol-shaped events; this adds what only
// the server knows: the root graph's lifecycle (running, then completed, interrupted or failed, from
// the run's outcome), interrupts as `input.requested` (once each), state in the protocol's shape.
import { toPlain } from "../common/serde";
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

export class ProtocolRunEvents {
  private readonly requested = new Set<string>();
  private ended = false;

  constructor(
    private readonly log: Pick<ThreadLog, "append">,
    private readonly threadId: string,
    private readonly graphName: string,
  ) {}

  private async write(method: string, namespace: string[], data: unknown, node?: string): Promise<void> {
    const params = { namespace, timestamp: Date.now(), ...(node !== undefined ? { node } : {}), data };
    await this.log.append(this.threadId, method, JSON.stringify(params));
  }

  start(): Promise<void> {
    return this.write("lifecycle", [], { event: "running", graph_name: this.graphName });
  }

  async event(event: GraphProtocolEvent): Promise<void> {
    const namespace = event.params.namespace ?? [];
    const { method } = event;
    switch (method) {
      case "lifecycle":
        // The root's lifecycle follows the run (see `end`); LangGraph's says `completed` even when
        // the graph stopped at an interrupt.
        if (namespace.length) await this.write("lifecycle", namespace, toPlain(event.params.data));
        return;
      case "values": {
        const values = toPlain(event.params.data);
        await this.requestInput(namespace, values);
        const state = protocolState(values);
        if (isRecord(state) && !Object.keys(state).length) return;
        await this.write("values", namespace, state);
        return;
      }
      case "updates": {
        const { node, values } = (event.params.data ?? {}) as { node?: string; values?: unknown };
        if (node === "__interrupt__") return this.requestInput(namespace, toPlain(values));
        const plain = toPlain(values);
        await this.write("updates", namespace, protocolState(isRecord(plain) ? plain : { value: plain }), node);
        return;
      }
      case "messages":
      case "tools":
      case "custom":
      case "checkpoints":
      case "tasks":
        await this.write(method, namespace, toPlain(event.params.data));
        return;
      default:
        // A graph's own stream channel, `custom:<name>`; nothing else (debug) is part of the protocol.
        if (method.startsWith("custom:") && method.length > 7)
          await this.write("custom", namespace, { name: method.slice(7), payload: toPlain(event.params.data) });
    }
  }

  private async requestInput(namespace: string[], value: unknown): Promise<void> {
    for (const request of inputRequests(value)) {
      if (this.requested.has(request.interrupt_id)) continue;
      this.requested.add(request.interrupt_id);
      await this.write("input.requested", namespace, request);
    }
  }

  /** The root's terminal lifecycle, once: `failed` carries the error's message. */
  async end(event: Exclude<LifecycleEvent, "running">, error?: string): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.write("lifecycle", [], {
      event,
      graph_name: this.graphName,
      ...(error !== undefined ? { error } : {}),
    });
  }
}
