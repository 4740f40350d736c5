import type { Logger } from "@lgp/server-kit";
import type { Db } from "../db";
import {
  DeployerError,
  type BuildResult,
  type Deployer,
  type DeploymentTarget,
  type RevisionTarget,
} from "../deployers/deployer";
import { isSourceBuild, type DeploymentSource, type StoredSecret } from "../deployments/model";
import { decryptSecrets } from "../deployments/secrets";
import type { Deployment as DeploymentRow, Prisma } from "../generated/prisma/client";
import type { ReconcileJob, ReconcileQueue } from "../queue";
import { RevisionRepository, type RevisionRow, type TransitionData } from "../revisions/repository";
import { isTerminal, type RevisionStatus } from "../revisions/status";
import type { SecretCipher } from "../secrets/cipher";
import { RevisionLogWriter } from "./revision-log";

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

/** The reconciler stops driving a revision when a guarded transition finds it moved by someone else. */
class Moved extends Error {}

/**
 * Drives revisions through CREATING -> QUEUED -> AWAITING_BUILD -> BUILDING -> AWAITING_DEPLOY ->
 * DEPLOYING -> DEPLOYED (docker sources skip the build), or to a *_FAILED state with the reason in
 * the revision's log. Every transition is a row update guarded by the expected current status, so
 * several reconcilers (replicas sharing the BullMQ queue, or a restart) never both move one revision.
 * Deletion jobs tear a deployment down and remove its rows.
 */
export class Reconciler {
  private readonly revisions: RevisionRepository;
  private readonly handling = new Set<string>();
  private readonly concurrency: number;
  private readonly maxInterruptions: number;
  private readonly sweepIntervalMs: number;
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly leaseMs: number;

  constructor(
    private readonly db: Db,
    private readonly deployer: Deployer,
    private readonly queue: ReconcileQueue,
    private readonly cipher: SecretCipher,
    private readonly logger: Logger,
    options: ReconcilerOptions = {},
  ) {
    this.revisions = new RevisionRepository(db);
    this.concurrency = options.concurrency ?? 4;
    this.maxInterruptions = options.maxInterruptions ?? 2;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
    this.leaseMs = options.leaseMs ?? 30_000;
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
      if (job.type === "revision") await this.reconcileRevision(job.revisionId);
      else if (job.type === "restore") await this.restore(job.revisionId);
      else await this.deleteDeployment(job.deploymentId);
    } catch (error) {
      if (!(error instanceof Moved)) throw error;
    } finally {
      this.handling.delete(key);
    }
  }

  // ---- revisions ----------------------------------------------------------------------------

  private async reconcileRevision(revisionId: string): Promise<void> {
    let revision = await this.revisions.findById(revisionId);
    if (!revision || isTerminal(revision.status)) return;
    const log = new RevisionLogWriter(this.revisions, revision.id, "deploy", this.logger);
    const buildLog = new RevisionLogWriter(this.revisions, revision.id, "build", this.logger);
    try {
      revision = await this.recoverInterrupted(revision, log);
      if (!revision) return;
      for (;;) {
        const deployment = await this.db.deployment.findUnique({ where: { id: revision.deploymentId } });
        if (!deployment) return;
        if (deployment.status === "AWAITING_DELETE") {
          await this.move(revision, "INTERRUPTED", log, { statusMessage: "the deployment is being deleted" }, true);
          return;
        }
        const next = await this.step(revision, deployment, log, buildLog);
        if (!next || isTerminal(next.status)) return;
        revision = next;
      }
    } finally {
      await Promise.all([log.flush(), buildLog.flush()]);
    }
  }

  /**
   * A revision found mid-step (BUILDING, DEPLOYING) when its job starts, and whose row the step's
   * reconciler has stopped touching (lease expired), was cut off by a restart or a dead worker: it
   * goes back one step and runs again (every deployer step is idempotent), unless it was cut off
   * too often already, then it is INTERRUPTED. A fresh row means another reconciler is on it.
   */
  private async recoverInterrupted(revision: RevisionRow, log: RevisionLogWriter): Promise<RevisionRow | null> {
    const back: Partial<Record<string, RevisionStatus>> = { BUILDING: "AWAITING_BUILD", DEPLOYING: "AWAITING_DEPLOY" };
    const previous = back[revision.status];
    if (!previous) return revision;
    if (revision.updatedAt.getTime() > Date.now() - this.leaseMs) {
      this.logger.info(
        { revision_id: revision.id, status: revision.status },
        "revision step held by another reconciler",
      );
      return null;
    }
    if (revision.interruptions >= this.maxInterruptions) {
      await this.move(revision, "INTERRUPTED", log, {
        statusMessage: `cut off by a restart during ${revision.status} ${revision.interruptions + 1} times`,
      });
      return null;
    }
    log.warn(`resuming after an interruption during ${revision.status}`);
    return this.move(revision, previous, log, { interruptions: revision.interruptions + 1 });
  }

  /** Runs one step from the revision's current status; answers the revision in its new status. */
  private async step(
    revision: RevisionRow,
    deployment: DeploymentRow,
    log: RevisionLogWriter,
    buildLog: RevisionLogWriter,
  ): Promise<RevisionRow | null> {
    const source = deployment.source as DeploymentSource;
    const target = this.targetOf(deployment, revision);
    switch (revision.status as RevisionStatus) {
      case "CREATING": {
        try {
          if (deployment.status === "AWAITING_DATABASE" || deployment.status === "UNKNOWN") {
            log.info("provisioning the deployment's database");
            await this.deployer.provisionDatabase(target);
            await this.db.deployment.updateMany({
              where: { id: deployment.id, status: { in: ["AWAITING_DATABASE", "UNKNOWN"] } },
              data: { status: "READY" },
            });
          }
        } catch (error) {
          return this.fail(revision, "CREATE_FAILED", log, error);
        }
        return this.move(revision, "QUEUED", log);
      }
      case "QUEUED":
        if (await this.overtaken(revision, log)) return null;
        return this.move(revision, isSourceBuild(source) ? "AWAITING_BUILD" : "AWAITING_DEPLOY", log);
      case "AWAITING_BUILD": {
        if (await this.overtaken(revision, log)) return null;
        const building = await this.move(revision, "BUILDING", buildLog);
        let result: BuildResult;
        try {
          result = await this.holding(building, () =>
            this.deployer.build(target, this.revisionTarget(building), buildLog),
          );
        } catch (error) {
          return this.fail(building, "BUILD_FAILED", buildLog, error);
        }
        if (result.repoCommitSha) await this.recordCommit(deployment.id, building.id, result.repoCommitSha);
        return this.move(building, "AWAITING_DEPLOY", buildLog, {
          artifact: result.artifact,
          repoCommitSha: result.repoCommitSha ?? null,
        });
      }
      case "AWAITING_DEPLOY": {
        if (await this.overtaken(revision, log)) return null;
        const deploying = await this.move(revision, "DEPLOYING", log);
        const build = deploying.artifact
          ? { artifact: deploying.artifact, repoCommitSha: deploying.repoCommitSha ?? undefined }
          : null;
        let url: string | null;
        try {
          url = (
            await this.holding(deploying, () =>
              this.deployer.deploy(target, this.revisionTarget(deploying), build, log),
            )
          ).url;
        } catch (error) {
          // What a failed deploy started must not keep running.
          await this.deployer.retire(target, this.revisionTarget(deploying), log).catch(() => {});
          return this.fail(deploying, "DEPLOY_FAILED", log, error);
        }
        return this.activate(deployment, deploying, target, url, log);
      }
      default:
        return null;
    }
  }

  /**
   * DEPLOYING -> DEPLOYED and the deployment's active revision moves to it, in one transaction;
   * then the previous active revision is retired. Active only moves forward: a revision that
   * finishes after a newer one is already active is SKIPPED (and stopped).
   */
  private async activate(
    deployment: DeploymentRow,
    revision: RevisionRow,
    target: DeploymentTarget,
    url: string | null,
    log: RevisionLogWriter,
  ): Promise<RevisionRow | null> {
    const outcome = await this.db.$transaction(async (tx) => {
      const current = await tx.deployment.findUnique({ where: { id: deployment.id } });
      if (!current || current.status === "AWAITING_DELETE") return { moved: false as const };
      const active = current.activeRevisionId
        ? await tx.revision.findUnique({ where: { id: current.activeRevisionId }, select: { id: true, seq: true } })
        : null;
      if (active && active.seq > revision.seq) {
        const { count } = await tx.revision.updateMany({
          where: { id: revision.id, status: "DEPLOYING" },
          data: { status: "SKIPPED", statusMessage: "a newer revision was deployed first" },
        });
        return { moved: count === 1, skipped: true as const };
      }
      const { count } = await tx.revision.updateMany({
        where: { id: revision.id, status: "DEPLOYING" },
        data: { status: "DEPLOYED", url, statusMessage: null },
      });
      if (count !== 1) return { moved: false as const };
      const sourceConfig = current.sourceConfig as Record<string, unknown>;
      await tx.deployment.update({
        where: { id: deployment.id },
        data: {
          activeRevisionId: revision.id,
          // For sources other than external_docker the deployer's URL is reported as custom_url.
          ...(current.source !== "external_docker" && url
            ? { sourceConfig: { ...sourceConfig, custom_url: url } as Prisma.InputJsonValue }
            : {}),
        },
      });
      return { moved: true as const, previous: active?.id ?? null };
    });
    if (!outcome.moved || "skipped" in outcome) {
      await this.deployer.retire(target, this.revisionTarget(revision), log).catch(() => {});
      if (outcome.moved) log.warn("status DEPLOYING -> SKIPPED: a newer revision was deployed first");
      return null;
    }
    log.info(`status DEPLOYING -> DEPLOYED${url ? ` at ${url}` : ""}`);
    this.logger.info({ revision_id: revision.id, deployment_id: deployment.id, url }, "revision DEPLOYED");
    if (outcome.previous && outcome.previous !== revision.id) {
      const previous = await this.revisions.findById(outcome.previous);
      if (previous) {
        const previousLog = new RevisionLogWriter(this.revisions, previous.id, "deploy", this.logger);
        try {
          previousLog.info(`replaced by revision ${revision.id}; stopping`);
          await this.deployer.retire(target, this.revisionTarget(previous), previousLog);
        } catch (error) {
          this.logger.warn({ err: error, revision_id: previous.id }, "could not retire the previous revision");
        } finally {
          await previousLog.flush();
        }
      }
    }
    return { ...revision, status: "DEPLOYED", url };
  }

  /** Runs a step while touching the revision row (its lease) so no other reconciler takes it over. */
  private async holding<T>(revision: RevisionRow, work: () => Promise<T>): Promise<T> {
    const timer = setInterval(
      () => {
        this.revisions.touch(revision.id, revision.status as RevisionStatus).catch(() => {});
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    try {
      return await work();
    } finally {
      clearInterval(timer);
    }
  }

  /** A revision that a newer one of the same deployment overtook before it deployed: SKIPPED. */
  private async overtaken(revision: RevisionRow, log: RevisionLogWriter): Promise<boolean> {
    if (!(await this.revisions.hasNewer(revision))) return false;
    await this.move(revision, "SKIPPED", log, {
      statusMessage: "overtaken by a newer revision before it was deployed",
    });
    return true;
  }

  /** The guarded transition; throws Moved when another reconciler got there first. */
  private async move(
    revision: RevisionRow,
    to: RevisionStatus,
    log: RevisionLogWriter,
    data: TransitionData = {},
    quietIfMoved = false,
  ): Promise<RevisionRow> {
    const from = revision.status as RevisionStatus;
    // What the step logged is stored before a client can see its end (clients read the logs of a
    // revision once it is DEPLOYED or *_FAILED): only the transition's own line comes after.
    if (isTerminal(to)) await log.flush();
    if (!(await this.revisions.transition(revision.id, from, to, data))) {
      if (!quietIfMoved)
        this.logger.info({ revision_id: revision.id, from, to }, "revision moved by another reconciler");
      throw new Moved();
    }
    const message = `status ${from} -> ${to}${data.statusMessage ? `: ${data.statusMessage}` : ""}`;
    if (to.endsWith("FAILED") || to === "INTERRUPTED") log.error(message);
    else log.info(message);
    this.logger.info({ revision_id: revision.id, from, to }, "revision transition");
    return { ...revision, ...data, status: to } as RevisionRow;
  }

  private async fail(revision: RevisionRow, to: RevisionStatus, log: RevisionLogWriter, error: unknown): Promise<null> {
    const reason =
      error instanceof DeployerError
        ? error.message
        : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
    if (!(error instanceof DeployerError))
      this.logger.error({ err: error, revision_id: revision.id }, "deployer step failed");
    log.error(reason);
    await this.move(revision, to, log, { statusMessage: reason });
    return null;
  }

  /** The deployment shows the commit of its latest revision once the build knows it. */
  private async recordCommit(deploymentId: string, revisionId: string, sha: string): Promise<void> {
    const deployment = await this.db.deployment.findUnique({ where: { id: deploymentId } });
    if (!deployment || deployment.latestRevisionId !== revisionId) return;
    await this.db.deployment.updateMany({
      where: { id: deploymentId, latestRevisionId: revisionId },
      data: {
        sourceRevisionConfig: {
          ...(deployment.sourceRevisionConfig as Record<string, unknown>),
          repo_commit_sha: sha,
        } as Prisma.InputJsonValue,
      },
    });
  }

  /** What the deployer gets: the revision's own resource spec and secrets (decrypted, in memory). */
  private targetOf(deployment: DeploymentRow, revision: RevisionRow): DeploymentTarget {
    return {
      id: deployment.id,
      tenantId: deployment.tenantId,
      name: deployment.name,
      source: deployment.source as DeploymentSource,
      sourceConfig: {
        ...(deployment.sourceConfig as Record<string, unknown>),
        resource_spec: revision.resourceSpec ?? null,
      },
      secrets: decryptSecrets(this.cipher, revision.secrets as unknown as StoredSecret[]),
      // The deployment's current key, not the revision's: a rollback must not bring back an old key.
      runtimeKeyHash: deployment.runtimeKeyHash,
    };
  }

  private revisionTarget(revision: RevisionRow): RevisionTarget {
    return {
      id: revision.id,
      sourceRevisionConfig: {
        ...(revision.sourceRevisionConfig as Record<string, unknown>),
        repo_commit_sha: revision.repoCommitSha,
      },
    };
  }

  // ---- restore after a restart --------------------------------------------------------------

  /** Starts an active revision again when it no longer serves (its process ended with ours). */
  private async restore(revisionId: string): Promise<void> {
    const revision = await this.revisions.findById(revisionId);
    if (!revision || revision.status !== "DEPLOYED") return;
    const deployment = await this.db.deployment.findUnique({ where: { id: revision.deploymentId } });
    if (!deployment || deployment.activeRevisionId !== revision.id || deployment.status === "AWAITING_DELETE") return;
    const target = this.targetOf(deployment, revision);
    const health = await this.deployer.health(target, this.revisionTarget(revision)).catch(() => "unknown" as const);
    // Only a revision known not to serve is started again ("unknown" is left alone).
    if (health !== "unhealthy") return;
    const log = new RevisionLogWriter(this.revisions, revision.id, "deploy", this.logger);
    try {
      log.warn("the active revision is not serving; starting it again");
      let build: BuildResult | null = null;
      if (isSourceBuild(deployment.source as DeploymentSource)) {
        build = await this.deployer.build(target, this.revisionTarget(revision), log);
      }
      const { url } = await this.deployer.deploy(target, this.revisionTarget(revision), build, log);
      const now = await this.db.deployment.findUnique({
        where: { id: deployment.id },
        select: { activeRevisionId: true },
      });
      if (now?.activeRevisionId !== revision.id) {
        // Replaced while it was being started again: it must not keep running.
        await this.deployer.retire(target, this.revisionTarget(revision), log);
        return;
      }
      await this.revisions.update(revision.id, "DEPLOYED", { url });
      await this.db.deployment.updateMany({
        where: { id: deployment.id, status: "UNKNOWN" },
        data: { status: "READY" },
      });
      if (deployment.source !== "external_docker" && url) {
        await this.db.deployment.updateMany({
          where: { id: deployment.id, activeRevisionId: revision.id },
          data: {
            sourceConfig: {
              ...(deployment.sourceConfig as Record<string, unknown>),
              custom_url: url,
            } as Prisma.InputJsonValue,
          },
        });
      }
      log.info(`serving again${url ? ` at ${url}` : ""}`);
    } catch (error) {
      log.error(`could not start the active revision again: ${(error as Error).message}`);
      await this.db.deployment.updateMany({
        where: { id: deployment.id, status: "READY" },
        data: { status: "UNKNOWN" },
      });
    } finally {
      await log.flush();
    }
  }

  // ---- deletion -----------------------------------------------------------------------------

  /** AWAITING_DELETE -> workloads stopped, database dropped -> rows removed (then it is a 404). */
  private async deleteDeployment(deploymentId: string): Promise<void> {
    const deployment = await this.db.deployment.findUnique({ where: { id: deploymentId } });
    if (!deployment || deployment.status !== "AWAITING_DELETE") return;
    const latest = deployment.latestRevisionId ? await this.revisions.findById(deployment.latestRevisionId) : null;
    const target = latest
      ? this.targetOf(deployment, latest)
      : { ...this.targetOf(deployment, { resourceSpec: null, secrets: [] } as unknown as RevisionRow) };
    const lines: string[] = [];
    const log = {
      info: (message: string) => lines.push(message),
      warn: (message: string) => lines.push(message),
      error: (message: string) => lines.push(message),
    };
    await this.deployer.destroy(target, log);
    await this.db.deployment.deleteMany({ where: { id: deploymentId, status: "AWAITING_DELETE" } });
    this.logger.info({ deployment_id: deploymentId, steps: lines }, "deployment deleted");
  }
}
