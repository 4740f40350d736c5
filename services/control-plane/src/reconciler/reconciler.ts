import type { Logger } from "@lgp/server-kit";
import type { Db } from "../db";
import type { Deployer } from "../deployers/deployer";
import type { ReconcileJob, ReconcileQueue } from "../queue";
import { RevisionRepository } from "../revisions/repository";
import type { SecretCipher } from "../secrets/cipher";
import type { ReconcilerContext } from "./context";
import { deleteDeployment } from "./deletion";
import { restoreRevision } from "./restore";
import { RevisionDriver } from "./revision-driver";
import { Moved, Transitions } from "./transitions";

export interface ReconcilerOptions {
  /** Revisions handled at the same time by this process. */
  concurrency?: number;
  /** Restarts that may cut a revision off mid-step before it is marked INTERRUPTED. */
  maxInterruptions?: number;
  /** How often unfinished work is queued again (0: only at start). */
  sweepIntervalMs?: number;
  /**
   * A step (BUILDING, DEPLOYING) whose revision row has not been touched for this long is taken
   * as cut off; while a step runs its reconciler touches the row every third of it.
   */
  leaseMs?: number;
}

/**
 * The loop: takes the queue's jobs (one handler per subject in this process) and hands each to its
 * part: revision jobs to the RevisionDriver (revision-driver.ts), restores of an active revision
 * that no longer serves (restore.ts), deletions (deletion.ts). Every transition is a row update
 * guarded by the expected current status (transitions.ts), so several reconcilers (replicas sharing
 * the BullMQ queue, or a restart) never both move one revision. A periodic sweep queues lost work again.
 */
export class Reconciler {
  private readonly revisions: RevisionRepository;
  private readonly context: ReconcilerContext;
  private readonly driver: RevisionDriver;
  private readonly handling = new Set<string>();
  private readonly concurrency: number;
  private readonly sweepIntervalMs: number;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly deployer: Deployer,
    private readonly queue: ReconcileQueue,
    cipher: SecretCipher,
    private readonly logger: Logger,
    options: ReconcilerOptions = {},
  ) {
    this.revisions = new RevisionRepository(db);
    this.context = { db, deployer, revisions: this.revisions, cipher, logger };
    this.driver = new RevisionDriver(
      this.context,
      new Transitions(this.revisions, logger, options.leaseMs ?? 30_000),
      options.maxInterruptions ?? 2,
    );
    this.concurrency = options.concurrency ?? 4;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
  }

  /** Re-queues what a previous run left unfinished, then starts taking jobs. */
  async start(): Promise<void> {
    await this.queue.process((job) => this.handle(job), this.concurrency);
    await this.resume();
    if (this.sweepIntervalMs > 0) {
      this.sweepTimer = setInterval(() => {
        this.sweep().catch((error: unknown) => this.logger.warn({ err: error }, "reconciler sweep failed"));
      }, this.sweepIntervalMs);
      this.sweepTimer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await this.queue.close();
  }

  /**
   * Periodically: work whose job was lost (queueing failed while Redis was away, a job failed on
   * a database error) is queued again; BullMQ ignores subjects whose job still exists and this
   * process skips what it is handling. The local deployer's runtimes are supervised here too: an
   * active revision whose process died is started again.
   */
  async sweep(): Promise<void> {
    const before = new Date(Date.now() - this.sweepIntervalMs);
    for (const revision of await this.revisions.unfinished(before)) {
      await this.queue.enqueue({ type: "revision", revisionId: revision.id });
    }
    const deleting = await this.db.deployment.findMany({
      where: { status: "AWAITING_DELETE", updatedAt: { lt: before } },
      select: { id: true },
    });
    for (const { id } of deleting) await this.queue.enqueue({ type: "delete", deploymentId: id });
    if (this.deployer.kind === "local") await this.enqueueRestores();
  }

  /**
   * After a restart: unfinished revisions and deletions are queued again (BullMQ ignores the ones
   * whose job still exists), and active revisions that no longer serve are started again.
   */
  async resume(): Promise<void> {
    for (const revision of await this.revisions.unfinished()) {
      await this.queue.enqueue({ type: "revision", revisionId: revision.id });
    }
    const deleting = await this.db.deployment.findMany({ where: { status: "AWAITING_DELETE" }, select: { id: true } });
    for (const { id } of deleting) await this.queue.enqueue({ type: "delete", deploymentId: id });
    await this.enqueueRestores();
  }

  private async enqueueRestores(): Promise<void> {
    const active = await this.db.deployment.findMany({
      where: { activeRevisionId: { not: null }, status: { not: "AWAITING_DELETE" } },
      select: { activeRevisionId: true },
    });
    for (const { activeRevisionId } of active) {
      await this.queue.enqueue({ type: "restore", revisionId: activeRevisionId! });
    }
  }

  async handle(job: ReconcileJob): Promise<void> {
    const key = job.type === "delete" ? `d:${job.deploymentId}` : `r:${job.revisionId}`;
    // One handler per subject in this process (a resume may queue what is already running here).
    if (this.handling.has(key)) return;
    this.handling.add(key);
    try {
      if (job.type === "revision") await this.driver.drive(job.revisionId);
      else if (job.type === "restore") await restoreRevision(this.context, job.revisionId);
      else await deleteDeployment(this.context, job.deploymentId);
    } catch (error) {
      if (!(error instanceof Moved)) throw error;
    } finally {
      this.handling.delete(key);
    }
  }
}
