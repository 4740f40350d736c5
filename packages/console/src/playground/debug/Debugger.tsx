import { useEffect, useMemo, useState } from "react";
import type { Assistant } from "@langchain/langgraph-sdk";
import { ErrorMessage } from "../../components/ErrorMessage";
import { useRuntime } from "../runtime";
import { Breakpoints } from "./Breakpoints";
import { taskProgress } from "./events";
import { GraphCanvas, type NodeMarks } from "./GraphCanvas";
import { isTerminal } from "./layout";
import { RunControls } from "./RunControls";
import { StopState } from "./StopState";
import { StreamPanels } from "./StreamPanels";
import { SubgraphsSelect, useGraph, type Xray } from "./useGraph";
import { useDebugRun, type Breakpoints as Chosen } from "./useDebugRun";

/**
 * The run debugger: the graph with the running node lit and the visited ones marked, breakpoints
 * before/after each node, a run started, stepped and continued with the state shown at each stop,
 * and what the run streams (tokens, tool calls, custom events, updates, every event raw).
 */
export function Debugger({ assistant }: { assistant: Assistant }) {
  const [xray, setXray] = useState<Xray>("collapsed");
  const { graph, error: graphError } = useGraph(assistant.assistant_id, xray);
  const [breakpoints, setBreakpoints] = useState<Chosen>({ before: [], after: [] });
  const debug = useDebugRun(assistant.assistant_id);
  const defaultInput = useDefaultInput(assistant.assistant_id);

  // `interrupt_before`/`after` name the graph's own nodes: a subgraph's nodes break as its node.
  const nodes = useMemo(
    () => [
      ...new Set((graph?.nodes ?? []).map((node) => String(node.id).split(":")[0]).filter((id) => !isTerminal(id))),
    ],
    [graph],
  );
  const { events, firstRun } = debug;
  const current = useMemo(() => events.filter((event) => event.run >= firstRun), [events, firstRun]);
  const progress = useMemo(() => taskProgress(current), [current]);
  const marks = useMemo(() => {
    const all = new Map<string, NodeMarks>();
    const mark = (path: string, key: keyof NodeMarks) => all.set(path, { ...all.get(path), [key]: true });
    for (const node of breakpoints.before) mark(node, "before");
    for (const node of breakpoints.after) mark(node, "after");
    for (const path of progress.visited) mark(path, "visited");
    for (const path of progress.failed) mark(path, "failed");
    if (debug.phase === "running") for (const path of progress.running) mark(path, "running");
    if (debug.phase === "paused") for (const node of debug.stop?.next ?? []) mark(node, "next");
    return all;
  }, [breakpoints, progress, debug.phase, debug.stop]);

  return (
    <div className="debug">
      <div className="debugger">
        <div className="debug-graph">
          <div className="filters">
            <SubgraphsSelect value={xray} onChange={setXray} />
          </div>
          <ErrorMessage error={graphError} />
          {graph ? (
            <GraphCanvas graph={graph} title={`Graph of ${assistant.graph_id}`} marks={marks} role="group" />
          ) : graphError ? null : (
            <p aria-busy="true">Loading the graph…</p>
          )}
          <p className="hint">
            Lit: the node running, or the one the run stops before; green: the nodes this run visited; red dots:
            breakpoints.
          </p>
        </div>
        <div className="debug-side">
          {defaultInput !== null ? (
            <RunControls
              key={defaultInput}
              debug={debug}
              breakpoints={breakpoints}
              defaultInput={defaultInput}
              running={[...progress.running]}
            />
          ) : (
            <p aria-busy="true">Loading the input schema…</p>
          )}
          <Breakpoints nodes={nodes} value={breakpoints} onChange={setBreakpoints} />
          {debug.stop && (debug.phase === "paused" || debug.phase === "done") ? (
            <StopState state={debug.stop} ended={debug.phase === "done"} />
          ) : null}
        </div>
      </div>
      <StreamPanels events={debug.events} firstRun={debug.firstRun} />
    </div>
  );
}

/** A first input for the graph: a user message when its input has `messages`, else `{}`. */
function useDefaultInput(assistantId: string): string | null {
  const { client } = useRuntime();
  const [input, setInput] = useState<string | null>(null);
  useEffect(() => {
    const fallback = "{}";
    client.assistants.getSchemas(assistantId).then(
      (schemas) => {
        const properties = (schemas.input_schema as { properties?: Record<string, unknown> } | null)?.properties;
        setInput(
          properties && "messages" in properties
            ? JSON.stringify({ messages: [{ role: "user", content: "hello" }] }, null, 2)
            : fallback,
        );
      },
      () => setInput(fallback),
    );
  }, [client, assistantId]);
  return input;
}
