import type { ReconcilerContext } from "./context";
import { targetOf } from "./targets";

/** AWAITING_DELETE -> workloads stopped, database dropped -> rows removed (then it is a 404). */
export async function deleteDeployment(context: ReconcilerContext, deploymentId: string): Promise<void> {
  const { db, deployer, revisions, cipher, logger } = context;
  const deployment = await db.deployment.findUnique({ where: { id: deploymentId } });
  if (!deployment || deployment.status !== "AWAITING_DELETE") return;
  const latest = deployment.latestRevisionId ? await revisions.findById(deployment.latestRevisionId) : null;
  const target = latest
    ? targetOf(cipher, deployment, latest)
    : targetOf(cipher, deployment, { resourceSpec: null, secrets: [] });
  const lines: string[] = [];
  const log = {
    info: (message: string) => lines.push(message),
    warn: (message: string) => lines.push(message),
    error: (message: string) => lines.push(message),
  };
  await deployer.destroy(target, log);
  await db.deployment.deleteMany({ where: { id: deploymentId, status: "AWAITING_DELETE" } });
  logger.info({ deployment_id: deploymentId, steps: lines }, "deployment deleted");
}
