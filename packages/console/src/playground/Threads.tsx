import { useEffect, useState } from "react";
import type { Assistant, Thread, ThreadStatus } from "@langchain/langgraph-sdk";
import { useSearchParams } from "react-router";
import { ErrorMessage } from "../components/ErrorMessage";
import { SelectField } from "../components/SelectField";
import { formatTime } from "../components/time";
import { useRuntime } from "./runtime";
import { ThreadDetail } from "./threads/ThreadDetail";

const PAGE = 20;
const STATUSES = ["idle", "busy", "interrupted", "error"];

/**
 * The threads the assistant ran on (its id is in their metadata; filtered by status, paged), and
 * one thread's state and timeline (threads/): opening one in the chat continues it with the same
 * assistant.
 */
export function Threads({ assistant }: { assistant: Assistant }) {
  const { client } = useRuntime();
  const [params] = useSearchParams();
  const [status, setStatus] = useState("");
  const [offset, setOffset] = useState(0);
  const [threads, setThreads] = useState<Thread[] | null>(null);
  const [selected, setSelected] = useState<string | null>(params.get("thread"));
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    client.threads
      .search({
        limit: PAGE,
        offset,
        metadata: { assistant_id: assistant.assistant_id },
        status: (status || undefined) as ThreadStatus | undefined,
        sortBy: "updated_at",
        sortOrder: "desc",
      })
      .then(setThreads, setError);
  }, [client, status, offset, assistant.assistant_id]);

  return (
    <div className="threads">
      <div className="filters">
        <SelectField
          label="Status"
          value={status}
          options={STATUSES}
          anyLabel="any"
          onChange={(value) => {
            setOffset(0);
            setStatus(value);
          }}
        />
      </div>
      <ErrorMessage error={error} />
      {threads && threads.length === 0 ? <p className="empty">No threads{status ? ` ${status}` : ""}.</p> : null}
      <ul className="thread-list" aria-label="Threads">
        {(threads ?? []).map((thread) => (
          <li key={thread.thread_id} className={thread.thread_id === selected ? "selected" : undefined}>
            <button type="button" className="link" onClick={() => setSelected(thread.thread_id)}>
              <code>{thread.thread_id.slice(0, 8)}</code>
            </button>{" "}
            <span className={`badge ${thread.status === "error" ? "bad" : thread.status === "idle" ? "good" : "busy"}`}>
              {thread.status}
            </span>{" "}
            <span className="when">{formatTime(thread.updated_at)}</span>
          </li>
        ))}
      </ul>
      <nav className="pager" aria-label="Thread pages">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Previous
        </button>
        <button type="button" disabled={!threads || threads.length < PAGE} onClick={() => setOffset(offset + PAGE)}>
          Next
        </button>
      </nav>
      {selected ? <ThreadDetail key={selected} threadId={selected} assistant={assistant} /> : null}
    </div>
  );
}
