import { Queue, Worker } from "bullmq";
import type { Logger } from "@lgp/server-kit";
import { delay, jobKey, type JobHandler, type ReconcileJob, type ReconcileQueue } from "./queue";

export interface BullQueueOptions {
  redisUrl: string;
  /** Queue name; `revisions` in production, a random one per test file. */
  name?: string;
  /** Redis key prefix (BullMQ's default is `bull`). */
  prefix?: string;
}

/**
 * BullMQ's `revisions` queue. A job's id is its subject, so a revision waiting or running is never
 * queued twice; finished jobs are removed so the same subject can be queued again later. A worker
 * that dies mid-job loses its lock and BullMQ hands the job to another worker (stalled recovery).
 */
export class BullReconcileQueue implements ReconcileQueue {
  readonly kind = "bullmq";
  private readonly queue: Queue;
  private worker: Worker | null = null;
  private readonly connection: { url: string; maxRetriesPerRequest: null };

  constructor(
    private readonly options: BullQueueOptions,
    private readonly logger: Logger,
  ) {
    this.connection = { url: options.redisUrl, maxRetriesPerRequest: null };
    this.queue = new Queue(options.name ?? "revisions", { connection: this.connection, prefix: options.prefix });
    this.queue.on("error", (error) => this.logger.error({ err: error }, "revisions queue error"));
  }

  async enqueue(job: ReconcileJob): Promise<void> {
    await this.queue.add(job.type, job, {
      jobId: jobKey(job),
      removeOnComplete: true,
      removeOnFail: true,
      attempts: 3,
      backoff: { type: "exponential", delay: 1000 },
    });
  }

  async process(handler: JobHandler, concurrency: number): Promise<void> {
    this.worker = new Worker(
      this.options.name ?? "revisions",
      async (job) => {
        await handler(job.data as ReconcileJob);
      },
      { connection: this.connection, prefix: this.options.prefix, concurrency: Math.max(1, concurrency) },
    );
    this.worker.on("error", (error) => this.logger.error({ err: error }, "revisions worker error"));
    this.worker.on("failed", (job, error) => this.logger.error({ err: error, job: job?.data }, "reconcile job failed"));
    await this.worker.waitUntilReady();
  }

  async close(graceMs = 10_000): Promise<void> {
    if (this.worker) {
      const closed = await Promise.race([this.worker.close().then(() => true), delay(graceMs).then(() => false)]);
      // Jobs still running are handed back: BullMQ treats them as stalled and another worker resumes
      // them. A forced close now would return the close under way (BullMQ's), so none is awaited.
      if (!closed)
        this.logger.warn({ graceMs }, "revision jobs still running after the grace are left to another worker");
    }
    // Bounded too: with Redis down BullMQ's close waits for a reconnection.
    await Promise.race([this.queue.close(), delay(graceMs)]);
  }
}
