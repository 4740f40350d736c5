// The graph host seam: a graph that runs outside this process (a Python graph, in its graph host)
// answers what the runtime asks of a compiled LangGraph JS graph (state reads and updates, drawing,
// subgraphs), and two things in its own terms: its schemas, and a run, whose events it shapes
// itself (as the official server of its language does) for the runtime to pass on.
import type { GraphProtocolEvent } from "../protocol/run-events";
import type { GraphSchema } from "./schemas";

/** Why a graph is built, as in the official server's factory runtime (`access_context`). */
export type GraphAccess = "threads.create_run" | "threads.read" | "threads.update" | "assistants.read";

/** What a run asks of its graph, whatever runs it. */
export interface GraphRunOptions {
  /** The run's config (the assistant's merged with the run's). */
  config: Record<string, unknown>;
  configurable: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recursionLimit?: number;
  context?: unknown;
  /** The API's stream modes (`messages-tuple`, `events`...), not LangGraph's. */
  streamMode: string[];
  subgraphs: boolean;
  interruptBefore?: string[] | "*";
  interruptAfter?: string[] | "*";
  durability?: string;
  signal: AbortSignal;
  runId: string;
  /** A run of the thread-centric protocol: LangGraph's protocol events instead of stream events. */
  protocol: boolean;
  /** LangChain callback handlers for a JS graph's run (the node spans, when tracing is on). */
  callbacks?: unknown[];
  /** Told of each node a hosted graph's run starts and ends (the node spans, when tracing is on). */
  nodes?: (event: HostedNodeEvent) => void;
}

/** A node of a hosted graph's run starting or ending, with the host's clock reading (ms). */
export type HostedNodeEvent =
  | { k: "start"; id: string; parent?: string | null; node: string; step?: number | null; ns?: string; t: number }
  | { k: "end"; id: string; t: number; error?: { name: string; message: string } };

/** Where a run's output goes. */
export interface GraphRunSink {
  /** An event of the run's stream, its data JSON. */
  event(name: string, data: string): Promise<void>;
  /** The root graph's values (the thread's new state), as LangGraph JS gives them. */
  values(values: unknown): void;
  /** The same, as JSON (a hosted graph's). */
  valuesJson(json: string): void;
  /** The run stopped at an interrupt. */
  interrupted(): void;
  /** An event of a protocol run. */
  protocol(event: GraphProtocolEvent): Promise<void>;
}

export interface HostedGraph {
  runStream(input: unknown, options: GraphRunOptions, sink: GraphRunSink): Promise<void>;
  schemas(): Promise<GraphSchema>;
}

export function isHostedGraph(graph: unknown): graph is HostedGraph {
  return typeof (graph as Partial<HostedGraph> | null)?.runStream === "function";
}
