import { Fragment, useMemo } from "react";
import { pretty } from "../runtime";
import { customEvents, nodeUpdates, streamedMessages, toolCalls, type RawEvent } from "./events";

const PREVIEW = 120;
const preview = (data: unknown) => {
  const json = JSON.stringify(data) ?? "";
  return json.length > PREVIEW ? `${json.slice(0, PREVIEW)}…` : json;
};

/**
 * What the run streamed, as it arrives: the messages token by token (`messages-tuple`), the tool
 * calls with their results, the custom stream, each node's update, and every event raw. `events`
 * are the session's; the panels but the raw one show those from `firstRun` on (the latest start).
 */
export function StreamPanels({ events, firstRun }: { events: RawEvent[]; firstRun: number }) {
  const current = useMemo(() => events.filter((event) => event.run >= firstRun), [events, firstRun]);
  const messages = useMemo(() => streamedMessages(current), [current]);
  const calls = useMemo(() => toolCalls(current), [current]);
  const custom = useMemo(() => customEvents(current), [current]);
  const updates = useMemo(() => nodeUpdates(current), [current]);
  return (
    <div className="debug-panels">
      <Panel title="Tokens" count={messages.length} empty="No message streamed yet.">
        {messages.map((message) => (
          <li key={message.id} aria-label={`${message.type} message from ${message.node}`}>
            <code>{message.node}</code> {message.type}
            {message.tokens > 1 ? <span className="hint"> · {message.tokens} tokens</span> : null}
            <div className="token-text">{message.text || "(no text)"}</div>
          </li>
        ))}
      </Panel>
      <Panel title="Tool calls" count={calls.length} empty="No tool called yet.">
        {calls.map((call) => (
          <li key={call.id} aria-label={`Tool call ${call.name}`}>
            <code>{call.name}</code> from <code>{call.node}</code>
            <pre>{pretty(call.args)}</pre>
            {call.result !== undefined ? (
              <pre aria-label={`Result of ${call.name}`}>
                {call.status === "error" ? "error: " : ""}
                {call.result}
              </pre>
            ) : (
              <p className="hint">waiting for its result…</p>
            )}
          </li>
        ))}
      </Panel>
      <Panel title="Custom events" count={custom.length} empty="Nothing written to the custom stream yet.">
        {custom.map((item) => (
          <li key={item.seq}>
            {item.from ? (
              <>
                from <code>{item.from}</code>
              </>
            ) : null}
            <pre>{pretty(item.data)}</pre>
          </li>
        ))}
      </Panel>
      <Panel title="Updates" count={updates.length} empty="No node has finished yet.">
        {updates.map((update) => (
          <li key={`${update.seq}-${update.node}`}>
            <code>{update.node}</code>
            <pre>{preview(update.value)}</pre>
          </li>
        ))}
      </Panel>
      <Panel title="Raw events" count={events.length} empty="No event yet." className="raw-events">
        {events.map((event, index) => (
          <Fragment key={event.seq}>
            {index === 0 || events[index - 1].run !== event.run ? (
              <li className="run-mark" aria-hidden="true">
                run {event.run}
              </li>
            ) : null}
            <li aria-label={`event ${event.event}`}>
              <details>
                <summary>
                  <code>{event.event}</code> <span className="hint">{preview(event.data)}</span>
                </summary>
                <pre>{pretty(event.data)}</pre>
              </details>
            </li>
          </Fragment>
        ))}
      </Panel>
    </div>
  );
}

function Panel({
  title,
  count,
  empty,
  className,
  children,
}: {
  title: string;
  count: number;
  empty: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-label={title} className={className}>
      <h3>
        {title} <span className="hint">({count})</span>
      </h3>
      {count ? <ol aria-label={title}>{children}</ol> : <p className="hint">{empty}</p>}
    </section>
  );
}
