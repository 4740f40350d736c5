import type { ThreadState } from "@langchain/langgraph-sdk";
import { formatTime } from "../../components/time";
import { pretty } from "../runtime";
import { idOf, writersOf, writesOf } from "./history";

const stepOf = (state: ThreadState) => String(state.metadata?.step ?? "?");

/** A short one-line JSON of the values, for the timeline's rows. */
function preview(values: unknown): string {
  const text = JSON.stringify(values) ?? "";
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

/**
 * One checkpoint on the timeline: a row (step, what wrote it, what runs next, its values in short,
 * its interrupts and errors) that opens onto the whole of it. A checkpoint with several children
 * is where branches part: its row lets the person choose which one the timeline follows.
 */
export function CheckpointRow(props: {
  state: ThreadState;
  byId: Map<string, ThreadState>;
  /** This checkpoint's children when there are several (oldest first), with the one on the line. */
  branches: ThreadState[];
  followed: string | null;
  onFollow: (child: string) => void;
  current: boolean;
  open: boolean;
  onToggle: () => void;
  children?: React.ReactNode;
}) {
  const { state, byId } = props;
  const step = stepOf(state);
  const interrupted = state.tasks.some((task) => task.interrupts?.length);
  const failed = state.tasks.filter((task) => task.error);
  const detailId = `checkpoint-${idOf(state)}`;
  return (
    <li className={`checkpoint${props.open ? " open" : ""}`} aria-label={`Checkpoint at step ${step}`}>
      <div className="checkpoint-row">
        <button
          type="button"
          className="link"
          aria-expanded={props.open}
          aria-controls={detailId}
          onClick={props.onToggle}
        >
          step {step}
        </button>
        <span className="tag">{writersOf(state, byId)}</span>
        <span className="next">→ {state.next.length ? state.next.join(", ") : "end"}</span>
        {props.current ? <span className="badge good">current</span> : null}
        {interrupted ? <span className="badge busy">interrupted</span> : null}
        {failed.length ? <span className="badge bad">error</span> : null}
        <span className="when">{formatTime(state.created_at)}</span>
      </div>
      <code className="preview">{preview(state.values)}</code>
      {failed.map((task) => (
        <p key={task.id} className="error">
          {task.name} failed: {task.error}
        </p>
      ))}
      {props.branches.length > 1 ? (
        <div role="group" aria-label={`Branches from step ${step}`} className="branches">
          <span className="hint">{props.branches.length} branches from here:</span>
          {props.branches.map((child, index) => (
            <button
              key={idOf(child)}
              type="button"
              className={`small ${idOf(child) === props.followed ? "" : "secondary"}`}
              aria-pressed={idOf(child) === props.followed}
              onClick={() => props.onFollow(idOf(child))}
            >
              Branch {index + 1} ({writersOf(child, byId)})
            </button>
          ))}
        </div>
      ) : null}
      {props.open ? (
        <div id={detailId} className="checkpoint-detail">
          <CheckpointDetail state={state} byId={byId} />
          {props.children}
        </div>
      ) : null}
    </li>
  );
}

/** The whole of a checkpoint: its state, what was written to reach it, its tasks, its metadata. */
function CheckpointDetail({ state, byId }: { state: ThreadState; byId: Map<string, ThreadState> }) {
  const step = stepOf(state);
  const writes = writesOf(state, byId);
  return (
    <>
      <dl className="facts">
        <dt>Checkpoint</dt>
        <dd>
          <code>{idOf(state)}</code>
        </dd>
        <dt>Parent</dt>
        <dd>
          <code>{state.parent_checkpoint?.checkpoint_id ?? "none (the thread's first)"}</code>
        </dd>
        <dt>Source</dt>
        <dd>{String(state.metadata?.source ?? "—")}</dd>
        <dt>Next</dt>
        <dd>{state.next.length ? state.next.join(", ") : "nothing (the run ended here)"}</dd>
        {state.metadata?.run_id ? (
          <>
            <dt>Run</dt>
            <dd>
              <code>{String(state.metadata.run_id)}</code>
            </dd>
          </>
        ) : null}
      </dl>
      <h5>State</h5>
      <pre className="json" aria-label={`State at step ${step}`}>
        {pretty(state.values)}
      </pre>
      <h5>Writes</h5>
      {writes ? (
        <pre className="json" aria-label={`Writes at step ${step}`}>
          {pretty(writes)}
        </pre>
      ) : (
        <p className="hint">Read the older checkpoints to see what was written to reach this one.</p>
      )}
      <h5>Tasks</h5>
      {state.tasks.length ? (
        state.tasks.map((task) => (
          <section key={task.id} className="task" aria-label={`Task ${task.name}`}>
            <strong>{task.name}</strong>{" "}
            {task.error ? (
              <span className="badge bad">failed</span>
            ) : task.interrupts?.length ? (
              <span className="badge busy">interrupted</span>
            ) : task.result != null ? (
              <span className="badge good">ran</span>
            ) : (
              <span className="badge quiet">to run</span>
            )}
            {task.error ? <p className="error">{task.error}</p> : null}
            {task.interrupts?.length ? <pre className="json">{pretty(task.interrupts)}</pre> : null}
            {task.result != null ? <pre className="json">{pretty(task.result)}</pre> : null}
          </section>
        ))
      ) : (
        <p className="hint">No task: nothing runs after this checkpoint.</p>
      )}
      <details>
        <summary>Metadata</summary>
        <pre className="json">{pretty(state.metadata)}</pre>
      </details>
    </>
  );
}
