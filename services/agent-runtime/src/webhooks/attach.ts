import type { RunExecutor } from "../runs/executor";
import type { WebhookDispatcher } from "./dispatcher";
import { webhookPayload } from "./payload";

/** Calls a run's `webhook` once it has ended, from the executor's finalisation hook. */
export function attachWebhooks(executor: Pick<RunExecutor, "onRunFinished">, dispatcher: WebhookDispatcher): void {
  executor.onRunFinished(async (finished) => {
    const url = finished.run.kwargs.webhook;
    if (!url) return;
    await dispatcher.dispatch({ url, payload: webhookPayload(finished), runId: finished.run.run_id });
  });
}
