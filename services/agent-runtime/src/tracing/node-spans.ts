// A span for each graph node a run executes. A JS graph's nodes come from LangGraph's callbacks:
// a node's run is the chain run named after its node (metadata `langgraph_node`), and a subgraph's
// nodes nest inside the node that called the subgraph. A Python graph's host applies the same rule
// and reports its nodes with its own clock readings (see lgp_host/nodes.py). Used only when tracing.
import { context, trace, type Context, type Span } from "@opentelemetry/api";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import type { ChainValues } from "@langchain/core/utils/types";
import type { GraphRunOptions, HostedNodeEvent } from "../graphs/hosted";
import { failed } from "./run-spans";

interface Entry {
  /** The nearest node span at or above this chain run. */
  context: Context;
  /** Its checkpoint namespace (a subgraph's nodes have their own). */
  namespace?: string;
  span?: Span;
}

/** Errors by which a node steers the run (an interrupt, a command to the parent graph): not failures. */
const STEERING = new Set(["GraphInterrupt", "NodeInterrupt", "ParentCommand"]);

export class NodeSpans extends BaseCallbackHandler {
  name = "lgp_node_spans";
  /** Spans start and end as the nodes do, not when a background queue gets to them. */
  override awaitHandlers = true;
  private readonly runs = new Map<string, Entry>();

  /** `parent`: the attempt's context, under which the graph's top nodes go. */
  constructor(private readonly parent: Context = context.active()) {
    super();
  }

  // In the order LangChain's callback manager passes them (its declaration names the fourth
  // `runType` and the last two `runName, parentRunId`: they come as parentRunId, ..., runType, runName).
  override handleChainStart(
    _chain: Serialized,
    _inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    this.started(runId, parentRunId, metadata, runName);
  }

  override handleChainEnd(_outputs: ChainValues, runId: string): void {
    this.ended(runId);
  }

  override handleChainError(error: Error, runId: string): void {
    this.ended(runId, error);
  }

  /** A hosted graph's node (already one of its nodes, its parent the node above it). */
  hosted(event: HostedNodeEvent): void {
    if (event.k === "end") return this.ended(event.id, event.error, event.t);
    const metadata = { langgraph_node: event.node, langgraph_step: event.step, langgraph_checkpoint_ns: event.ns };
    this.started(event.id, event.parent ?? undefined, metadata, event.node, event.t);
  }

  private started(
    runId: string,
    parentRunId: string | undefined,
    metadata: Record<string, unknown> | undefined,
    runName: string | undefined,
    startTime?: number,
  ): void {
    const above = (parentRunId && this.runs.get(parentRunId)) || { context: this.parent };
    const node = metadata?.langgraph_node;
    const namespace = typeof metadata?.langgraph_checkpoint_ns === "string" ? metadata.langgraph_checkpoint_ns : "";
    if (typeof node !== "string" || runName !== node || above.namespace === namespace) {
      this.runs.set(runId, { context: above.context, namespace: above.namespace });
      return;
    }
    const span = trace.getTracer("lgp.agent-runtime").startSpan(
      `graph node ${node}`,
      {
        startTime,
        attributes: {
          "langgraph.node": node,
          ...(typeof metadata?.langgraph_step === "number" ? { "langgraph.step": metadata.langgraph_step } : {}),
          ...(namespace ? { "langgraph.checkpoint_ns": namespace } : {}),
        },
      },
      above.context,
    );
    this.runs.set(runId, { context: trace.setSpan(above.context, span), namespace, span });
  }

  private ended(runId: string, error?: { name: string; message: string }, endTime?: number): void {
    const entry = this.runs.get(runId);
    this.runs.delete(runId);
    if (!entry?.span) return;
    if (error && !STEERING.has(error.name)) failed(entry.span, error);
    entry.span.end(endTime);
  }

  /** Ends the spans of nodes still open when the run stopped (cancelled, or its host failed). */
  close(): void {
    for (const [runId, entry] of this.runs) {
      if (entry.span) {
        entry.span.setAttribute("langgraph.node.unfinished", true);
        entry.span.end();
      }
      this.runs.delete(runId);
    }
  }
}

/**
 * The run options that give a run's nodes spans under the active context (the attempt's), and
 * what ends those left open when the run stops.
 */
export function nodeSpans(): { options: Pick<GraphRunOptions, "callbacks" | "nodes">; close(): void } {
  const spans = new NodeSpans();
  return { options: { callbacks: [spans], nodes: (event) => spans.hosted(event) }, close: () => spans.close() };
}
