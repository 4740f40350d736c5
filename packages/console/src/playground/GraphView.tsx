import { useEffect, useState } from "react";
import type { Assistant } from "@langchain/langgraph-sdk";
import { ErrorMessage } from "../components/ErrorMessage";
import { useRuntime } from "./runtime";

interface GraphNode {
  id: string | number;
  name?: string;
}
interface GraphEdge {
  source: string | number;
  target: string | number;
  conditional?: boolean;
}

const BOX_W = 140;
const BOX_H = 36;
const GAP_X = 40;
const GAP_Y = 56;

/**
 * The assistant's graph (`/assistants/{id}/graph`) drawn top to bottom: each node on the layer of
 * its longest path from `__start__` (back edges ignored), conditional edges dashed.
 */
export function GraphView({ assistant }: { assistant: Assistant }) {
  const { client } = useRuntime();
  const [graph, setGraph] = useState<{ nodes: GraphNode[]; edges: GraphEdge[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    client.assistants
      .getGraph(assistant.assistant_id)
      .then((answer) => setGraph(answer as unknown as { nodes: GraphNode[]; edges: GraphEdge[] }), setError);
  }, [client, assistant.assistant_id]);
  if (error) return <ErrorMessage error={error} />;
  if (!graph) return <p aria-busy="true">Loading the graph…</p>;

  const layout = layers(graph);
  const width = Math.max(...layout.rows.map((row) => row.length)) * (BOX_W + GAP_X) + GAP_X;
  const height = layout.rows.length * (BOX_H + GAP_Y) + GAP_Y;
  const at = new Map<string, { x: number; y: number }>();
  layout.rows.forEach((row, depth) => {
    const rowWidth = row.length * (BOX_W + GAP_X) - GAP_X;
    row.forEach((id, index) =>
      at.set(id, { x: (width - rowWidth) / 2 + index * (BOX_W + GAP_X), y: GAP_Y / 2 + depth * (BOX_H + GAP_Y) }),
    );
  });
  return (
    <figure className="graph">
      <svg
        role="img"
        aria-label={`Graph of ${assistant.graph_id}: ${graph.nodes.map((node) => String(node.id)).join(", ")}`}
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        style={{ maxWidth: width }}
      >
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerWidth="8"
            markerHeight="8"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" fill="#57606a" />
          </marker>
        </defs>
        {graph.edges.map((edge, index) => {
          const from = at.get(String(edge.source));
          const to = at.get(String(edge.target));
          if (!from || !to) return null;
          const down = to.y > from.y;
          return (
            <line
              key={index}
              x1={from.x + BOX_W / 2}
              y1={from.y + (down ? BOX_H : 0)}
              x2={to.x + BOX_W / 2}
              y2={to.y + (down ? 0 : BOX_H)}
              stroke="#57606a"
              strokeDasharray={edge.conditional ? "5 4" : undefined}
              markerEnd="url(#arrow)"
            />
          );
        })}
        {graph.nodes.map((node) => {
          const id = String(node.id);
          const place = at.get(id)!;
          const terminal = id === "__start__" || id === "__end__";
          return (
            <g key={id} transform={`translate(${place.x},${place.y})`} className={terminal ? "terminal" : "node"}>
              <rect width={BOX_W} height={BOX_H} rx={terminal ? BOX_H / 2 : 6} />
              <text x={BOX_W / 2} y={BOX_H / 2} dominantBaseline="middle" textAnchor="middle">
                {id}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="hint">
        {graph.nodes.length} nodes, {graph.edges.length} edges; dashed edges are conditional.
      </figcaption>
    </figure>
  );
}

function layers(graph: { nodes: GraphNode[]; edges: GraphEdge[] }): { rows: string[][] } {
  const ids = graph.nodes.map((node) => String(node.id));
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const edge of graph.edges) out.get(String(edge.source))?.push(String(edge.target));
  const depth = new Map<string, number>();
  // Longest path by depth-first search from the start, never following an edge back into the path.
  const visit = (id: string, level: number, path: Set<string>) => {
    if ((depth.get(id) ?? -1) >= level) return;
    depth.set(id, level);
    path.add(id);
    for (const next of out.get(id) ?? []) if (!path.has(next)) visit(next, level + 1, path);
    path.delete(id);
  };
  visit(ids.includes("__start__") ? "__start__" : ids[0], 0, new Set());
  const maxDepth = Math.max(0, ...depth.values());
  // `__end__` goes last; anything unreachable goes under it.
  if (depth.has("__end__"))
    depth.set("__end__", maxDepth + (ids.some((id) => depth.get(id) === maxDepth && id !== "__end__") ? 1 : 0));
  for (const id of ids) if (!depth.has(id)) depth.set(id, maxDepth + 2);
  const rows: string[][] = [];
  for (const id of ids) (rows[depth.get(id)!] ??= []).push(id);
  return { rows: rows.filter(Boolean) };
}
