import type { BuildResult } from "../deployers/deployer";
import { isSourceBuild, type DeploymentSource } from "../deployments/model";
import type { Prisma } from "../generated/prisma/client";
import type { ReconcilerContext } from "./context";
import { RevisionLogWriter } from "./revision-log";
import { revisionTarget, targetOf } from "./targets";

/** Starts an active revision again when it no longer serves (its process ended with ours). */
export async function restoreRevision(context: ReconcilerContext, revisionId: string): Promise<void> {
  const { db, deployer, revisions, cipher, logger } = context;
  const revision = await revisions.findById(revisionId);
  if (!revision || revision.status !== "DEPLOYED") return;
  const deployment = await db.deployment.findUnique({ where: { id: revision.deploymentId } });
  if (!deployment || deployment.activeRevisionId !== revision.id || deployment.status === "AWAITING_DELETE") return;
  const target = targetOf(cipher, deployment, revision);
  const health = await deployer.health(target, revisionTarget(revision)).catch(() => "unknown" as const);
  // Only a revision known not to serve is started again ("unknown" is left alone).
  if (health !== "unhealthy") return;
  const log = new RevisionLogWriter(revisions, revision.id, "deploy", logger);
  try {
    log.warn("the active revision is not serving; starting it again");
    let build: BuildResult | null = null;
    if (isSourceBuild(deployment.source as DeploymentSource)) {
      build = await deployer.build(target, revisionTarget(revision), log);
    }
    const { url } = await deployer.deploy(target, revisionTarget(revision), build, log);
    const now = await db.deployment.findUnique({
      where: { id: deployment.id },
      select: { activeRevisionId: true },
    });
    if (now?.activeRevisionId !== revision.id) {
      // Replaced while it was being started again: it must not keep running.
      await deployer.retire(target, revisionTarget(revision), log);
      return;
    }
    await revisions.update(revision.id, "DEPLOYED", { url });
    await db.deployment.updateMany({
      where: { id: deployment.id, status: "UNKNOWN" },
      data: { status: "READY" },
    });
    if (deployment.source !== "external_docker" && url) {
      await db.deployment.updateMany({
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
    await db.deployment.updateMany({
      where: { id: deployment.id, status: "READY" },
      data: { status: "UNKNOWN" },
    });
  } finally {
    await log.flush();
  }
}
