// Server-sent events: `event: <kind>\ndata: <json>\nid: <id>\n\n`, with `Content-Location` (the
// run) and `Location` (its resumable stream) headers, and a heartbeat comment every few seconds
// so the official client's reconnect watchdog arms.
import type { Request, Response } from "express";
import type { RunEvent } from "../queue/types";

let open = 0;

/** Event streams being sent by this process now (the metrics' subscribers). */
export function openEventStreams(): number {
  return open;
}

export async function sendEventStream(
  req: Request,
  res: Response,
  /** The run streamed (its `Content-Location` and resumable `Location`); none for a thread stream. */
  location: { threadId: string; runId: string } | undefined,
  events: (signal: AbortSignal) => AsyncIterable<RunEvent>,
  options: { heartbeatMs?: number; onDisconnect?: () => void } | (() => void) = {},
): Promise<void> {
  // A bare function is the disconnect callback (the first form of this helper).
  const { heartbeatMs = 5_000, onDisconnect } = typeof options === "function" ? { onDisconnect: options } : options;
  const controller = new AbortController();
  let finished = false;
  res.on("close", () => {
    if (!finished) {
      controller.abort();
      onDisconnect?.();
    }
  });
  res.writeHead(200, {
    "Content-Type": "text/event-stream",
    // `no-cache`, as the official server sends: with `no-store` Chromium reports every stream that
    // ends (fetch read to its last chunk) as failed with net::ERR_ABORTED.
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
    ...(location && {
      "Content-Location": `/threads/${location.threadId}/runs/${location.runId}`,
      Location: `/threads/${location.threadId}/runs/${location.runId}/stream`,
    }),
  });
  // Events that arrive together leave in one write; the headers leave with the first ones (a
  // run's stream has its metadata event at once), or alone at the next turn of the event loop.
  let corked = false;
  let written = false;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    if (!written && !res.writableEnded) res.flushHeaders();
    res.uncork();
  };
  const cork = () => {
    if (corked) return;
    corked = true;
    res.cork();
    setImmediate(uncork);
  };
  cork();
  // A comment line with no blank line after it: a blank line would make the official client
  // (which keeps the last event id) dispatch an empty event.
  const heartbeat = setInterval(() => res.write(": heartbeat\n"), heartbeatMs);
  open += 1;
  try {
    for await (const event of events(controller.signal)) {
      cork();
      written = true;
      res.write(`event: ${event.event}\ndata: ${event.data}\nid: ${event.id}\n\n`);
    }
  } catch (error) {
    if (!controller.signal.aborted) req.log.error({ err: error }, "event stream failed");
  } finally {
    open -= 1;
    finished = true;
    clearInterval(heartbeat);
    // Uncorked before it ends: from Node 22 a response's writes made while corked go as one
    // chunk at its uncork, and end() sends the last chunk before them (the client's stream ends
    // after the first event, and the rest are lost).
    uncork();
    res.end();
  }
}
