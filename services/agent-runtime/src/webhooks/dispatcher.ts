// Sends webhooks off the run's path: dispatch() only records the delivery (a BullMQ job with
// Redis, a task in this process without) and returns; retries back off exponentially.
import { Queue, UnrecoverableError, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger, OutboundFetch } from "@lgp/server-kit";
import { InFlight } from "../common/in-flight";
import { closeBullmq } from "../queue/bullmq-close";
import { redisConnection } from "../queue/redis";
import { backoffDelay, deliverWebhook, redact, WebhookDeliveryError } from "./deliver";

export interface WebhookDelivery {
  url: string;
  /** The JSON body. */
  payload: Record<string, unknown>;
  /** For logs: which run the delivery is about. */
  runId?: string;
}

export interface WebhookOptions {
  /** Total attempts, the first included. */
  attempts: number;
  /** Delay before the first retry; doubled for each further one. */
  baseDelayMs: number;
  /** How long one POST may take. */
  timeoutMs: number;
  /** The fetch for webhook URLs given in runs: the outbound policy's. */
  outbound?: OutboundFetch;
  /** Called once per delivery when it is settled (delivered, or given up), in the delivering process. */
  onSettled?: (outcome: WebhookOutcome) => void;
}

export interface WebhookOutcome {
  delivery: WebhookDelivery;
  delivered: boolean;
  attempts: number;
}

export interface WebhookDispatcher {
  /** Records a delivery; never throws and never waits for the receiver. */
  dispatch(delivery: WebhookDelivery): Promise<void>;
  /** Starts delivering (Redis: a BullMQ worker in this process; in-process: always on). */
  startWorker(concurrency: number): void;
  close(): Promise<void>;
}

/** Without Redis: deliveries and their retries are timers in this process (lost on restart). */
export class InProcessWebhookDispatcher implements WebhookDispatcher {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new InFlight();
  private closed = false;

  constructor(
    private readonly options: WebhookOptions,
    private readonly logger: Logger,
  ) {}

  async dispatch(delivery: WebhookDelivery): Promise<void> {
    if (this.closed) return;
    this.attempt(delivery, JSON.stringify(delivery.payload), 1);
  }

  startWorker(): void {}

  private attempt(delivery: WebhookDelivery, body: string, attempt: number): void {
    const task = deliverWebhook(delivery.url, body, this.options.timeoutMs, this.options.outbound).then(
      () => {
        this.logger.debug({ runId: delivery.runId, attempt }, "webhook delivered");
        this.options.onSettled?.({ delivery, delivered: true, attempts: attempt });
      },
      (error: unknown) => {
        const retryable = !(error instanceof WebhookDeliveryError) || error.retryable;
        if (!retryable || attempt >= this.options.attempts || this.closed) {
          this.logger.warn(
            { runId: delivery.runId, attempt, reason: (error as Error).message },
            "webhook not delivered; giving up",
          );
          this.options.onSettled?.({ delivery, delivered: false, attempts: attempt });
          return;
        }
        this.logger.info(
          { runId: delivery.runId, attempt, reason: (error as Error).message },
          "webhook failed; will retry",
        );
        const timer = setTimeout(
          () => {
            this.timers.delete(timer);
            this.attempt(delivery, body, attempt + 1);
          },
          backoffDelay(this.options.baseDelayMs, attempt),
        );
        this.timers.add(timer);
      },
    );
    void this.inFlight.track(task);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.inFlight.settled();
  }
}

/** With Redis: one BullMQ job per delivery, retried by BullMQ, taken by any process with workers. */
export class RedisWebhookDispatcher implements WebhookDispatcher {
  private readonly queue: Queue<WebhookDelivery>;
  private worker?: Worker<WebhookDelivery>;
  private readonly deliveries = new InFlight();
  // BullMQ leaves connections it was given open on close(); these are closed here.
  private readonly connections: Redis[] = [];

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    private readonly options: WebhookOptions,
    private readonly logger: Logger,
    private readonly name = "webhooks",
  ) {
    this.queue = new Queue<WebhookDelivery>(name, { connection: this.connect(), prefix });
    this.queue.on("error", (error) => logger.error({ err: error }, "webhook queue error"));
  }

  async dispatch(delivery: WebhookDelivery): Promise<void> {
    try {
      await this.queue.add("webhook", delivery, {
        attempts: this.options.attempts,
        backoff: { type: "exponential", delay: this.options.baseDelayMs },
        removeOnComplete: true,
        removeOnFail: 1000,
      });
    } catch (error) {
      this.logger.error({ err: error, runId: delivery.runId, url: redact(delivery.url) }, "cannot queue a webhook");
    }
  }

  startWorker(concurrency: number): void {
    if (this.worker || concurrency <= 0) return;
    this.worker = new Worker<WebhookDelivery>(
      this.name,
      async (job: Job<WebhookDelivery>) => {
        try {
          await this.deliveries.track(
            deliverWebhook(
              job.data.url,
              JSON.stringify(job.data.payload),
              this.options.timeoutMs,
              this.options.outbound,
            ),
          );
        } catch (error) {
          if (error instanceof WebhookDeliveryError && !error.retryable) throw new UnrecoverableError(error.message);
          throw error;
        }
      },
      { connection: this.connect(), prefix: this.prefix, concurrency },
    );
    this.worker.on("completed", (job) => {
      this.options.onSettled?.({ delivery: job.data, delivered: true, attempts: job.attemptsMade });
    });
    this.worker.on("failed", (job, error) => {
      const final = !job || job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError;
      this.logger[final ? "warn" : "info"](
        { runId: job?.data.runId, attempt: job?.attemptsMade, reason: error.message },
        final ? "webhook not delivered; giving up" : "webhook failed; will retry",
      );
      if (final && job) this.options.onSettled?.({ delivery: job.data, delivered: false, attempts: job.attemptsMade });
    });
    this.worker.on("error", (error) => this.logger.error({ err: error }, "webhook worker error"));
  }

  private connect(): Redis {
    const connection = redisConnection(this.url);
    this.connections.push(connection);
    return connection;
  }

  async close(): Promise<void> {
    await closeBullmq({
      workers: [this.worker],
      queue: this.queue,
      connections: this.connections,
      jobs: this.deliveries,
      logger: this.logger,
      what: "webhook queue",
    });
  }
}
