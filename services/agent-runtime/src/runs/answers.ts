// Answers that come after a run was created and take as long as the run: shared by the create
// routes and by an idempotent repeat that joins the run its first request created.
import type { Response } from "express";

/**
 * What a client leaving a run's stream or wait does: with `on_disconnect: "cancel"` in the body
 * that created the run, it cancels the run; otherwise the run goes on (undefined).
 */
export function cancelOnLeave(
  runs: { cancel(threadId: string, runId: string): Promise<unknown> },
  body: { on_disconnect?: string | null },
  run: { thread_id: string; run_id: string },
): (() => void) | undefined {
  return body.on_disconnect === "cancel"
    ? () => void runs.cancel(run.thread_id, run.run_id).catch(() => undefined)
    : undefined;
}

export interface RunOutcomeLike {
  values: unknown;
  error?: { error: string; message: string };
}

/**
 * A /runs/wait answer: the run's outcome once it has ended (its values, with `__error__` when it
 * failed). A client that leaves stops the wait, and cancels the run through `onLeave` when its
 * body said `on_disconnect: "cancel"`.
 */
export async function answerWhenEnded(
  res: Response,
  outcome: (signal: AbortSignal) => Promise<RunOutcomeLike>,
  onLeave?: () => void,
): Promise<void> {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableEnded) {
      controller.abort();
      onLeave?.();
    }
  });
  const result = await outcome(controller.signal);
  if (controller.signal.aborted) return;
  res.json(result.error ? { ...(result.values as object), __error__: result.error } : result.values);
}
