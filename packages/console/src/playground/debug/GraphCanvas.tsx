import type { AssistantGraph } from "@langchain/langgraph-sdk";
import { useId, useMemo } from "react";
import { drawnFor, layoutGraph, type GraphLayout, type PlacedEdge } from "./layout";
import "../../styles/debug.css";

/** What a drawn node shows of a run: lit while it runs, or when the run paused before it. */
export interface NodeMarks {
  running?: boolean;
  next?: boolean;
  visited?: boolean;
  failed?: boolean;
  before?: boolean;
  after?: boolean;
}

const NO_MARKS = new Map<string, NodeMarks>();

/** The words a node's accessible name gives its marks, in this order. */
const WORDS: [keyof NodeMarks, string][] = [
  ["running", "running"],
  ["next", "next"],
  ["failed", "failed"],
  ["visited", "visited"],
  ["before", "breakpoint before"],
  ["after", "breakpoint after"],
];

/**
 * A graph drawn as SVG, laid out by dagre (layout.ts), each node a `role="img"` named by its id and
 * its marks ("node two, next, breakpoint before"): the running and next nodes are lit, visited
 * ones marked. `marks` are by node path (`research:search`): a collapsed subgraph shows its
 * nodes' marks, an expanded one's box its own. An expanded subgraph is a labelled box around its nodes; conditional edges dashed.
 * As `role="img"` (the Graph tab) the whole is named with its node ids; as a group (the debugger)
 * each node speaks for itself.
 */
export function GraphCanvas({
  graph,
  title,
  marks = NO_MARKS,
  role = "img",
}: {
  graph: AssistantGraph;
  title: string;
  marks?: Map<string, NodeMarks>;
  role?: "img" | "group";
}) {
  const layout = useMemo(() => layoutGraph(graph), [graph]);
  const drawnMarks = useMemo(() => resolve(marks, layout), [marks, layout]);
  const arrow = `arrow-${useId().replace(/:/g, "")}`;
  const label = role === "img" ? `${title}: ${layout.nodes.map((node) => node.id).join(", ")}` : title;
  return (
    <svg
      role={role}
      aria-label={label}
      className="graph-canvas"
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      width="100%"
      style={{ maxWidth: layout.width }}
    >
      <defs>
        <marker id={arrow} viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto">
          <path d="M 0 0 L 10 5 L 0 10 z" className="arrowhead" />
        </marker>
      </defs>
      {layout.clusters.map((cluster) => {
        const lit = drawnMarks.get(cluster.id);
        return (
          <g
            key={cluster.id}
            role="img"
            aria-label={`subgraph ${cluster.id}${describe(lit)}`}
            className={`cluster ${classes(lit)}`}
          >
            <rect x={cluster.x} y={cluster.y} width={cluster.width} height={cluster.height} rx={10} />
            <text x={cluster.x + 10} y={cluster.y + 16}>
              {cluster.label}
            </text>
          </g>
        );
      })}
      {layout.edges.map((edge, index) => (
        <path
          key={index}
          d={pathOf(edge)}
          className={edge.conditional ? "edge conditional" : "edge"}
          markerEnd={`url(#${arrow})`}
        />
      ))}
      {layout.nodes.map((node) => {
        const lit = drawnMarks.get(node.id);
        return (
          <g
            key={node.id}
            role="img"
            aria-label={`node ${node.id}${describe(lit)}`}
            transform={`translate(${node.x},${node.y})`}
            className={`node ${node.terminal ? "terminal" : ""} ${classes(lit)}`}
          >
            <rect width={node.width} height={node.height} rx={node.terminal ? node.height / 2 : 6} />
            <text x={node.width / 2} y={node.height / 2} dominantBaseline="middle" textAnchor="middle">
              {node.label}
            </text>
            {lit?.before ? <circle className="breakpoint" cx={10} cy={0} r={5} /> : null}
            {lit?.after ? <circle className="breakpoint" cx={10} cy={node.height} r={5} /> : null}
          </g>
        );
      })}
    </svg>
  );
}

/** Marks by node path onto what is drawn for each path (layout.ts `drawnFor`), merged. */
function resolve(marks: Map<string, NodeMarks>, layout: GraphLayout): Map<string, NodeMarks> {
  const drawn = new Map<string, NodeMarks>();
  for (const [path, mark] of marks) {
    const id = drawnFor(path, layout);
    if (!id) continue;
    const merged = { ...drawn.get(id) };
    // A collapsed subgraph is lit while a node of it runs; it is visited once it ran itself.
    const inside = id !== path;
    for (const [key, on] of Object.entries(mark) as [keyof NodeMarks, boolean][])
      if (on && !(inside && key === "visited")) merged[key] = true;
    drawn.set(id, merged);
  }
  return drawn;
}

function describe(marks: NodeMarks | undefined): string {
  if (!marks) return "";
  return WORDS.filter(([key]) => marks[key])
    .map(([, word]) => `, ${word}`)
    .join("");
}

function classes(marks: NodeMarks | undefined): string {
  if (!marks) return "";
  return [marks.running || marks.next ? "lit" : "", ...WORDS.filter(([key]) => marks[key]).map(([key]) => key)]
    .filter(Boolean)
    .join(" ");
}

/** dagre's route as a smooth path: straight through its first and last points, curved between. */
function pathOf(edge: PlacedEdge): string {
  const [first, ...rest] = edge.points;
  if (!first) return "";
  if (rest.length < 2) return `M ${first.x} ${first.y} ${rest.map((point) => `L ${point.x} ${point.y}`).join(" ")}`;
  let d = `M ${first.x} ${first.y}`;
  for (let index = 0; index < rest.length - 1; index++) {
    const control = rest[index];
    const next = rest[index + 1];
    const end = index === rest.length - 2 ? next : { x: (control.x + next.x) / 2, y: (control.y + next.y) / 2 };
    d += ` Q ${control.x} ${control.y} ${end.x} ${end.y}`;
  }
  return d;
}
