// Deploy logs grow for as long as runtimes run (every request, every graph's line), so they are
// bounded: lines older than the retention age go, and past the size limit a deployment's oldest
// lines go. Build logs are bounded by their build and kept with their revision.
import type { Logger } from "@lgp/server-kit";
import type { Db } from "../db";

export interface RetentionLimits {
  /** Deploy log lines older than this are deleted. */
  maxAgeHours: number;
  /** A deployment keeps at most this many deploy log lines (its newest). */
  maxLinesPerDeployment: number;
}

/** Rows one statement deletes at most, so a first sweep over a large table holds no long lock. */
const BATCH = 20_000;

export class RuntimeLogRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly limits: RetentionLimits,
    private readonly logger: Logger,
  ) {}

  /** Deletes what is past the limits; answers how many lines went. */
  async sweep(now = new Date()): Promise<{ expired: number; overflow: number }> {
    const cutoff = new Date(now.getTime() - this.limits.maxAgeHours * 3_600_000);
    let expired = 0;
    for (;;) {
      const deleted = await this.db.$executeRaw`
        DELETE FROM revision_logs WHERE id IN (
          SELECT id FROM revision_logs WHERE kind = 'deploy' AND "timestamp" < ${cutoff} LIMIT ${BATCH})`;
      expired += deleted;
      if (deleted < BATCH) break;
    }
    let overflow = 0;
    for (;;) {
      const deleted = await this.db.$executeRaw`
        DELETE FROM revision_logs WHERE id IN (
          SELECT id FROM (
            SELECT l.id, row_number() OVER (PARTITION BY r.deployment_id ORDER BY l."timestamp" DESC, l.id DESC) AS n
            FROM revision_logs l JOIN revisions r ON r.id = l.revision_id
            WHERE l.kind = 'deploy'
          ) ranked WHERE n > ${this.limits.maxLinesPerDeployment} LIMIT ${BATCH})`;
      overflow += deleted;
      if (deleted < BATCH) break;
    }
    if (expired || overflow) this.logger.info({ expired, overflow }, "deploy log lines past their retention deleted");
    return { expired, overflow };
  }

  /** Sweeps now and then every `intervalMs`; a failed sweep is logged and tried again next time. */
  start(intervalMs: number): void {
    const run = () => {
      this.running = this.sweep().catch((error: unknown) =>
        this.logger.warn({ err: error }, "deploy log retention sweep failed"),
      );
    };
    run();
    this.timer = setInterval(run, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
