import type { PullCredential } from "../../registry/pull";
import type { DeploymentTarget, RevisionTarget } from "../deployer";
import { deploymentEnv } from "../runtime-env";
import type { K8s } from "./client";
import {
  apiSizing,
  cpuQuantity,
  memoryQuantity,
  queueSizing,
  resourceSpecOf,
  type ResourceSpec,
  type Sizing,
} from "./resource-spec";

/** The port the runtime container listens on (set through PORT, which both the platform's agent runtime and langgraph-api images read). */
export const RUNTIME_PORT = 8000;
/** Where a source revision's project is checked out inside the pod. */
export const PROJECT_DIR = "/project";
/** The agent runtime image's tool that makes a project's Python environment, run from the image's /app. */
export const PYTHON_PREPARE = "services/agent-runtime/src/python/prepare.ts";
/** Runs one queue-worker pod executes at a time (runs mostly wait on model calls). */
export const QUEUE_CONCURRENCY = 10;
/** HPAs scale on CPU utilisation of the requests. */
export const HPA_CPU_UTILIZATION = 75;
export const MANAGED_BY = "lgp-control-plane";
export const LABEL_DEPLOYMENT_ID = "lgp.dev/deployment-id";
export const ANNOTATION_REVISION_ID = "lgp.dev/revision-id";

export type Manifest = K8s.KubernetesObject & Record<string, unknown>;

/** What a revision runs: an image, or the runtime image serving a repository checked out at start-up. */
export type Workload =
  | { kind: "image"; image: string }
  | {
      kind: "source";
      runtimeImage: string;
      repoUrl: string;
      repoRef: string;
      configPath: string;
      installCommand?: string;
      buildCommand?: string;
    };

export interface RenderInput {
  deployment: DeploymentTarget;
  revision: RevisionTarget;
  workload: Workload;
  namespace: string;
  databaseUrl: string;
  redisUrl: string;
  progressDeadlineSeconds: number;
  /** The queue worker's command; default the platform agent runtime's worker entry point. */
  workerCommand?: string[];
  /** Credentials for the image's registry (the control plane's own registry, for pushed images). */
  pullCredential?: PullCredential;
}

export interface RenderedRevision {
  namespace: string;
  names: ResourceNames;
  /** In apply order: the Secret before the workloads that read it. */
  manifests: Manifest[];
  /** In-cluster URL of the revision's API. */
  url: string;
}

export interface ResourceNames {
  base: string;
  api: string;
  queue: string;
  service: string;
  secret: string;
  /** The docker config Secret the pods pull the deployment's pushed images with. */
  pullSecret: string;
}

export const DEFAULT_WORKER_COMMAND = ["node", "--import", "tsx", "services/agent-runtime/src/worker.ts"];

/** Kubernetes names for a deployment: its name made DNS-safe plus its id, so two tenants' "agent" never collide. */
export function resourceNames(deployment: Pick<DeploymentTarget, "id" | "name">): ResourceNames {
  const slug =
    deployment.name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "") || "deployment";
  const base = `${slug}-${deployment.id.replace(/-/g, "").slice(0, 8).toLowerCase()}`;
  return {
    base,
    api: base,
    queue: `${base}-queue`,
    service: base,
    secret: `${base}-env`,
    pullSecret: `${base}-pull`,
  };
}

/** The namespace of a deployment: its listener's `k8s_namespace`, else the configured default. */
export function namespaceOf(deployment: DeploymentTarget, fallback: string): string {
  const listener = deployment.sourceConfig.listener_config as { k8s_namespace?: unknown } | undefined;
  const namespace = listener?.k8s_namespace;
  return typeof namespace === "string" && namespace.length > 0 ? namespace : fallback;
}

/** Volumes, mounts and containers from the resource_spec are Kubernetes objects, passed through as given. */
function passthrough<T>(items: readonly unknown[] | undefined): T[] {
  return [...((items ?? []) as T[])];
}

function resources(sizing: Sizing): K8s.V1ResourceRequirements {
  return {
    requests: { cpu: cpuQuantity(sizing.cpu), memory: memoryQuantity(sizing.memoryMb) },
    limits: { cpu: cpuQuantity(sizing.cpuLimit), memory: memoryQuantity(sizing.memoryLimitMb) },
  };
}

/** Regular containers may not carry restartPolicy; a sidecar that asks for `Always` is a native sidecar (an init container). */
function splitSidecars(sidecars: K8s.V1Container[]): { native: K8s.V1Container[]; regular: K8s.V1Container[] } {
  const native = sidecars.filter((container) => container.restartPolicy === "Always");
  const regular = sidecars
    .filter((container) => container.restartPolicy !== "Always")
    .map(({ restartPolicy: _ignored, ...container }) => container);
  return { native, regular };
}

function podTemplate(
  input: RenderInput,
  spec: ResourceSpec,
  labels: Record<string, string>,
  annotations: Record<string, string>,
  main: K8s.V1Container,
): K8s.V1PodTemplateSpec {
  const { native, regular } = splitSidecars(passthrough<K8s.V1Container>(spec.sidecars));
  const pullSecrets = (spec.image_pull_secrets ?? []).map(({ name }) => ({ name }));
  if (input.pullCredential) pullSecrets.push({ name: resourceNames(input.deployment).pullSecret });
  const volumes = passthrough<K8s.V1Volume>(spec.volumes);
  const initContainers: K8s.V1Container[] = [];
  if (input.workload.kind === "source") {
    volumes.push({ name: "project", emptyDir: {} });
    initContainers.push(sourceInitContainer(input.workload));
  }
  initContainers.push(...passthrough<K8s.V1Container>(spec.init_containers), ...native);
  return {
    metadata: { labels, annotations },
    spec: {
      ...(spec.service_account_name ? { serviceAccountName: spec.service_account_name } : {}),
      ...(pullSecrets.length ? { imagePullSecrets: pullSecrets } : {}),
      // The restricted Pod Security Standard: images must run as a non-root (numeric) user, as the agent runtime image does.
      securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
      terminationGracePeriodSeconds: 60,
      ...(initContainers.length ? { initContainers } : {}),
      containers: [main, ...regular],
      ...(volumes.length ? { volumes } : {}),
    },
  };
}

/** Where a source revision's langgraph.json is in the pod. */
function projectConfig(workload: Extract<Workload, { kind: "source" }>): string {
  return `${PROJECT_DIR}/src/${workload.configPath.replace(/^\.?\/+/, "")}`;
}

/**
 * Checks the repository out into the shared `project` volume, runs the install and build commands
 * there, and makes its Python environment when it has Python graphs.
 */
function sourceInitContainer(workload: Extract<Workload, { kind: "source" }>): K8s.V1Container {
  const steps = [
    `git clone --depth 1 --branch "$REPO_REF" "$REPO_URL" ${PROJECT_DIR}/src`,
    `cd ${PROJECT_DIR}/src`,
    ...(workload.installCommand ? [workload.installCommand] : []),
    ...(workload.buildCommand ? [workload.buildCommand] : []),
    // A project with Python graphs: its environment, which the runtime then finds there.
    `(cd /app && node --import tsx ${PYTHON_PREPARE} "${projectConfig(workload)}" --environments-dir ${PROJECT_DIR}/python --if-needed)`,
  ];
  return {
    name: "fetch-source",
    image: workload.runtimeImage,
    command: ["sh", "-ec", steps.join("\n")],
    env: [
      { name: "REPO_URL", value: workload.repoUrl },
      { name: "REPO_REF", value: workload.repoRef },
      { name: "HOME", value: "/tmp" },
    ],
    volumeMounts: [{ name: "project", mountPath: PROJECT_DIR }],
    securityContext: containerSecurityContext(),
  };
}

function containerSecurityContext(): K8s.V1SecurityContext {
  return { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } };
}

function mainContainer(
  input: RenderInput,
  spec: ResourceSpec,
  role: "api" | "queue",
  sizing: Sizing,
  secretName: string,
): K8s.V1Container {
  const image = input.workload.kind === "image" ? input.workload.image : input.workload.runtimeImage;
  const env: K8s.V1EnvVar[] = [
    { name: "PORT", value: String(RUNTIME_PORT) },
    { name: "HOST", value: "0.0.0.0" },
    // API pods take no runs themselves: the queue Deployment executes them, QUEUE_CONCURRENCY per pod.
    { name: "WORKERS", value: role === "api" ? "0" : String(QUEUE_CONCURRENCY) },
    // Deployments may share one Redis: each keeps its queue and event streams under its own prefix.
    { name: "REDIS_PREFIX", value: `lgp:${input.deployment.id}` },
    { name: "LGP_DEPLOYMENT_ID", value: input.deployment.id },
    { name: "LGP_REVISION_ID", value: input.revision.id },
  ];
  const volumeMounts = passthrough<K8s.V1VolumeMount>(spec.volume_mounts);
  if (input.workload.kind === "source") {
    env.push(
      { name: "LANGGRAPH_JSON", value: projectConfig(input.workload) },
      { name: "PYTHON_ENVIRONMENTS_DIR", value: `${PROJECT_DIR}/python` },
    );
    volumeMounts.push({ name: "project", mountPath: PROJECT_DIR });
  }
  const container: K8s.V1Container = {
    name: role === "api" ? "api" : "queue",
    image,
    env,
    envFrom: [{ secretRef: { name: secretName } }],
    resources: resources(sizing),
    securityContext: containerSecurityContext(),
    ...(volumeMounts.length ? { volumeMounts } : {}),
  };
  if (role === "api") {
    container.ports = [{ name: "http", containerPort: RUNTIME_PORT, protocol: "TCP" }];
    container.readinessProbe = { httpGet: { path: "/ok", port: "http" }, periodSeconds: 5, failureThreshold: 3 };
    container.livenessProbe = { httpGet: { path: "/ok", port: "http" }, periodSeconds: 15, failureThreshold: 4 };
    container.startupProbe = { httpGet: { path: "/ok", port: "http" }, periodSeconds: 5, failureThreshold: 60 };
  } else {
    container.command = input.workerCommand ?? DEFAULT_WORKER_COMMAND;
  }
  return container;
}

/** Replicas are fixed unless an HPA owns them (min < max, min >= 1): then `replicas` is left out so applies never fight the HPA. */
function hasAutoscaler(sizing: Sizing): boolean {
  return sizing.minScale >= 1 && sizing.maxScale > sizing.minScale;
}

function deploymentManifest(
  input: RenderInput,
  spec: ResourceSpec,
  name: string,
  role: "api" | "queue",
  sizing: Sizing,
  names: ResourceNames,
  commonLabels: Record<string, string>,
  annotations: Record<string, string>,
): Manifest {
  const selector = { "app.kubernetes.io/instance": names.base, "app.kubernetes.io/component": role };
  const labels = { ...commonLabels, ...selector };
  const podAnnotations = { ...annotations, [ANNOTATION_REVISION_ID]: input.revision.id };
  const deployment: K8s.V1Deployment = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: input.namespace, labels, annotations: podAnnotations },
    spec: {
      ...(hasAutoscaler(sizing) ? {} : { replicas: sizing.minScale }),
      selector: { matchLabels: selector },
      progressDeadlineSeconds: input.progressDeadlineSeconds,
      revisionHistoryLimit: 5,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: "25%" } },
      template: podTemplate(
        input,
        spec,
        labels,
        podAnnotations,
        mainContainer(input, spec, role, sizing, names.secret),
      ),
    },
  };
  return deployment as Manifest;
}

function autoscalerManifest(
  namespace: string,
  target: string,
  sizing: Sizing,
  labels: Record<string, string>,
  annotations: Record<string, string>,
): Manifest {
  const hpa: K8s.V2HorizontalPodAutoscaler = {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: target, namespace, labels, annotations },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: target },
      minReplicas: sizing.minScale,
      maxReplicas: sizing.maxScale,
      metrics: [
        {
          type: "Resource",
          resource: { name: "cpu", target: { type: "Utilization", averageUtilization: HPA_CPU_UTILIZATION } },
        },
      ],
    },
  };
  return hpa as Manifest;
}

/** A `kubernetes.io/dockerconfigjson` Secret holding one registry's credential, as `docker login` would write it. */
function pullSecretManifest(
  credential: PullCredential,
  name: string,
  namespace: string,
  labels: Record<string, string>,
): Manifest {
  const { registry, username, password } = credential;
  const auth = Buffer.from(`${username}:${password}`).toString("base64");
  const config = JSON.stringify({ auths: { [registry]: { username, password, auth } } });
  const secret: K8s.V1Secret = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace, labels },
    type: "kubernetes.io/dockerconfigjson",
    data: { ".dockerconfigjson": Buffer.from(config).toString("base64") },
  };
  return secret as Manifest;
}

/**
 * Renders a revision into the manifests that run it: a Secret (runtime connection strings, the hash
 * of the runtime's API key and the deployment's secrets), the registry pull Secret of a pushed image, the API Deployment and its Service, the queue-worker Deployment, and an
 * HPA for each Deployment whose scale range allows one. Pure: no cluster access.
 */
export function renderRevision(input: RenderInput): RenderedRevision {
  const spec = resourceSpecOf(input.deployment.sourceConfig);
  const names = resourceNames(input.deployment);
  const { namespace } = input;
  // The platform's labels win over the user's, so a resource_spec label can never break a selector.
  const commonLabels: Record<string, string> = {
    ...(spec.labels ?? {}),
    "app.kubernetes.io/name": "langgraph-deployment",
    "app.kubernetes.io/instance": names.base,
    "app.kubernetes.io/managed-by": MANAGED_BY,
    [LABEL_DEPLOYMENT_ID]: input.deployment.id,
  };
  const annotations = { ...(spec.annotations ?? {}) };
  const api = apiSizing(spec);
  const queue = queueSizing(spec);

  // The deployment's secrets (and the tracing project they imply, see deploymentEnv).
  const secretData = deploymentEnv(input.deployment);
  // Connection strings last: a deployment secret cannot redirect the runtime to another database.
  secretData.DATABASE_URL = input.databaseUrl;
  secretData.REDIS_URL = input.redisUrl;
  // The runtime's key, as its hash only: the control plane never holds the key after minting it.
  if (input.deployment.runtimeKeyHash) secretData.API_KEY_HASHES = input.deployment.runtimeKeyHash;
  else delete secretData.API_KEY_HASHES;
  const secret: K8s.V1Secret = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: names.secret, namespace, labels: commonLabels, annotations },
    type: "Opaque",
    data: Object.fromEntries(
      Object.entries(secretData).map(([key, value]) => [key, Buffer.from(value, "utf8").toString("base64")]),
    ),
  };

  const service: K8s.V1Service = {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: names.service,
      namespace,
      labels: { ...commonLabels, "app.kubernetes.io/component": "api" },
      annotations,
    },
    spec: {
      type: "ClusterIP",
      selector: { "app.kubernetes.io/instance": names.base, "app.kubernetes.io/component": "api" },
      ports: [{ name: "http", port: 80, targetPort: "http", protocol: "TCP" }],
    },
  };

  const manifests: Manifest[] = [
    secret as Manifest,
    ...(input.pullCredential
      ? [pullSecretManifest(input.pullCredential, names.pullSecret, namespace, commonLabels)]
      : []),
    deploymentManifest(input, spec, names.api, "api", api, names, commonLabels, annotations),
    service as Manifest,
    deploymentManifest(input, spec, names.queue, "queue", queue, names, commonLabels, annotations),
  ];
  if (hasAutoscaler(api)) {
    manifests.push(
      autoscalerManifest(
        namespace,
        names.api,
        api,
        { ...commonLabels, "app.kubernetes.io/component": "api" },
        annotations,
      ),
    );
  }
  if (hasAutoscaler(queue)) {
    manifests.push(
      autoscalerManifest(
        namespace,
        names.queue,
        queue,
        { ...commonLabels, "app.kubernetes.io/component": "queue" },
        annotations,
      ),
    );
  }
  return { namespace, names, manifests, url: `http://${names.service}.${namespace}.svc.cluster.local` };
}
