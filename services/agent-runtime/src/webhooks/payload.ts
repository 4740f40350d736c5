import type { RunFinished } from "../runs/finished";
import { toRun } from "../runs/service";

/**
 * What a webhook receives when a run ends: the run record with its final status, the thread's
 * values at the end, and the error message when it failed (the reference server's shape).
 */
export function webhookPayload(finished: RunFinished, endedAt: Date = new Date()): Record<string, unknown> {
  return {
    ...toRun(finished.run),
    status: finished.status,
    values: finished.values ?? null,
    run_ended_at: endedAt.toISOString(),
    ...(finished.error ? { error: finished.error.message, error_type: finished.error.error } : {}),
  };
}
