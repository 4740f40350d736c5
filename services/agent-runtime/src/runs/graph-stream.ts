// A run's graph execution, whatever language its graph is in: a hosted graph (Python) runs in its
// host and shapes its own events; a LangGraph JS graph runs here, its stream chunks shaped by the
// EventMapper. Either way the run's output reaches the executor through one sink.
import { serialize } from "../common/serde";
import { isHostedGraph, type GraphRunOptions, type GraphRunSink } from "../graphs/hosted";
import type { CompiledGraph } from "../graphs/registry";
import type { GraphProtocolEvent } from "../protocol/run-events";
import { EventMapper, graphModes } from "./stream-modes";

export async function streamGraphRun(
  graph: CompiledGraph,
  input: unknown,
  options: GraphRunOptions,
  sink: GraphRunSink,
): Promise<void> {
  if (isHostedGraph(graph)) return graph.runStream(input, options, sink);
  const { streamMode, subgraphs, runId, protocol: _protocol, ...rest } = options;
  const common = {
    ...rest.config,
    ...(rest.callbacks ? { callbacks: rest.callbacks } : {}),
    recursionLimit: rest.recursionLimit,
    configurable: rest.configurable,
    metadata: rest.metadata,
    context: rest.context,
    interruptBefore: rest.interruptBefore,
    interruptAfter: rest.interruptAfter,
    durability: rest.durability,
    signal: rest.signal,
  };
  if (options.protocol) {
    // A run of the thread-centric protocol: LangGraph's protocol events.
    const stream = await graph.streamEvents(input, { ...common, runId, version: "v3" });
    for await (const event of stream as AsyncIterable<GraphProtocolEvent>) await sink.protocol(event);
    return;
  }
  const mapper = new EventMapper(streamMode);
  // "values" is always streamed: its last chunk is the thread's new state (no read-back).
  const modes = graphModes(streamMode);
  if (!modes.includes("values")) modes.push("values");
  // The run's id is its root run's (as on the official server): a LangSmith trace has the run's id.
  const chunkOptions = { ...common, runId, streamMode: modes, subgraphs };
  const handle = async (chunk: unknown) => {
    const [namespace, mode, payload] = subgraphs
      ? (chunk as [string[], string, unknown])
      : [[], ...(chunk as [string, unknown])];
    if (mode === "values" && namespace.length === 0) {
      if (payload && typeof payload === "object" && "__interrupt__" in payload) sink.interrupted();
      else sink.values(payload);
    }
    for (const event of mapper.map(chunk, subgraphs)) await sink.event(event.event, event.data);
  };
  if (streamMode.includes("events")) {
    // `events`: LangChain's event stream, each as an `events` event. The graph's own stream
    // chunks ride in it as the root run's `on_chain_stream` events: those go out as their
    // modes' events only (as on the official server), and hidden steps not at all.
    for await (const event of graph.streamEvents(input, { ...chunkOptions, runId, version: "v2" })) {
      if (event.event === "on_chain_stream" && event.run_id === runId) await handle(event.data?.chunk);
      else if (!event.tags?.includes("langsmith:hidden")) await sink.event("events", serialize(event));
    }
    return;
  }
  for await (const chunk of await graph.stream(input, chunkOptions)) await handle(chunk);
}
