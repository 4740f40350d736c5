// A span for each graph node a JS graph runs, from LangGraph's callbacks: a node's run is the
// chain run named after its node (metadata `langgraph_node`); a subgraph's nodes nest inside the
// node that called the subgraph. Given to the graph only when tracing is on.
import { context, SpanStatusCode, trace, type Context, type Span } from "@opentelemetry/api";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import type { ChainValues } from "@langchain/core/utils/types";

interface Entry {
  /** The nearest node span at or above this chain run. */
  context: Context;
  /** Its checkpoint namespace (a subgraph's nodes have their own). */
  namespace?: string;
  span?: Span;
}

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

  override handleChainEnd(_outputs: ChainValues, runId: string): void {
    this.end(runId);
  }

  override handleChainError(error: Error, runId: string): void {
    this.end(runId, error);
  }

  private end(runId: string, error?: Error): void {
    const entry = this.runs.get(runId);
    this.runs.delete(runId);
    if (!entry?.span) return;
    // An interrupt is how a node pauses the run, not a failure.
    if (error && error.name !== "GraphInterrupt" && error.name !== "NodeInterrupt") {
      entry.span.recordException(error);
      entry.span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    entry.span.end();
  }
}
