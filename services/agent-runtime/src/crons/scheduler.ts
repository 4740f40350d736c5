// Where cron ticks come from. With Redis: one BullMQ job scheduler per cron; BullMQ creates one
// job per tick (its id derives from the scheduler and the tick time), so however many worker
// processes listen, each tick is taken by exactly one. Without Redis: timers in this process.
import { Queue, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "@lgp/server-kit";
import { InFlight } from "../common/in-flight";
import { closeBullmq } from "../queue/bullmq-close";
import { redisConnection } from "../queue/redis";
import { nextTick, tickAtOrBefore } from "./schedule";

export interface ScheduledCron {
  cronId: string;
  schedule: string;
  /** IANA zone the schedule is read in; null for UTC. */
  timezone: string | null;
  endTime: Date | null;
}

/** Creates the tick's run. */
export type FireHandler = (cronId: string, tickAt: Date) => Promise<void>;

export interface CronScheduler {
  /** Creates or replaces a cron's schedule. */
  upsert(cron: ScheduledCron): Promise<void>;
  remove(cronId: string): Promise<void>;
  /**
   * Fires `handler` for ticks in this process (processes that run workers call it), after making
   * the schedules match `crons` (the enabled crons in the database).
   */
  start(handler: FireHandler, crons: ScheduledCron[]): Promise<void>;
  close(): Promise<void>;
}

interface CronJob {
  cronId: string;
  /** The schedule, to name the tick a late job stands for (BullMQ moves a missed tick to "now"). */
  schedule?: string;
  timezone?: string | null;
}

export class RedisCronScheduler implements CronScheduler {
  private readonly queue: Queue<CronJob>;
  private worker?: Worker<CronJob>;
  private readonly ticks = new InFlight();
  private readonly connections: Redis[] = [];
  private starting?: Promise<void>;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly concurrency = 2,
    private readonly name = "crons",
  ) {
    this.queue = new Queue<CronJob>(name, { connection: this.connect(), prefix });
    this.queue.on("error", (error) => logger.error({ err: error }, "cron queue error"));
  }

  async upsert(cron: ScheduledCron): Promise<void> {
    await this.queue.upsertJobScheduler(
      cron.cronId,
      { pattern: cron.schedule, tz: cron.timezone ?? "UTC", ...(cron.endTime ? { endDate: cron.endTime } : {}) },
      {
        name: "cron",
        data: { cronId: cron.cronId, schedule: cron.schedule, timezone: cron.timezone },
        opts: { removeOnComplete: true, removeOnFail: 100 },
      },
    );
  }

  async remove(cronId: string): Promise<void> {
    await this.queue.removeJobScheduler(cronId);
  }

  start(handler: FireHandler, crons: ScheduledCron[]): Promise<void> {
    this.starting ??= this.begin(handler, crons);
    return this.starting;
  }

  private async begin(handler: FireHandler, crons: ScheduledCron[]): Promise<void> {
    // Rebuild: schedules lost with Redis come back, schedules of deleted crons go.
    const wanted = new Set(crons.map((cron) => cron.cronId));
    for (const cron of crons) await this.upsert(cron);
    for (const scheduler of await this.queue.getJobSchedulers(0, -1)) {
      const id = scheduler.id ?? scheduler.key;
      if (id && !wanted.has(id)) await this.remove(id);
    }
    if (this.closed) return;
    this.worker = new Worker<CronJob>(
      this.name,
      async (job: Job<CronJob>) => {
        const due = new Date(job.timestamp + (job.opts.delay ?? 0));
        // A tick BullMQ scheduled late (past its time, under load) is the schedule's tick it stands for.
        return this.ticks.track(
          handler(job.data.cronId, job.data.schedule ? tickAtOrBefore(job.data.schedule, due, job.data.timezone) : due),
        );
      },
      { connection: this.connect(), prefix: this.prefix, concurrency: this.concurrency },
    );
    this.worker.on("failed", (job, error) =>
      this.logger.warn({ cronId: job?.data.cronId, err: error }, "cron tick failed"),
    );
    this.worker.on("error", (error) => this.logger.error({ err: error }, "cron worker error"));
  }

  private connect(): Redis {
    const connection = redisConnection(this.url);
    this.connections.push(connection);
    return connection;
  }

  async close(): Promise<void> {
    // A start still under way (waiting on Redis) creates no worker once this is set; not waited for.
    this.closed = true;
    await closeBullmq({
      workers: [this.worker],
      queue: this.queue,
      connections: this.connections,
      jobs: this.ticks,
      logger: this.logger,
      what: "cron queue",
    });
  }
}

/** setTimeout's limit; longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class MemoryCronScheduler implements CronScheduler {
  private readonly crons = new Map<string, ScheduledCron & { timer?: NodeJS.Timeout; last?: number }>();
  private handler?: FireHandler;
  private closed = false;

  constructor(private readonly logger: Logger) {}

  async upsert(cron: ScheduledCron): Promise<void> {
    this.clear(cron.cronId);
    this.crons.set(cron.cronId, { ...cron });
    this.arm(cron.cronId);
  }

  async remove(cronId: string): Promise<void> {
    this.clear(cronId);
    this.crons.delete(cronId);
  }

  async start(handler: FireHandler, crons: ScheduledCron[]): Promise<void> {
    this.handler = handler;
    for (const cron of crons) await this.upsert(cron);
  }

  private clear(cronId: string): void {
    const entry = this.crons.get(cronId);
    if (entry?.timer) clearTimeout(entry.timer);
  }

  private arm(cronId: string): void {
    const entry = this.crons.get(cronId);
    if (!entry || !this.handler || this.closed) return;
    // Never before the last tick fired: a timer that wakes a little early must not fire it twice.
    const after = new Date(Math.max(Date.now(), entry.last ?? 0));
    const tick = nextTick(entry.schedule, after, entry.endTime, entry.timezone);
    if (!tick) return;
    const wait = tick.getTime() - Date.now();
    entry.timer = setTimeout(
      () => {
        if (wait > MAX_TIMER_MS) return this.arm(cronId);
        entry.last = tick.getTime();
        this.arm(cronId);
        void this.handler!(cronId, tick).catch((error) => this.logger.warn({ cronId, err: error }, "cron tick failed"));
      },
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
    entry.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const cronId of this.crons.keys()) this.clear(cronId);
  }
}
