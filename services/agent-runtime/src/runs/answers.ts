// Answers that come after a run was created and take as long as the run: shared by the create
// routes and by an idempotent repeat that joins the run its first request created.
import type { Response } from "express";

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
