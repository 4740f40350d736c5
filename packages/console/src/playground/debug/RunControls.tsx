import { useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { ErrorMessage } from "../../components/ErrorMessage";
import { useRuntime } from "../runtime";
import { pendingInterrupts } from "./StopState";
import type { Breakpoints, useDebugRun } from "./useDebugRun";

/**
 * The run's input and context, and the buttons that drive it: Run (to the first breakpoint),
 * Step (one node: before anything runs, it stops before the first), Continue (to the next
 * breakpoint or the end), Stop (cancels the run in flight), New thread. A short status line says
 * where the run is.
 */
export function RunControls({
  debug,
  breakpoints,
  defaultInput,
  running,
}: {
  debug: ReturnType<typeof useDebugRun>;
  breakpoints: Breakpoints;
  defaultInput: string;
  running: string[];
}) {
  const id = useId();
  const { deploymentId } = useRuntime();
  const [params] = useSearchParams();
  const [input, setInput] = useState(defaultInput);
  const [context, setContext] = useState("{}");
  const [answer, setAnswer] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const { phase, stop } = debug;
  const busy = phase === "running";
  const paused = phase === "paused";
  const questions = paused ? pendingInterrupts(stop) : [];

  /** The two JSON fields parsed, or null with the reason shown beside the button. */
  const parsed = () => {
    try {
      const value = JSON.parse(input || "null");
      const ctx = JSON.parse(context || "{}");
      if (ctx !== null && (typeof ctx !== "object" || Array.isArray(ctx)))
        throw new Error("The context must be a JSON object.");
      setInvalid(null);
      return { value, ctx: ctx && Object.keys(ctx).length ? (ctx as Record<string, unknown>) : undefined };
    } catch (caught) {
      setInvalid(`The input and the context must be JSON: ${(caught as Error).message}`);
      return null;
    }
  };
  const start = (mode: Breakpoints | "*") => {
    const fields = parsed();
    if (fields) void debug.start(fields.value, fields.ctx, mode);
  };
  /** An answer to the graph's `interrupt()`: JSON when it parses, the text as typed otherwise. */
  const resumeValue = () => {
    if (!questions.length) return undefined;
    try {
      return { value: JSON.parse(answer) as unknown };
    } catch {
      return { value: answer };
    }
  };

  return (
    <section className="card debug-controls" aria-label="Run controls">
      <label htmlFor={`${id}-input`}>Input (JSON)</label>
      <textarea id={`${id}-input`} rows={4} value={input} onChange={(event) => setInput(event.target.value)} />
      <label htmlFor={`${id}-context`}>Context (JSON)</label>
      <textarea id={`${id}-context`} rows={2} value={context} onChange={(event) => setContext(event.target.value)} />
      {questions.length ? (
        <>
          <label htmlFor={`${id}-answer`}>Answer to the interrupt (JSON or text)</label>
          <textarea id={`${id}-answer`} rows={2} value={answer} onChange={(event) => setAnswer(event.target.value)} />
        </>
      ) : null}
      <div className="actions">
        {paused ? (
          <>
            <button type="button" onClick={() => void debug.resume("*", resumeValue())}>
              Step
            </button>
            <button type="button" onClick={() => void debug.resume(breakpoints, resumeValue())}>
              Continue
            </button>
          </>
        ) : (
          <>
            <button type="button" disabled={busy} onClick={() => start(breakpoints)}>
              Run
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => start("*")}>
              Step
            </button>
          </>
        )}
        {busy ? (
          <button type="button" className="secondary" onClick={() => void debug.cancel()}>
            Stop
          </button>
        ) : null}
        <button type="button" className="secondary" disabled={busy} onClick={debug.reset}>
          New thread
        </button>
      </div>
      <p role="status" className="hint">
        {statusLine(phase, stop?.next ?? [], running)}
        {debug.threadId ? (
          <>
            {" "}
            On thread{" "}
            <Link
              to={{
                pathname: `/deployments/${deploymentId}/playground/threads`,
                search: withThread(params, debug.threadId),
              }}
              title="Its checkpoints in the Threads tab"
            >
              <code>{debug.threadId.slice(0, 8)}</code>
            </Link>
            .
          </>
        ) : null}
      </p>
      {invalid ? (
        <p role="alert" className="error">
          {invalid}
        </p>
      ) : null}
      <ErrorMessage error={debug.error} />
    </section>
  );
}

function withThread(params: URLSearchParams, threadId: string): string {
  const next = new URLSearchParams(params);
  next.set("thread", threadId);
  return next.toString();
}

function statusLine(phase: string, next: string[], running: string[]): string {
  switch (phase) {
    case "running":
      return running.length ? `Running ${running.join(", ")}…` : "Running…";
    case "paused":
      return `Paused before ${next.join(", ")}.`;
    case "done":
      return "Finished.";
    case "failed":
      return "The run failed.";
    default:
      return "Not started: choose breakpoints, then Run, or Step to stop before the first node.";
  }
}
