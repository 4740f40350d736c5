import { setTimeout as sleep } from "node:timers/promises";
import { DeployerError, type RevisionLog } from "../deployer";
import type { K8s } from "./client";
import type { Cluster, ObjectRef } from "./cluster";

export interface RolloutOptions {
  pollIntervalMs: number;
  /** Give up even if the controller never reports ProgressDeadlineExceeded (e.g. no controller running). */
  timeoutMs: number;
  log: RevisionLog;
  /** Stops following (another rollout of the same revision failed). */
  signal?: AbortSignal;
}

/** The follower was stopped by its signal. */
export class RolloutAborted extends DeployerError {}

export type RolloutState = { done: true } | { done: false; waiting: string } | { failed: string };

/**
 * The rollout state of a Deployment, by the rules `kubectl rollout status` uses: the controller
 * must have observed the latest generation, every desired replica must be updated and available,
 * and no old replica may remain; a Progressing condition with reason ProgressDeadlineExceeded is a failure.
 */
export function rolloutState(deployment: K8s.V1Deployment): RolloutState {
  const generation = deployment.metadata?.generation ?? 0;
  const status = deployment.status ?? {};
  if ((status.observedGeneration ?? 0) < generation)
    return { done: false, waiting: "waiting for the controller to observe the new spec" };
  const progressing = status.conditions?.find((condition) => condition.type === "Progressing");
  if (progressing?.reason === "ProgressDeadlineExceeded") {
    return { failed: `rollout exceeded its progress deadline: ${progressing.message ?? "no progress"}` };
  }
  const desired = deployment.spec?.replicas ?? 1;
  const updated = status.updatedReplicas ?? 0;
  const total = status.replicas ?? 0;
  const available = status.availableReplicas ?? 0;
  if (updated < desired) return { done: false, waiting: `${updated} of ${desired} replicas updated` };
  if (total > updated) return { done: false, waiting: `${total - updated} old replicas pending termination` };
  if (available < updated) return { done: false, waiting: `${available} of ${updated} updated replicas available` };
  return { done: true };
}

/** Why the Deployment's pods are not running, from their container states (image pull errors, crash loops). */
export async function podProblems(
  cluster: Cluster,
  ref: ObjectRef,
  selector: Record<string, string>,
): Promise<string[]> {
  const labelSelector = Object.entries(selector)
    .map(([key, value]) => `${key}=${value}`)
    .join(",");
  const pods = await cluster.list<K8s.V1Pod>("v1", "Pod", ref.namespace, labelSelector);
  const problems = new Set<string>();
  for (const pod of pods) {
    const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
    for (const status of statuses) {
      const waiting = status.state?.waiting;
      if (waiting?.reason && waiting.reason !== "ContainerCreating" && waiting.reason !== "PodInitializing") {
        problems.add(`container ${status.name}: ${waiting.reason}${waiting.message ? ` (${waiting.message})` : ""}`);
      }
      const terminated = status.lastState?.terminated ?? status.state?.terminated;
      if (terminated && terminated.exitCode !== 0) {
        problems.add(
          `container ${status.name} exited with code ${terminated.exitCode}${terminated.reason ? ` (${terminated.reason})` : ""}`,
        );
      }
    }
    for (const condition of pod.status?.conditions ?? []) {
      if (condition.type === "PodScheduled" && condition.status === "False" && condition.message) {
        problems.add(`pod unschedulable: ${condition.message}`);
      }
    }
  }
  return [...problems];
}

/** Polls the Deployment until its rollout completes; a failure or time-out is a DeployerError naming the reason. */
export async function followRollout(cluster: Cluster, ref: ObjectRef, options: RolloutOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastWaiting = "";
  for (;;) {
    if (options.signal?.aborted) throw new RolloutAborted(`stopped following ${ref.namespace}/${ref.name}`);
    const deployment = await cluster.read<K8s.V1Deployment>(ref);
    if (!deployment) throw new DeployerError(`Deployment ${ref.namespace}/${ref.name} disappeared during the rollout`);
    const state = rolloutState(deployment);
    if ("failed" in state || (!state.done && Date.now() >= deadline)) {
      const reason =
        "failed" in state
          ? state.failed
          : `rollout did not complete in ${Math.round(options.timeoutMs / 1000)}s (${state.waiting})`;
      const problems = await podProblems(cluster, ref, deployment.spec?.selector?.matchLabels ?? {}).catch(() => []);
      throw new DeployerError(
        `Deployment ${ref.namespace}/${ref.name}: ${reason}${problems.length ? `; ${problems.join("; ")}` : ""}`,
      );
    }
    if (state.done) {
      options.log.info(`Deployment ${ref.namespace}/${ref.name} rolled out`);
      return;
    }
    if (state.waiting !== lastWaiting) {
      options.log.info(`Deployment ${ref.namespace}/${ref.name}: ${state.waiting}`);
      lastWaiting = state.waiting;
    }
    await sleep(options.pollIntervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
