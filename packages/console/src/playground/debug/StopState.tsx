import type { ThreadState } from "@langchain/langgraph-sdk";
import { pretty } from "../runtime";

/** The interrupts a stop's tasks raised with `interrupt()` (a breakpoint raises none). */
export function pendingInterrupts(state: ThreadState | null): unknown[] {
  return (state?.tasks ?? []).flatMap((task) => (task.interrupts ?? []).map((item) => item.value));
}

/**
 * The thread's state where the run stopped (or ended): the nodes it runs next, the step and
 * checkpoint, the values, and the questions its nodes asked with `interrupt()`.
 */
export function StopState({ state, ended }: { state: ThreadState; ended: boolean }) {
  const questions = pendingInterrupts(state);
  return (
    <section className="card stop-state" aria-label={ended ? "Final state" : "State at this stop"}>
      <h3>{ended ? "Final state" : "State at this stop"}</h3>
      <p className="hint">
        {ended ? "nothing left to run" : <>next: {state.next.join(", ")}</>}; step{" "}
        {String((state.metadata as { step?: unknown } | undefined)?.step ?? "?")}, checkpoint{" "}
        <code>{state.checkpoint?.checkpoint_id?.slice(0, 13) ?? "—"}</code>
      </p>
      <pre className="json" aria-label="Values">
        {pretty(state.values)}
      </pre>
      {questions.length ? (
        <>
          <h4>Waiting for an answer</h4>
          {questions.map((question, index) => (
            <pre key={index} className="json" aria-label="Interrupt">
              {pretty(question)}
            </pre>
          ))}
        </>
      ) : null}
    </section>
  );
}
