// A deployment's pod logs, followed into its deploy logs (the kubernetes deployer's side of
// `langgraph deploy logs`): every container of every pod of the deployment, each line into the
// deploy log of the revision the pod runs (its template's revision annotation), from where the
// last follower stopped. The Kubernetes log API merges stdout and stderr, so a plain line is INFO
// here whatever stream it came from (the runtime's own JSON lines keep their levels).
import { PassThrough } from "node:stream";
import { createInterface } from "node:readline";
import type { Logger } from "@lgp/server-kit";
import type { DeploymentTarget, RuntimeLogStore } from "../deployer";
import { loadKubernetesClient, type K8s } from "./client";
import type { Cluster } from "./cluster";
import { ANNOTATION_REVISION_ID, LABEL_DEPLOYMENT_ID } from "./render";

interface Stream {
  deploymentId: string;
  revisionId: string;
  controller?: AbortController;
  live: boolean;
  /** The newest line's time, in nanoseconds since the epoch (lines up to it are not stored again). */
  lastNs: bigint | null;
  /** Read once already in this process: a container that is no longer running is not read again. */
  read: boolean;
  stopped?: boolean;
}

/** `2026-11-28T07:00:00.123456789Z` (the node's RFC 3339 time, nanoseconds) as nanoseconds since the epoch. */
export function nanosOf(time: string): bigint | null {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(time);
  if (!match) return null;
  const seconds = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(seconds)) return null;
  return BigInt(seconds) * 1_000_000n + BigInt((match[2] ?? "").padEnd(9, "0"));
}

export class PodLogFollower {
  private readonly streams = new Map<string, Stream>();
  private readonly logApi: K8s.Log;

  constructor(
    kubeConfig: K8s.KubeConfig,
    private readonly cluster: Cluster,
    private readonly logger?: Logger,
  ) {
    this.logApi = new (loadKubernetesClient().Log)(kubeConfig);
  }

  /**
   * Follows the pods of exactly these deployments (each in its namespace): new pods and
   * containers are attached, streams that ended are attached again while their container runs,
   * and what belongs to other deployments (or pods that are gone) is let go.
   */
  async sync(deployments: { target: DeploymentTarget; namespace: string }[], store: RuntimeLogStore): Promise<void> {
    const seen = new Set<string>();
    for (const { target, namespace } of deployments) {
      let pods: K8s.V1Pod[];
      try {
        pods = await this.cluster.list<K8s.V1Pod>("v1", "Pod", namespace, `${LABEL_DEPLOYMENT_ID}=${target.id}`);
      } catch (error) {
        this.logger?.warn({ err: error, deploymentId: target.id }, "could not list a deployment's pods for its logs");
        // Its streams are kept while the API is away.
        for (const [key, stream] of this.streams) if (stream.deploymentId === target.id) seen.add(key);
        continue;
      }
      for (const pod of pods) {
        const name = pod.metadata?.name;
        const revisionId = pod.metadata?.annotations?.[ANNOTATION_REVISION_ID];
        if (!name || !revisionId) continue;
        const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
        for (const status of statuses) {
          const key = `${namespace}/${name}/${status.name}`;
          seen.add(key);
          const running = Boolean(status.state?.running);
          const started = running || Boolean(status.state?.terminated);
          let stream = this.streams.get(key);
          if (!stream) {
            stream = { deploymentId: target.id, revisionId, live: false, lastNs: null, read: false };
            this.streams.set(key, stream);
          }
          if (stream.live || !started || (stream.read && !running)) continue;
          // Not awaited: a log answers its headers when the node does; one slow node holds no other pod.
          void this.attach(stream, namespace, name, status.name, target, store);
        }
      }
    }
    for (const [key, stream] of this.streams) {
      if (seen.has(key)) continue;
      stream.stopped = true;
      stream.controller?.abort();
      this.streams.delete(key);
    }
  }

  private async attach(
    stream: Stream,
    namespace: string,
    pod: string,
    container: string,
    target: DeploymentTarget,
    store: RuntimeLogStore,
  ): Promise<void> {
    const origin = { pod, container };
    stream.live = true;
    stream.read = true;
    if (stream.lastNs === null) {
      // A container this process has not read: after the last line stored from it, if any (the
      // store keeps milliseconds, so everything within that millisecond counts as stored).
      try {
        const last = await store.lastLineAt(stream.revisionId, origin);
        if (last) stream.lastNs = BigInt(last.getTime()) * 1_000_000n + 999_999n;
      } catch (error) {
        // Tried again at the next sync.
        stream.live = false;
        this.logger?.warn({ err: error, pod, container }, "could not read where a pod's log was left");
        return;
      }
    }
    const sink = store.sink(
      stream.revisionId,
      target.secrets.map((secret) => secret.value),
    );
    const output = new PassThrough();
    const lines = createInterface({ input: output, crlfDelay: Infinity });
    lines.on("line", (line) => {
      const space = line.indexOf(" ");
      const ns = space > 0 ? nanosOf(line.slice(0, space)) : null;
      if (ns === null) return sink.line("stdout", line, { fields: origin });
      if (stream.lastNs !== null && ns <= stream.lastNs) return;
      stream.lastNs = ns;
      sink.line("stdout", line.slice(space + 1), { timestamp: new Date(Number(ns / 1_000_000n)), fields: origin });
    });
    const ended = () => {
      stream.live = false;
      stream.controller = undefined;
    };
    output.once("end", ended).once("close", ended).once("error", ended);
    const since = stream.lastNs === null ? undefined : Number(stream.lastNs / 1_000_000_000n) * 1000;
    try {
      stream.controller = await this.logApi.log(namespace, pod, container, output, {
        follow: true,
        timestamps: true,
        ...(since === undefined ? {} : { sinceTime: new Date(since).toISOString().replace(/\.\d+Z$/, "Z") }),
      });
      // Let go of while it was being attached.
      if (stream.stopped) stream.controller.abort();
    } catch (error) {
      ended();
      output.destroy();
      this.logger?.warn({ err: error, pod, container }, "could not follow a pod's log");
    }
  }
}
