import { useState } from "react";
import type { Assistant, Message } from "@langchain/langgraph-sdk";
import { useStream } from "@langchain/langgraph-sdk/react";
import { useSearchParams } from "react-router";
import { ErrorMessage } from "../components/ErrorMessage";
import { pretty, textOf, useRuntime } from "./runtime";

/**
 * A chat with the assistant through the official `useStream`: streamed messages, tool calls with
 * their results, and interrupts answered with a resume value. The thread is kept in the URL, so a
 * reload rejoins it (and a run in flight).
 */
export function Chat({ assistant }: { assistant: Assistant }) {
  const { client } = useRuntime();
  const [params, setParams] = useSearchParams();
  const threadId = params.get("thread");
  const [error, setError] = useState<unknown>(null);
  const [text, setText] = useState("");
  const stream = useStream<{ messages: Message[] }>({
    client,
    assistantId: assistant.assistant_id,
    threadId,
    messagesKey: "messages",
    reconnectOnMount: true,
    onThreadId: (id) => {
      const next = new URLSearchParams(params);
      next.set("thread", id);
      setParams(next, { replace: true });
    },
    onError: (cause) => setError(cause),
  });

  const send = (event: React.FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setError(null);
    void stream.submit({ messages: [{ type: "human", content: text }] } as never, { streamResumable: true });
    setText("");
  };
  const newThread = () => {
    const next = new URLSearchParams(params);
    next.delete("thread");
    setParams(next);
  };
  const toolResults = new Map(
    stream.messages
      .filter((message) => message.type === "tool")
      .map((message) => [(message as { tool_call_id?: string }).tool_call_id, message]),
  );

  return (
    <div className="chat">
      <div className="heading">
        <h2>Chat with {assistant.name}</h2>
        <span className="hint">
          {threadId ? (
            <>
              thread <code>{threadId.slice(0, 8)}</code>
            </>
          ) : (
            "new thread"
          )}
        </span>
        <button type="button" className="secondary small" onClick={newThread}>
          New thread
        </button>
      </div>
      <ol className="messages" aria-label="Messages">
        {stream.messages
          .filter((message) => message.type !== "tool")
          .map((message, index) => (
            <li key={message.id ?? index} className={`message ${message.type}`}>
              <span className="who">
                {message.type === "human" ? "You" : message.type === "ai" ? assistant.name : message.type}
              </span>
              {textOf(message.content) ? <p className="text">{textOf(message.content)}</p> : null}
              {((message as { tool_calls?: { id?: string; name: string; args: unknown }[] }).tool_calls ?? []).map(
                (call, callIndex) => (
                  <details key={call.id ?? callIndex} className="tool-call" open>
                    <summary>
                      Tool call <code>{call.name}</code>
                    </summary>
                    <pre>{pretty(call.args)}</pre>
                    {call.id && toolResults.has(call.id) ? (
                      <pre className="tool-result" aria-label={`Result of ${call.name}`}>
                        {textOf(toolResults.get(call.id)!.content)}
                      </pre>
                    ) : (
                      <p className="hint">waiting for its result…</p>
                    )}
                  </details>
                ),
              )}
            </li>
          ))}
      </ol>
      {/* The live region is this short line, not the messages (read token by token otherwise). */}
      <p className="hint" role="status">
        {stream.isLoading ? (
          <>
            Running…{" "}
            <button type="button" className="link" onClick={() => void stream.stop()}>
              Stop
            </button>
          </>
        ) : stream.interrupt ? (
          "Waiting for your answer."
        ) : null}
      </p>
      {stream.interrupt ? (
        <InterruptForm
          value={stream.interrupt.value}
          onResume={(resume) => void stream.submit(undefined, { command: { resume } })}
        />
      ) : null}
      <ErrorMessage error={error} />
      <form className="composer" onSubmit={send} aria-label="Send a message">
        <label htmlFor="chat-input" className="sr-only">
          Message
        </label>
        <input id="chat-input" value={text} onChange={(event) => setText(event.target.value)} placeholder="Message" />
        <button type="submit" disabled={stream.isLoading || !text.trim()}>
          Send
        </button>
      </form>
    </div>
  );
}

/**
 * An interrupt's question, and the value to resume with: JSON when it parses, text otherwise.
 * Questions that ask for approval get Approve and Reject at once.
 */
function InterruptForm({ value, onResume }: { value: unknown; onResume: (resume: unknown) => void }) {
  const [answer, setAnswer] = useState("");
  const asksApproval = typeof value === "object" && value !== null && /approve/i.test(JSON.stringify(value));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    let resume: unknown = answer;
    try {
      resume = JSON.parse(answer);
    } catch {
      // Not JSON: resume with the text as typed.
    }
    onResume(resume);
    setAnswer("");
  };
  return (
    <section className="interrupt card" aria-label="Interrupt">
      <h3>The agent is waiting for you</h3>
      <pre>{pretty(value)}</pre>
      {asksApproval ? (
        <div className="actions">
          <button type="button" onClick={() => onResume({ approved: true })}>
            Approve
          </button>{" "}
          <button type="button" className="secondary" onClick={() => onResume({ approved: false })}>
            Reject
          </button>
        </div>
      ) : null}
      <form onSubmit={submit}>
        <label htmlFor="resume-value">Answer (JSON or text)</label>
        <textarea id="resume-value" rows={3} value={answer} onChange={(event) => setAnswer(event.target.value)} />
        <div className="actions">
          <button type="submit">Resume</button>
        </div>
      </form>
    </section>
  );
}
