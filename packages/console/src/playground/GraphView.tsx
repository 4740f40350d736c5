import { useState } from "react";
import type { Assistant } from "@langchain/langgraph-sdk";
import { ErrorMessage } from "../components/ErrorMessage";
import { GraphCanvas } from "./debug/GraphCanvas";
import { SubgraphsSelect, useGraph, type Xray } from "./debug/useGraph";

/**
 * The assistant's graph (`/assistants/{id}/graph`), laid out by dagre, its subgraphs collapsed or
 * expanded (`xray`); conditional edges dashed. The Debug tab draws the same graph with a run on it.
 */
export function GraphView({ assistant }: { assistant: Assistant }) {
  const [xray, setXray] = useState<Xray>("collapsed");
  const { graph, error } = useGraph(assistant.assistant_id, xray);
  return (
    <figure className="graph">
      <div className="filters">
        <SubgraphsSelect value={xray} onChange={setXray} />
      </div>
      <ErrorMessage error={error} />
      {graph ? (
        <>
          <GraphCanvas graph={graph} title={`Graph of ${assistant.graph_id}`} />
          <figcaption className="hint">
            {graph.nodes.length} nodes, {graph.edges.length} edges; dashed edges are conditional.
          </figcaption>
        </>
      ) : error ? null : (
        <p aria-busy="true">Loading the graph…</p>
      )}
    </figure>
  );
}
