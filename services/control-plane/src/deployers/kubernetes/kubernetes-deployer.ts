import {
  ConfigError,
  dropDatabase,
  ensureDatabase,
  outboundFetch,
  type Logger,
  type OutboundFetch,
} from "@lgp/server-kit";
import type { ControlPlaneConfig } from "../../config";
import { imagePullAccess, type ImagePullAccess } from "../../registry/pull";
import { registrySettingsOf } from "../../registry/settings";
import {
  DeployerError,
  type BuildResult,
  type DeployResult,
  type Deployer,
  type DeploymentTarget,
  type ProvisionResult,
  type RevisionLog,
  type RevisionTarget,
  type RuntimeLogStore,
} from "../deployer";
import { deployExternal, healthAt } from "../external";
import { loadKubeConfig, type K8s } from "./client";
import { Cluster, describeClusterError, type ObjectRef } from "./cluster";
import {
  ANNOTATION_REVISION_ID,
  namespaceOf,
  renderRevision,
  resourceNames,
  type Manifest,
  type Workload,
} from "./render";
import { PodLogFollower } from "./pod-logs";
import { RolloutAborted, followRollout, rolloutState } from "./rollout";

export interface KubernetesDeployerOptions {
  kubeConfig: K8s.KubeConfig;
  /** Namespace of deployments whose listener_config names none. */
  defaultNamespace: string;
  /** The agent runtime image that serves source revisions. */
  runtimeImage: string;
  /** Server (any database) on which each deployment gets its own database; reachable from here and from the cluster. */
  databaseServerUrl: string;
  /** Redis the deployments' API and queue pods share, as seen from the cluster. */
  redisUrl: string;
  progressDeadlineSeconds: number;
  fieldManager?: string;
  /** How often the rollout follower reads the Deployments. */
  pollIntervalMs?: number;
  /** How long after the progress deadline the follower waits for the controller to say so itself. */
  rolloutGraceMs?: number;
  /** How long an external_docker revision's custom_url may take to answer /ok. */
  externalHealthTimeoutMs?: number;
  /** The fetch for external_docker URLs (a tenant's): the outbound policy's. */
  outbound?: OutboundFetch;
  workerCommand?: string[];
  /** The control plane's registry: images pushed there for a deployment are pulled with its pull credential. */
  registry?: ImagePullAccess;
  logger?: Logger;
}

const SOURCE_KINDS = new Set(["github", "internal_source"]);

/**
 * Runs revisions on a Kubernetes cluster. One set of objects per deployment (named after it), so a
 * new revision is a rolling update of the same Deployments: `deploy` applies the rendered
 * manifests with server-side apply and follows the rollout; `retire` has nothing left to stop.
 */
export class KubernetesDeployer implements Deployer {
  readonly kind = "kubernetes" as const;
  private readonly cluster: Cluster;
  private readonly podLogs: PodLogFollower;

  constructor(private readonly options: KubernetesDeployerOptions) {
    this.cluster = new Cluster(options.kubeConfig, options.fieldManager ?? "lgp-control-plane");
    this.podLogs = new PodLogFollower(options.kubeConfig, this.cluster, options.logger);
  }

  /** The deployment's database: `lgp_deployment_<id>` on the configured server. */
  databaseUrlFor(deployment: Pick<DeploymentTarget, "id">): string {
    const url = new URL(this.options.databaseServerUrl);
    url.pathname = `/lgp_deployment_${deployment.id.replace(/-/g, "")}`;
    return url.toString();
  }

  async provisionDatabase(deployment: DeploymentTarget): Promise<ProvisionResult> {
    const databaseUrl = this.databaseUrlFor(deployment);
    try {
      await ensureDatabase(databaseUrl);
    } catch (error) {
      throw new DeployerError(`could not create the deployment's database: ${(error as Error).message}`);
    }
    return { databaseUrl };
  }

  /**
   * Source revisions are not built into an image here: they run on the agent runtime image, whose
   * init container checks the repository out at `repo_ref` and runs the install and build commands.
   * This step checks that the revision says where its source is.
   */
  async build(deployment: DeploymentTarget, revision: RevisionTarget, log: RevisionLog): Promise<BuildResult> {
    const workload = this.workloadOf(deployment, revision, null);
    if (workload.kind === "image") return { artifact: workload.image };
    log.info(
      `source revision: ${workload.repoUrl}@${workload.repoRef} runs on ${workload.runtimeImage}; ` +
        `the pod checks it out and runs its install/build commands at start-up (config ${workload.configPath})`,
    );
    return { artifact: workload.runtimeImage };
  }

  async deploy(
    deployment: DeploymentTarget,
    revision: RevisionTarget,
    build: BuildResult | null,
    log: RevisionLog,
  ): Promise<DeployResult> {
    const external = externalUrlOf(deployment, revision);
    // Runs elsewhere (no image to run here): deployed once it answers.
    if (external)
      return deployExternal(external, this.options.externalHealthTimeoutMs ?? 30_000, log, this.options.outbound);
    const namespace = namespaceOf(deployment, this.options.defaultNamespace);
    const workload = this.workloadOf(deployment, revision, build);
    const { registry } = this.options;
    const rendered = renderRevision({
      deployment,
      revision,
      workload,
      pullCredential:
        workload.kind === "image" && registry?.holds(deployment.id, workload.image)
          ? registry.credential(deployment.tenantId, deployment.id)
          : undefined,
      namespace,
      databaseUrl: this.databaseUrlFor(deployment),
      redisUrl: this.options.redisUrl,
      progressDeadlineSeconds: this.options.progressDeadlineSeconds,
      workerCommand: this.options.workerCommand,
    });
    // What ran before, to put back if this revision does not roll out.
    const previous = await this.snapshot(rendered.manifests).catch((error: unknown) => {
      throw new DeployerError(`reading the current objects failed: ${describeClusterError(error)}`);
    });
    try {
      await this.applyAll(rendered, log);
      await this.followAll(namespace, [rendered.names.api, rendered.names.queue], log);
    } catch (error) {
      const service = rendered.manifests.find((m) => m.kind === "Service")!;
      await this.restore(previous, service, log);
      throw error;
    }
    log.info(`revision ${revision.id} serving at ${rendered.url}`);
    return { url: rendered.url };
  }

  private async applyAll(rendered: ReturnType<typeof renderRevision>, log: RevisionLog): Promise<void> {
    const { namespace } = rendered;
    for (const manifest of rendered.manifests) {
      const what = `${manifest.kind} ${namespace}/${manifest.metadata?.name}`;
      try {
        await this.cluster.apply(manifest);
      } catch (error) {
        throw new DeployerError(`applying ${what} failed: ${describeClusterError(error)}`);
      }
      log.info(`applied ${what}`);
    }
    // An HPA from an earlier revision whose scale range no longer allows one must go, or it keeps resizing.
    for (const name of [rendered.names.api, rendered.names.queue]) {
      const rendersHpa = rendered.manifests.some(
        (m) => m.kind === "HorizontalPodAutoscaler" && m.metadata?.name === name,
      );
      if (rendersHpa) continue;
      const removed = await this.cluster
        .delete({ apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler", namespace, name })
        .catch((error) => {
          throw new DeployerError(
            `removing HorizontalPodAutoscaler ${namespace}/${name} failed: ${describeClusterError(error)}`,
          );
        });
      if (removed) log.info(`removed HorizontalPodAutoscaler ${namespace}/${name}`);
    }
  }

  /** Follows both rollouts; the first failure stops the other follower. */
  private async followAll(namespace: string, names: string[], log: RevisionLog): Promise<void> {
    const timeoutMs = this.options.progressDeadlineSeconds * 1000 + (this.options.rolloutGraceMs ?? 60_000);
    const abort = new AbortController();
    const follow = (name: string) =>
      followRollout(this.cluster, deploymentRef(namespace, name), {
        pollIntervalMs: this.options.pollIntervalMs ?? 2000,
        timeoutMs,
        log,
        signal: abort.signal,
      }).catch((error: unknown) => {
        abort.abort();
        if (error instanceof DeployerError) throw error;
        throw new DeployerError(`following the rollout of ${namespace}/${name} failed: ${describeClusterError(error)}`);
      });
    const results = await Promise.allSettled(names.map(follow));
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason);
    // The follower stopped by the abort reports that, not the cause: prefer the real failure.
    const cause = failures.find((f) => !(f instanceof RolloutAborted)) ?? failures[0];
    if (cause) throw cause;
  }

  /** The current version of each object the revision is about to apply (null where it does not exist yet). */
  private async snapshot(manifests: Manifest[]): Promise<{ manifest: Manifest; before: Manifest | null }[]> {
    const result: { manifest: Manifest; before: Manifest | null }[] = [];
    for (const manifest of manifests) {
      if (manifest.kind === "Service") continue; // the same for every revision
      const before = await this.cluster.read<Manifest>(refOf(manifest));
      result.push({ manifest, before });
    }
    return result;
  }

  /**
   * Puts back what ran before a failed rollout, so the active revision keeps serving as it was
   * (the cluster rolls back to its old ReplicaSets); objects this revision created are removed.
   */
  private async restore(
    snapshot: { manifest: Manifest; before: Manifest | null }[],
    service: Manifest,
    log: RevisionLog,
  ): Promise<void> {
    const firstDeploy = snapshot.every(({ manifest, before }) => manifest.kind !== "Deployment" || before === null);
    for (const { manifest, before } of snapshot) {
      const ref = refOf(manifest);
      const what = `${ref.kind} ${ref.namespace}/${ref.name}`;
      try {
        if (before) {
          await this.cluster.apply(reapplicable(before, manifest));
          log.warn(`restored ${what} to its previous version`);
        } else {
          await this.cluster.delete(ref);
          log.warn(`removed ${what}: it did not exist before this revision`);
        }
      } catch (error) {
        log.error(`could not restore ${what}: ${describeClusterError(error)}`);
      }
    }
    if (firstDeploy) {
      const ref = refOf(service);
      if (await this.cluster.delete(ref).catch(() => false)) {
        log.warn(`removed Service ${ref.namespace}/${ref.name}: nothing serves behind it`);
      }
    }
  }

  async health(deployment: DeploymentTarget, revision: RevisionTarget): Promise<"healthy" | "unhealthy" | "unknown"> {
    const external = externalUrlOf(deployment, revision);
    if (external) return healthAt(external, this.options.outbound);
    const namespace = namespaceOf(deployment, this.options.defaultNamespace);
    try {
      const api = await this.cluster.read<K8s.V1Deployment>(deploymentRef(namespace, resourceNames(deployment).api));
      if (!api) return "unhealthy";
      if (api.spec?.template?.metadata?.annotations?.[ANNOTATION_REVISION_ID] !== revision.id) return "unhealthy";
      const state = rolloutState(api);
      if (!("done" in state) || !state.done) return "unhealthy";
      const desired = api.spec?.replicas ?? 1;
      return desired === 0 || (api.status?.availableReplicas ?? 0) > 0 ? "healthy" : "unhealthy";
    } catch (error) {
      this.options.logger?.warn({ err: error, deploymentId: deployment.id }, "kubernetes health check failed");
      return "unknown";
    }
  }

  /** Every pod of these deployments (external_docker ones run elsewhere: nothing to follow); none lets go of all. */
  async followLogs(deployments: DeploymentTarget[], store: RuntimeLogStore): Promise<void> {
    const followed = deployments
      .filter((deployment) => deployment.source !== "external_docker")
      .map((target) => ({ target, namespace: namespaceOf(target, this.options.defaultNamespace) }));
    await this.podLogs.sync(followed, store);
  }

  async retire(_deployment: DeploymentTarget, revision: RevisionTarget, log: RevisionLog): Promise<void> {
    // Revisions share the deployment's Deployments: the rolling update already replaced this one's pods.
    log.info(`revision ${revision.id} was replaced in place by the rolling update; nothing to stop`);
  }

  async destroy(deployment: DeploymentTarget, log: RevisionLog): Promise<void> {
    const namespace = namespaceOf(deployment, this.options.defaultNamespace);
    const names = resourceNames(deployment);
    const refs: ObjectRef[] = [
      { apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler", namespace, name: names.api },
      { apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler", namespace, name: names.queue },
      { apiVersion: "v1", kind: "Service", namespace, name: names.service },
      deploymentRef(namespace, names.api),
      deploymentRef(namespace, names.queue),
      { apiVersion: "v1", kind: "Secret", namespace, name: names.secret },
      { apiVersion: "v1", kind: "Secret", namespace, name: names.pullSecret },
    ];
    for (const ref of refs) {
      try {
        const deleted = await this.cluster.delete(ref);
        log.info(`${deleted ? "deleted" : "already gone:"} ${ref.kind} ${namespace}/${ref.name}`);
      } catch (error) {
        throw new DeployerError(`deleting ${ref.kind} ${namespace}/${ref.name} failed: ${describeClusterError(error)}`);
      }
    }
    try {
      await dropDatabase(this.databaseUrlFor(deployment));
      log.info("dropped the deployment's database");
    } catch (error) {
      throw new DeployerError(`could not drop the deployment's database: ${(error as Error).message}`);
    }
  }

  /** What the revision runs: its image, or (source revisions) the runtime image plus where to fetch the project. */
  private workloadOf(deployment: DeploymentTarget, revision: RevisionTarget, build: BuildResult | null): Workload {
    const config = revision.sourceRevisionConfig;
    if (SOURCE_KINDS.has(deployment.source)) {
      const repoUrl = stringOf(deployment.sourceConfig.repo_url);
      if (!repoUrl) {
        throw new DeployerError(
          "the kubernetes deployer runs source revisions from a git repository: source_config.repo_url is required " +
            "(an uploaded source tarball needs an image build; deploy an image instead)",
        );
      }
      return {
        kind: "source",
        runtimeImage: this.options.runtimeImage,
        repoUrl,
        repoRef: stringOf(config.repo_ref) ?? "main",
        configPath: stringOf(config.langgraph_config_path) ?? stringOf(config.graph_config_path) ?? "langgraph.json",
        installCommand: stringOf(deployment.sourceConfig.install_command),
        buildCommand: stringOf(deployment.sourceConfig.build_command),
      };
    }
    const image = stringOf(config.image_uri) ?? (build?.artifact || undefined);
    if (!image) throw new DeployerError(`a ${deployment.source} revision needs source_revision_config.image_uri`);
    return { kind: "image", image };
  }
}

function refOf(manifest: Manifest): ObjectRef {
  return {
    apiVersion: manifest.apiVersion ?? "v1",
    kind: manifest.kind ?? "",
    namespace: manifest.metadata?.namespace ?? "",
    name: manifest.metadata?.name ?? "",
  };
}

/**
 * An object as read from the API, made fit to apply again: identity, labels, annotations and its
 * content, without what the server owns (status, uid, resourceVersion, managedFields, ...). A
 * Deployment whose replicas the revision leaves to an HPA does not take them back.
 */
function reapplicable(before: Manifest, rendered: Manifest): Manifest {
  const { metadata, status: _status, ...content } = before as Manifest & { status?: unknown };
  const object: Manifest = {
    ...content,
    metadata: {
      name: metadata?.name,
      namespace: metadata?.namespace,
      labels: metadata?.labels,
      annotations: metadata?.annotations,
    },
  };
  const spec = object.spec as { replicas?: number } | undefined;
  if (rendered.kind === "Deployment" && spec && (rendered.spec as { replicas?: number }).replicas === undefined) {
    delete spec.replicas;
  }
  return object;
}

function deploymentRef(namespace: string, name: string): ObjectRef {
  return { apiVersion: "apps/v1", kind: "Deployment", namespace, name };
}

/** An external_docker revision without an image runs outside the cluster, at its custom_url. */
function externalUrlOf(deployment: DeploymentTarget, revision: RevisionTarget): string | undefined {
  if (deployment.source !== "external_docker" || stringOf(revision.sourceRevisionConfig.image_uri)) return undefined;
  return stringOf(deployment.sourceConfig.custom_url)?.replace(/\/+$/, "");
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/**
 * The kubernetes deployer from the control plane's configuration (DEPLOYER=kubernetes). Called
 * where the reconciler picks its deployer: `config.DEPLOYER === "kubernetes" ? createKubernetesDeployer(config, logger) : <local>`.
 */
export function createKubernetesDeployer(config: ControlPlaneConfig, logger: Logger): KubernetesDeployer {
  const redisUrl = config.K8S_REDIS_URL ?? config.REDIS_URL;
  if (!redisUrl) {
    throw new ConfigError(
      "DEPLOYER=kubernetes needs K8S_REDIS_URL or REDIS_URL: deployments run their queue workers on Redis",
    );
  }
  const kubeConfig = loadKubeConfig(config.KUBECONFIG);
  const registry = registrySettingsOf(config);
  logger.info(
    { cluster: kubeConfig.getCurrentCluster()?.server, namespace: config.K8S_NAMESPACE },
    "kubernetes deployer ready",
  );
  return new KubernetesDeployer({
    kubeConfig,
    defaultNamespace: config.K8S_NAMESPACE,
    runtimeImage: config.K8S_AGENT_RUNTIME_IMAGE,
    databaseServerUrl: config.K8S_DATABASE_URL ?? config.CONTROL_PLANE_DATABASE_URL,
    redisUrl,
    progressDeadlineSeconds: config.K8S_PROGRESS_DEADLINE_SECONDS,
    registry: registry && imagePullAccess(registry),
    outbound: outboundFetch(config.OUTBOUND_ALLOW),
    logger: logger.child({ deployer: "kubernetes" }),
  });
}
