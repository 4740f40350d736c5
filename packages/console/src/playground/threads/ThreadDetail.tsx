import { useCallback, useEffect, useState } from "react";
import type { Assistant, ThreadState } from "@langchain/langgraph-sdk";
import { Link } from "react-router";
import { ErrorMessage } from "../../components/ErrorMessage";
import { pretty, useRuntime } from "../runtime";
import { Timeline } from "./Timeline";

/** A thread: its current state, and its timeline of checkpoints to travel in. */
export function ThreadDetail({ threadId, assistant }: { threadId: string; assistant: Assistant }) {
  const { client, deploymentId } = useRuntime();
  const [state, setState] = useState<ThreadState | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(async () => {
    try {
      setState(await client.threads.getState(threadId));
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, [client, threadId]);
  useEffect(() => {
    void load();
  }, [load]);
  const chat = new URLSearchParams({ assistant: assistant.assistant_id, thread: threadId });
  return (
    <section className="card" aria-label="Thread">
      <div className="heading">
        <h3>
          Thread <code>{threadId}</code>
        </h3>
        <Link to={{ pathname: `/deployments/${deploymentId}/playground/chat`, search: chat.toString() }}>
          Open in chat
        </Link>
      </div>
      <ErrorMessage error={error} />
      {state ? (
        <>
          <h4>State</h4>
          <p className="hint">
            next: {state.next.length ? state.next.join(", ") : "nothing (finished)"}; checkpoint{" "}
            <code>{state.checkpoint?.checkpoint_id ?? "—"}</code>
          </p>
          <pre className="json" aria-label="State values">
            {pretty(state.values)}
          </pre>
        </>
      ) : null}
      <Timeline threadId={threadId} assistant={assistant} onChanged={load} />
    </section>
  );
}
