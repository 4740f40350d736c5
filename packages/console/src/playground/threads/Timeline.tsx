import { useEffect, useMemo, useState } from "react";
import type { Assistant, ThreadState } from "@langchain/langgraph-sdk";
import { ErrorMessage } from "../../components/ErrorMessage";
import { useRuntime } from "../runtime";
import { CheckpointRow } from "./Checkpoint";
import { ForkForm, type Fork } from "./ForkForm";
import { idOf, lineOf, tipOf, treeOf, useHistory } from "./history";
import { useRunFrom } from "./run";
import "../../styles/timeline.css";

/**
 * Every checkpoint of a thread, a page at a time, as the line of one branch: from its tip back to
 * the thread's first checkpoint (the newest branch unless the person picks another where branches
 * part). A checkpoint opens onto its whole state, which can be edited and forked from (an update at
 * that checkpoint, then a run from the update), or replayed (a run from it, unchanged).
 */
export function Timeline(props: { threadId: string; assistant: Assistant; onChanged: () => Promise<void> }) {
  const { threadId, assistant } = props;
  const { client } = useRuntime();
  const history = useHistory(threadId);
  const { checkpoints, reload } = history;
  const [chosenTip, setChosenTip] = useState<string | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [nodes, setNodes] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const afterRun = async () => {
    // A fork or a replay is the newest branch: the line follows it.
    setChosenTip(null);
    await Promise.all([reload(), props.onChanged()]);
  };
  const run = useRunFrom(threadId, assistant.assistant_id, afterRun);

  useEffect(() => {
    client.assistants.getGraph(assistant.assistant_id).then(
      (graph) => setNodes(graph.nodes.map((node) => String(node.id)).filter((node) => node !== "__end__")),
      () => setNodes([]),
    );
  }, [client, assistant.assistant_id]);

  const { byId, children } = useMemo(() => treeOf(checkpoints), [checkpoints]);
  const tip = chosenTip && byId.has(chosenTip) ? chosenTip : checkpoints[0] ? idOf(checkpoints[0]) : null;
  const line = useMemo(() => lineOf(tip, byId), [tip, byId]);
  const newest = checkpoints[0] ? idOf(checkpoints[0]) : null;
  const oldest = line.at(-1);
  const busy = run.running || history.loading;

  const fork = async (state: ThreadState, { values, asNode, run: andRun }: Fork) => {
    setError(null);
    run.setOutcome(null);
    run.setError(null);
    try {
      const answer = (await client.threads.updateState(threadId, {
        values,
        checkpointId: idOf(state),
        asNode,
      })) as { checkpoint?: { checkpoint_id?: string }; configurable?: { checkpoint_id?: string } };
      const forked = answer.checkpoint?.checkpoint_id ?? answer.configurable?.checkpoint_id;
      setEditing(null);
      if (andRun && forked) await run.runFrom(forked, `Forked from step ${String(state.metadata?.step)}`);
      else {
        run.setOutcome(`Forked from step ${String(state.metadata?.step)} without running.`);
        await afterRun();
      }
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section className="timeline-panel" aria-labelledby={`timeline-${threadId}`}>
      <div className="heading">
        <h4 id={`timeline-${threadId}`}>Timeline (newest first)</h4>
        <button type="button" className="secondary small" disabled={busy} onClick={() => void reload()}>
          Reload
        </button>
      </div>
      <p className="hint" aria-live="polite">
        {line.length} checkpoints on this line, {checkpoints.length} read
        {history.complete ? " (all of them)" : ""}.
      </p>
      <ErrorMessage error={history.error ?? error ?? run.error} />
      {run.running ? (
        <p role="status" aria-busy="true">
          Running{run.ran.length ? `: ${run.ran.join(", ")}` : "…"}
        </p>
      ) : run.outcome ? (
        <p role="status" className="notice">
          {run.outcome}
        </p>
      ) : null}
      {!history.loading && checkpoints.length === 0 && !history.error ? (
        <p className="empty">This thread has no checkpoint yet: nothing has run on it.</p>
      ) : null}
      <ol className="checkpoints timeline-line" aria-label="Checkpoints">
        {line.map((state, index) => {
          const id = idOf(state);
          return (
            <CheckpointRow
              key={id}
              state={state}
              byId={byId}
              branches={children.get(id) ?? []}
              followed={index > 0 ? idOf(line[index - 1]) : null}
              onFollow={(child) => setChosenTip(tipOf(child, checkpoints, byId))}
              current={id === newest}
              open={openId === id}
              onToggle={() => setOpenId(openId === id ? null : id)}
            >
              {editing === id ? (
                <ForkForm
                  state={state}
                  nodes={nodes}
                  busy={busy}
                  onFork={(request) => void fork(state, request)}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <div className="actions">
                  <button type="button" className="secondary" disabled={busy} onClick={() => setEditing(id)}>
                    Edit state and fork…
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    disabled={busy || state.next.length === 0}
                    title={state.next.length === 0 ? "Nothing runs after this checkpoint" : undefined}
                    onClick={() => void run.runFrom(id, `Replayed from step ${String(state.metadata?.step)}`)}
                  >
                    Replay from here
                  </button>
                </div>
              )}
            </CheckpointRow>
          );
        })}
      </ol>
      <nav className="pager" aria-label="Timeline pages">
        {history.complete || (oldest && !oldest.parent_checkpoint) ? (
          <span className="hint">The thread's first checkpoint is the last one above.</span>
        ) : (
          <button type="button" disabled={busy} onClick={() => void history.loadOlder()}>
            Older
          </button>
        )}
      </nav>
    </section>
  );
}
