import dagre, { type EdgeLabel, type GraphLabel, type NodeLabel } from "@dagrejs/dagre";
import type { AssistantGraph } from "@langchain/langgraph-sdk";

/** A drawn node: its id as the runtime names it (`research:search` inside the subgraph `research`). */
export interface PlacedNode {
  id: string;
  /** The node's own name, its id's last segment. */
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
  terminal: boolean;
}
/** An expanded subgraph (xray): the box around its nodes. `id` is its path, `research` or `a:b`. */
export interface PlacedCluster {
  id: string;
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface PlacedEdge {
  source: string;
  target: string;
  conditional: boolean;
  points: { x: number; y: number }[];
}
export interface GraphLayout {
  nodes: PlacedNode[];
  clusters: PlacedCluster[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

const NODE_H = 36;
const CHAR_W = 7.6;
const MARGIN = 16;
const CLUSTER = "cluster:";
const CLUSTER_LABEL = 14;

export const isTerminal = (id: string) => /(^|:)__(start|end)__$/.test(id);

/**
 * Lays a graph of `/assistants/{id}/graph` out top to bottom with dagre (ranks, crossing
 * reduction, edge routing). With xray, a subgraph's nodes are named `<parent>:<node>`: each such
 * prefix becomes a cluster (nested ones inside their parent's) so the subgraph is drawn boxed.
 */
export function layoutGraph(graph: AssistantGraph): GraphLayout {
  const g = new dagre.graphlib.Graph<GraphLabel, NodeLabel, EdgeLabel>({ compound: true, multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: 28, ranksep: 44, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = graph.nodes.map((node) => String(node.id));
  const clusters = new Set<string>();
  for (const id of ids) {
    const label = lastSegment(id);
    g.setNode(id, { width: Math.max(90, label.length * CHAR_W + 32), height: NODE_H });
    // `a:b:c` sits in cluster `a:b`, which sits in cluster `a`.
    const parts = id.split(":");
    let child = id;
    for (let depth = parts.length - 1; depth > 0; depth--) {
      const cluster = parts.slice(0, depth).join(":");
      if (!clusters.has(cluster)) {
        clusters.add(cluster);
        g.setNode(CLUSTER + cluster, { label: cluster, width: 0, height: 0 });
      }
      g.setParent(child, CLUSTER + cluster);
      child = CLUSTER + cluster;
    }
  }
  graph.edges.forEach((edge, index) => {
    const source = String(edge.source);
    const target = String(edge.target);
    if (g.hasNode(source) && g.hasNode(target))
      g.setEdge(source, target, { conditional: !!edge.conditional }, String(index));
  });
  dagre.layout(g);

  const placedClusters: PlacedCluster[] = [...clusters].map((id) => {
    const box = g.node(CLUSTER + id);
    // Room at the top for the subgraph's name, above its first node.
    return {
      id,
      label: lastSegment(id),
      x: box.x! - box.width / 2,
      y: box.y! - box.height / 2 - CLUSTER_LABEL,
      width: box.width,
      height: box.height + CLUSTER_LABEL,
    };
  });
  const nodes: PlacedNode[] = ids.map((id) => {
    const box = g.node(id);
    return {
      id,
      label: lastSegment(id),
      x: box.x! - box.width / 2,
      y: box.y! - box.height / 2,
      width: box.width,
      height: box.height,
      terminal: isTerminal(id),
    };
  });
  const edges: PlacedEdge[] = g.edges().map((ref) => {
    const label = g.edge(ref);
    return {
      source: ref.v,
      target: ref.w,
      conditional: !!label.conditional,
      points: (label.points ?? []).map((point) => ({ x: point.x, y: point.y })),
    };
  });
  const size = g.graph();
  return { nodes, clusters: placedClusters, edges, width: size.width ?? 0, height: size.height ?? 0 };
}

function lastSegment(id: string): string {
  return id.split(":").at(-1) ?? id;
}

/**
 * The drawn node or subgraph box that stands for a node path (`research:search`, or `research`
 * for the whole subgraph): the path itself when drawn, else its nearest drawn ancestor (a
 * collapsed subgraph), else the cluster drawn for it (an expanded one); null when none is.
 */
export function drawnFor(path: string, layout: GraphLayout): string | null {
  const nodeIds = new Set(layout.nodes.map((node) => node.id));
  const parts = path.split(":");
  for (let depth = parts.length; depth > 0; depth--) {
    const candidate = parts.slice(0, depth).join(":");
    if (nodeIds.has(candidate)) return candidate;
  }
  return layout.clusters.some((cluster) => cluster.id === path) ? path : null;
}
