import type { RunFinishedHooks } from "../runs/finished";
import type { WebhookDispatcher } from "./dispatcher";
import { webhookPayload } from "./payload";

/** Calls a run's `webhook` once it has ended. */
export function attachWebhooks(finishedRuns: Pick<RunFinishedHooks, "on">, dispatcher: WebhookDispatcher): void {
  finishedRuns.on(async (finished) => {
    const url = finished.run.kwargs.webhook;
    if (!url) return;
    await dispatcher.dispatch({ url, payload: webhookPayload(finished), runId: finished.run.run_id });
  });
}
