// One revision's way through its states: CREATING -> QUEUED -> AWAITING_BUILD -> BUILDING ->
// AWAITING_DEPLOY -> DEPLOYING -> DEPLOYED (docker sources skip the build), or a *_FAILED state
// with the reason in the revision's log; a revision cut off mid-step resumes one step back.
import type { BuildResult, DeploymentTarget } from "../deployers/deployer";
import { isSourceBuild, type DeploymentSource } from "../deployments/model";
import type { Deployment as DeploymentRow, Prisma } from "../generated/prisma/client";
import { transitionRevision, type RevisionRow } from "../revisions/repository";
import { isTerminal, type RevisionStatus } from "../revisions/status";
import type { ReconcilerContext } from "./context";
import { RevisionLogWriter } from "./revision-log";
import { revisionTarget, targetOf } from "./targets";
import type { Transitions } from "./transitions";

export class RevisionDriver {
  constructor(
    private readonly context: ReconcilerContext,
    private readonly transitions: Transitions,
    /** Restarts that may cut a revision off mid-step before it is marked INTERRUPTED. */
    private readonly maxInterruptions: number,
  ) {}

  /** Drives the revision as far as it goes now (to a terminal state, or until another reconciler has it). */
  async drive(revisionId: string): Promise<void> {
    let revision = await this.context.revisions.findById(revisionId);
    if (!revision || isTerminal(revision.status)) return;
    const log = new RevisionLogWriter(this.context.revisions, revision.id, "deploy", this.context.logger);
    const buildLog = new RevisionLogWriter(this.context.revisions, revision.id, "build", this.context.logger);
    try {
      revision = await this.recoverInterrupted(revision, log);
      if (!revision) return;
      for (;;) {
        const deployment = await this.context.db.deployment.findUnique({ where: { id: revision.deploymentId } });
        if (!deployment) return;
        if (deployment.status === "AWAITING_DELETE") {
          await this.transitions.move(
            revision,
            "INTERRUPTED",
            log,
            { statusMessage: "the deployment is being deleted" },
            true,
          );
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
    if (revision.updatedAt.getTime() > Date.now() - this.transitions.leaseMs) {
      this.context.logger.info(
        { revision_id: revision.id, status: revision.status },
        "revision step held by another reconciler",
      );
      return null;
    }
    if (revision.interruptions >= this.maxInterruptions) {
      await this.transitions.move(revision, "INTERRUPTED", log, {
        statusMessage: `cut off by a restart during ${revision.status} ${revision.interruptions + 1} times`,
      });
      return null;
    }
    log.warn(`resuming after an interruption during ${revision.status}`);
    return this.transitions.move(revision, previous, log, { interruptions: revision.interruptions + 1 });
  }

  /** Runs one step from the revision's current status; answers the revision in its new status. */
  private async step(
    revision: RevisionRow,
    deployment: DeploymentRow,
    log: RevisionLogWriter,
    buildLog: RevisionLogWriter,
  ): Promise<RevisionRow | null> {
    const source = deployment.source as DeploymentSource;
    const target = targetOf(this.context.cipher, deployment, revision);
    switch (revision.status as RevisionStatus) {
      case "CREATING": {
        try {
          if (deployment.status === "AWAITING_DATABASE" || deployment.status === "UNKNOWN") {
            log.info("provisioning the deployment's database");
            await this.context.deployer.provisionDatabase(target);
            await this.context.db.deployment.updateMany({
              where: { id: deployment.id, status: { in: ["AWAITING_DATABASE", "UNKNOWN"] } },
              data: { status: "READY" },
            });
          }
        } catch (error) {
          return this.transitions.fail(revision, "CREATE_FAILED", log, error);
        }
        return this.transitions.move(revision, "QUEUED", log);
      }
      case "QUEUED":
        if (await this.transitions.overtaken(revision, log)) return null;
        return this.transitions.move(revision, isSourceBuild(source) ? "AWAITING_BUILD" : "AWAITING_DEPLOY", log);
      case "AWAITING_BUILD": {
        if (await this.transitions.overtaken(revision, log)) return null;
        const building = await this.transitions.move(revision, "BUILDING", buildLog);
        let result: BuildResult;
        try {
          result = await this.transitions.holding(building, () =>
            this.context.deployer.build(target, revisionTarget(building), buildLog),
          );
        } catch (error) {
          return this.transitions.fail(building, "BUILD_FAILED", buildLog, error);
        }
        if (result.repoCommitSha) await this.recordCommit(deployment.id, building.id, result.repoCommitSha);
        return this.transitions.move(building, "AWAITING_DEPLOY", buildLog, {
          artifact: result.artifact,
          repoCommitSha: result.repoCommitSha ?? null,
        });
      }
      case "AWAITING_DEPLOY": {
        if (await this.transitions.overtaken(revision, log)) return null;
        const deploying = await this.transitions.move(revision, "DEPLOYING", log);
        const build = deploying.artifact
          ? { artifact: deploying.artifact, repoCommitSha: deploying.repoCommitSha ?? undefined }
          : null;
        let url: string | null;
        try {
          url = (
            await this.transitions.holding(deploying, () =>
              this.context.deployer.deploy(target, revisionTarget(deploying), build, log),
            )
          ).url;
        } catch (error) {
          // What a failed deploy started must not keep running.
          await this.context.deployer.retire(target, revisionTarget(deploying), log).catch(() => {});
          return this.transitions.fail(deploying, "DEPLOY_FAILED", log, error);
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
    // As in Transitions.move: the deploy step's lines are stored before the status moves, and the
    // transition's own line with it.
    await log.flush();
    const outcome = await this.context.db.$transaction(async (tx) => {
      const current = await tx.deployment.findUnique({ where: { id: deployment.id } });
      if (!current || current.status === "AWAITING_DELETE") return { moved: false as const };
      const active = current.activeRevisionId
        ? await tx.revision.findUnique({ where: { id: current.activeRevisionId }, select: { id: true, seq: true } })
        : null;
      if (active && active.seq > revision.seq) {
        const statusMessage = "a newer revision was deployed first";
        const moved = await transitionRevision(
          tx,
          revision.id,
          "DEPLOYING",
          "SKIPPED",
          { statusMessage },
          log.line("warn", `status DEPLOYING -> SKIPPED: ${statusMessage}`),
        );
        return { moved, skipped: true as const };
      }
      const line = log.line("info", `status DEPLOYING -> DEPLOYED${url ? ` at ${url}` : ""}`);
      if (!(await transitionRevision(tx, revision.id, "DEPLOYING", "DEPLOYED", { url, statusMessage: null }, line))) {
        return { moved: false as const };
      }
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
      await this.context.deployer.retire(target, revisionTarget(revision), log).catch(() => {});
      return null;
    }
    this.context.logger.info({ revision_id: revision.id, deployment_id: deployment.id, url }, "revision DEPLOYED");
    if (outcome.previous && outcome.previous !== revision.id) {
      const previous = await this.context.revisions.findById(outcome.previous);
      if (previous) {
        const previousLog = new RevisionLogWriter(this.context.revisions, previous.id, "deploy", this.context.logger);
        try {
          previousLog.info(`replaced by revision ${revision.id}; stopping`);
          await this.context.deployer.retire(target, revisionTarget(previous), previousLog);
        } catch (error) {
          this.context.logger.warn({ err: error, revision_id: previous.id }, "could not retire the previous revision");
        } finally {
          await previousLog.flush();
        }
      }
    }
    return { ...revision, status: "DEPLOYED", url };
  }

  /** The deployment shows the commit of its latest revision once the build knows it. */
  private async recordCommit(deploymentId: string, revisionId: string, sha: string): Promise<void> {
    const deployment = await this.context.db.deployment.findUnique({ where: { id: deploymentId } });
    if (!deployment || deployment.latestRevisionId !== revisionId) return;
    await this.context.db.deployment.updateMany({
      where: { id: deploymentId, latestRevisionId: revisionId },
      data: {
        sourceRevisionConfig: {
          ...(deployment.sourceRevisionConfig as Record<string, unknown>),
          repo_commit_sha: sha,
        } as Prisma.InputJsonValue,
      },
    });
  }
}
