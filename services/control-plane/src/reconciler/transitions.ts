// The guarded transitions every reconciler step goes through: a row update conditioned on the
// status the step expects, so two reconcilers never both move one revision, and the lease a long
// step keeps on its row while it runs.
import type { Logger } from "@lgp/server-kit";
import { DeployerError } from "../deployers/deployer";
import type { RevisionRepository, RevisionRow, TransitionData } from "../revisions/repository";
import type { RevisionStatus } from "../revisions/status";
import type { RevisionLogWriter } from "./revision-log";

/** The reconciler stops driving a revision when a guarded transition finds it moved by someone else. */
export class Moved extends Error {}

export class Transitions {
  constructor(
    private readonly revisions: RevisionRepository,
    private readonly logger: Logger,
    /** A step's row untouched this long is taken as cut off; a running step touches it every third. */
    readonly leaseMs: number,
  ) {}

  /** The guarded transition; throws Moved when another reconciler got there first. */
  async move(
    revision: RevisionRow,
    to: RevisionStatus,
    log: RevisionLogWriter,
    data: TransitionData = {},
    quietIfMoved = false,
  ): Promise<RevisionRow> {
    const from = revision.status as RevisionStatus;
    const message = `status ${from} -> ${to}${data.statusMessage ? `: ${data.statusMessage}` : ""}`;
    const level = to.endsWith("FAILED") || to === "INTERRUPTED" ? "error" : "info";
    // What the step logged is stored first, and the transition's own line in the statement that
    // moves the status: a client that sees the new status finds every line before it in the log.
    await log.flush();
    if (!(await this.revisions.transition(revision.id, from, to, data, log.line(level, message)))) {
      if (!quietIfMoved)
        this.logger.info({ revision_id: revision.id, from, to }, "revision moved by another reconciler");
      throw new Moved();
    }
    this.logger.info({ revision_id: revision.id, from, to }, "revision transition");
    return { ...revision, ...data, status: to } as RevisionRow;
  }

  async fail(revision: RevisionRow, to: RevisionStatus, log: RevisionLogWriter, error: unknown): Promise<null> {
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

  /** A revision that a newer one of the same deployment overtook before it deployed: SKIPPED. */
  async overtaken(revision: RevisionRow, log: RevisionLogWriter): Promise<boolean> {
    if (!(await this.revisions.hasNewer(revision))) return false;
    await this.move(revision, "SKIPPED", log, {
      statusMessage: "overtaken by a newer revision before it was deployed",
    });
    return true;
  }

  /** Runs a step while touching the revision row (its lease) so no other reconciler takes it over. */
  async holding<T>(revision: RevisionRow, work: () => Promise<T>): Promise<T> {
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
}
