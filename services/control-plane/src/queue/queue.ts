/**
 * The `revisions` queue: what the API asks the reconciler to do. One interface, two
 * implementations: BullMQ when REDIS_URL is set (several control-plane replicas share the work and
 * a job survives a restart), an in-process queue otherwise (embedded mode; on a restart the
 * reconciler re-enqueues unfinished revisions from the database).
 */
export type ReconcileJob =
  /** Drive a revision through its states until it is terminal. */
  | { type: "revision"; revisionId: string }
  /** Tear a deployment down (workloads, database) and remove its rows. */
  | { type: "delete"; deploymentId: string }
  /** Start an active revision again if it no longer serves (after a control-plane restart). */
  | { type: "restore"; revisionId: string };

export type JobHandler = (job: ReconcileJob) => Promise<void>;

export interface ReconcileQueue {
  readonly kind: "bullmq" | "in-process";
  /** Adds a job; a job for the same revision/deployment still waiting is not added twice. */
  enqueue(job: ReconcileJob): Promise<void>;
  /** Starts handing jobs to `handler`, at most `concurrency` at a time. */
  process(handler: JobHandler, concurrency: number): Promise<void>;
  /**
   * Stops taking jobs and waits up to `graceMs` for the running ones; a job cut off after that
   * is resumed later (its revision's lease expires, see the reconciler).
   */
  close(graceMs?: number): Promise<void>;
}

/** Resolves after `ms` (unref'd: it never holds the process open). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A stable id per job subject (BullMQ ids may not contain ':'). */
export function jobKey(job: ReconcileJob): string {
  return job.type === "delete" ? `delete-${job.deploymentId}` : `${job.type}-${job.revisionId}`;
}
