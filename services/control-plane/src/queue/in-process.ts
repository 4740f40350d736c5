import type { Logger } from "@lgp/server-kit";
import { delay, jobKey, type JobHandler, type ReconcileJob, type ReconcileQueue } from "./queue";

/** FIFO in memory with bounded concurrency: the embedded mode's queue. */
export class InProcessQueue implements ReconcileQueue {
  readonly kind = "in-process";
  private readonly waiting: ReconcileJob[] = [];
  private readonly keys = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private handler: JobHandler | null = null;
  private concurrency = 1;
  private closed = false;

  constructor(private readonly logger: Logger) {}

  async enqueue(job: ReconcileJob): Promise<void> {
    if (this.closed) return;
    const key = jobKey(job);
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.waiting.push(job);
    this.pump();
  }

  async process(handler: JobHandler, concurrency: number): Promise<void> {
    this.handler = handler;
    this.concurrency = Math.max(1, concurrency);
    this.pump();
  }

  private pump(): void {
    while (this.handler && !this.closed && this.running.size < this.concurrency && this.waiting.length) {
      const job = this.waiting.shift()!;
      // The key is released when the job starts: an enqueue during the run queues a follow-up.
      this.keys.delete(jobKey(job));
      const run = this.handler(job)
        .catch((error: unknown) => this.logger.error({ err: error, job }, "reconcile job failed"))
        .finally(() => {
          this.running.delete(run);
          this.pump();
        });
      this.running.add(run);
    }
  }

  async close(graceMs = 10_000): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    await Promise.race([Promise.allSettled([...this.running]), delay(graceMs)]);
  }
}
