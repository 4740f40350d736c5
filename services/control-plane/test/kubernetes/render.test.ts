import type { DeploymentTarget, RevisionTarget } from "../../src/deployers/deployer";
import {
  renderRevision,
  resourceNames,
  namespaceOf,
  type Manifest,
  type RenderInput,
} from "../../src/deployers/kubernetes/render";
import { cpuQuantity, memoryQuantity } from "../../src/deployers/kubernetes/resource-spec";
import { validateManifest } from "./schemas";
// The packaging must fit the runtime it runs: the rendered environment is checked against its schema.
import { loadAgentRuntimeConfig } from "../../../agent-runtime/src/config";

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are inspected as plain JSON */

const DEPLOYMENT_ID = "3f2b9c1e-7a4d-4e8f-9b1a-0c2d3e4f5a6b";
const REVISION_ID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

function deployment(
  resourceSpec: Record<string, unknown> | null,
  extra: Partial<DeploymentTarget> = {},
): DeploymentTarget {
  return {
    id: DEPLOYMENT_ID,
    tenantId: "00000000-0000-4000-8000-000000000001",
    name: "My Agent",
    source: "internal_docker",
    sourceConfig: resourceSpec ? { resource_spec: resourceSpec } : {},
    secrets: [{ name: "OPENAI_API_KEY", value: "sk-test" }],
    runtimeKeyHash: `sha256:${"ab".repeat(32)}`,
    ...extra,
  };
}

const revision: RevisionTarget = {
  id: REVISION_ID,
  sourceRevisionConfig: { image_uri: "registry.example/agent:1.2.3" },
};

function render(target: DeploymentTarget, overrides: Partial<RenderInput> = {}) {
  return renderRevision({
    deployment: target,
    revision,
    workload: { kind: "image", image: "registry.example/agent:1.2.3" },
    namespace: namespaceOf(target, "default"),
    databaseUrl: "postgresql://u:p@db:5432/lgp_deployment_x",
    redisUrl: "redis://redis:6379/0",
    progressDeadlineSeconds: 600,
    ...overrides,
  });
}

function find(manifests: Manifest[], kind: string, name: string): any {
  const found = manifests.find((m) => m.kind === kind && m.metadata?.name === name);
  if (!found)
    throw new Error(`no ${kind} ${name} among ${manifests.map((m) => `${m.kind}/${m.metadata?.name}`).join(", ")}`);
  return found;
}

/** Every optional field of resource_spec, with values unlike the defaults. */
const FULL_SPEC = {
  min_scale: 2,
  max_scale: 6,
  queue_min_scale: 3,
  queue_max_scale: 9,
  cpu: 0.5,
  cpu_limit: 1.5,
  memory_mb: 512,
  memory_limit_mb: 2048,
  queue_cpu: 0.25,
  queue_cpu_limit: 2,
  queue_memory_mb: 768,
  queue_memory_limit_mb: 1536,
  labels: { team: "agents", "app.kubernetes.io/instance": "hijack" },
  annotations: { "example.com/owner": "ml-platform" },
  service_account_name: "agent-sa",
  image_pull_secrets: [{ name: "regcred" }],
  volumes: [
    { name: "config", configMap: { name: "agent-config" } },
    { name: "creds", secret: { secretName: "agent-creds" } },
    { name: "scratch", emptyDir: { sizeLimit: "1Gi" } },
    { name: "data", persistentVolumeClaim: { claimName: "agent-data" } },
  ],
  volume_mounts: [
    { name: "config", mountPath: "/etc/agent", readOnly: true },
    { name: "scratch", mountPath: "/scratch", subPath: "work" },
  ],
  init_containers: [
    {
      name: "wait-for-db",
      image: "busybox:1.36",
      command: ["sh", "-c", "until nc -z db 5432; do sleep 1; done"],
      resources: { requests: { cpu: "50m", memory: "32Mi" }, limits: { cpu: "100m", memory: "64Mi" } },
    },
  ],
  sidecars: [
    {
      name: "proxy",
      image: "envoyproxy/envoy:v1.31.0",
      args: ["--config-path", "/etc/envoy/envoy.yaml"],
      env: [{ name: "LEVEL", value: "info" }],
      volumeMounts: [{ name: "config", mountPath: "/etc/envoy" }],
    },
    { name: "log-shipper", image: "fluent/fluent-bit:3.1", restartPolicy: "Always" },
  ],
};

describe("resource quantities", () => {
  test.each([
    [0.5, "500m"],
    [0.1, "100m"],
    [0.25, "250m"],
    [1, "1"],
    [1.5, "1500m"],
    [2, "2"],
    [8, "8"],
    [0.333, "333m"],
  ])("cpu %p -> %p", (cores, quantity) => expect(cpuQuantity(cores)).toBe(quantity));

  test.each([
    [512, "512Mi"],
    [128, "128Mi"],
    [1024, "1024Mi"],
    [65536, "65536Mi"],
  ])("memory_mb %p -> %p", (mb, quantity) => expect(memoryQuantity(mb)).toBe(quantity));
});

describe("renderRevision mapping", () => {
  test("a full resource_spec maps field by field", () => {
    const target = deployment(FULL_SPEC, {
      sourceConfig: { resource_spec: FULL_SPEC, listener_config: { k8s_namespace: "team-a" } },
    });
    const { manifests, names, namespace, url } = render(target);
    expect(namespace).toBe("team-a");
    expect(names.base).toBe("my-agent-3f2b9c1e");
    expect(url).toBe("http://my-agent-3f2b9c1e.team-a.svc.cluster.local");
    for (const manifest of manifests) expect(manifest.metadata?.namespace).toBe("team-a");

    const api = find(manifests, "Deployment", names.api);
    const queue = find(manifests, "Deployment", names.queue);
    const apiContainer = api.spec.template.spec.containers[0];
    const queueContainer = queue.spec.template.spec.containers[0];

    // cpu/memory requests and limits
    expect(apiContainer.resources).toEqual({
      requests: { cpu: "500m", memory: "512Mi" },
      limits: { cpu: "1500m", memory: "2048Mi" },
    });
    expect(queueContainer.resources).toEqual({
      requests: { cpu: "250m", memory: "768Mi" },
      limits: { cpu: "2", memory: "1536Mi" },
    });
    expect(apiContainer.image).toBe("registry.example/agent:1.2.3");
    expect(queueContainer.image).toBe("registry.example/agent:1.2.3");

    // HPAs from min/max_scale and queue_min/max_scale; no fixed replicas where an HPA owns them
    const apiHpa = find(manifests, "HorizontalPodAutoscaler", names.api);
    const queueHpa = find(manifests, "HorizontalPodAutoscaler", names.queue);
    expect([apiHpa.spec.minReplicas, apiHpa.spec.maxReplicas]).toEqual([2, 6]);
    expect([queueHpa.spec.minReplicas, queueHpa.spec.maxReplicas]).toEqual([3, 9]);
    expect(apiHpa.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: names.api });
    expect(queueHpa.spec.scaleTargetRef.name).toBe(names.queue);
    expect(api.spec.replicas).toBeUndefined();
    expect(queue.spec.replicas).toBeUndefined();

    // labels and annotations: on every object and pod template; the platform's selector labels win
    for (const manifest of manifests) {
      expect((manifest.metadata as any).labels.team).toBe("agents");
      expect((manifest.metadata as any).labels["app.kubernetes.io/instance"]).toBe(names.base);
      expect((manifest.metadata as any).annotations["example.com/owner"]).toBe("ml-platform");
    }
    for (const workload of [api, queue]) {
      const pod = workload.spec.template;
      expect(pod.metadata.labels.team).toBe("agents");
      expect(pod.metadata.annotations["example.com/owner"]).toBe("ml-platform");
      expect(pod.metadata.annotations["lgp.dev/revision-id"]).toBe(REVISION_ID);
      for (const [key, value] of Object.entries(workload.spec.selector.matchLabels))
        expect(pod.metadata.labels[key]).toBe(value);

      // service account, pull secrets, volumes, mounts, init containers, sidecars
      expect(pod.spec.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
      for (const container of [
        pod.spec.containers[0],
        ...pod.spec.initContainers.filter((c: any) => c.name === "fetch-source"),
      ]) {
        expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } });
      }
      expect(pod.spec.serviceAccountName).toBe("agent-sa");
      expect(pod.spec.imagePullSecrets).toEqual([{ name: "regcred" }]);
      expect(pod.spec.volumes).toEqual(FULL_SPEC.volumes);
      expect(pod.spec.containers[0].volumeMounts).toEqual(FULL_SPEC.volume_mounts);
      expect(pod.spec.initContainers.map((c: any) => c.name)).toEqual(["wait-for-db", "log-shipper"]);
      expect(pod.spec.initContainers[0]).toEqual(FULL_SPEC.init_containers[0]);
      // restartPolicy Always makes a native sidecar (an init container); others run beside the runtime
      expect(pod.spec.initContainers[1]).toEqual(FULL_SPEC.sidecars[1]);
      expect(pod.spec.containers.map((c: any) => c.name)).toEqual([workload === api ? "api" : "queue", "proxy"]);
      expect(pod.spec.containers[1]).toEqual(FULL_SPEC.sidecars[0]);
      expect(pod.spec.containers[0].envFrom).toEqual([{ secretRef: { name: names.secret } }]);
    }
    expect(api.spec.selector.matchLabels).toEqual({
      "app.kubernetes.io/instance": names.base,
      "app.kubernetes.io/component": "api",
    });
    expect(queue.spec.selector.matchLabels).toEqual({
      "app.kubernetes.io/instance": names.base,
      "app.kubernetes.io/component": "queue",
    });

    // API vs queue roles
    const env = (container: any) => Object.fromEntries(container.env.map((e: any) => [e.name, e.value]));
    expect(env(apiContainer)).toMatchObject({
      PORT: "8000",
      WORKERS: "0",
      LGP_DEPLOYMENT_ID: DEPLOYMENT_ID,
      LGP_REVISION_ID: REVISION_ID,
    });
    expect(env(queueContainer)).toMatchObject({ WORKERS: "10", REDIS_PREFIX: `lgp:${DEPLOYMENT_ID}` });
    expect(env(apiContainer).REDIS_PREFIX).toBe(`lgp:${DEPLOYMENT_ID}`);
    expect(apiContainer.readinessProbe.httpGet).toEqual({ path: "/ok", port: "http" });
    expect(queueContainer.command).toEqual(["node", "--import", "tsx", "services/agent-runtime/src/worker.ts"]);
    expect(queueContainer.ports).toBeUndefined();

    // Service selects the API pods only
    const service = find(manifests, "Service", names.service);
    expect(service.spec.selector).toEqual(api.spec.selector.matchLabels);
    expect(service.spec.ports).toEqual([{ name: "http", port: 80, targetPort: "http", protocol: "TCP" }]);

    // Secret from secrets, plus the runtime's connection strings and key hash (which a secret cannot override)
    const secret = find(manifests, "Secret", names.secret);
    const decoded = Object.fromEntries(
      Object.entries(secret.data as Record<string, string>).map(([k, v]) => [
        k,
        Buffer.from(v, "base64").toString("utf8"),
      ]),
    );
    expect(decoded).toEqual({
      OPENAI_API_KEY: "sk-test",
      DATABASE_URL: "postgresql://u:p@db:5432/lgp_deployment_x",
      REDIS_URL: "redis://redis:6379/0",
      API_KEY_HASHES: `sha256:${"ab".repeat(32)}`,
    });
    expect(manifests[0]).toBe(secret);
    for (const container of [apiContainer, queueContainer]) {
      const runtime = loadAgentRuntimeConfig({ ...decoded, ...env(container) });
      expect(runtime.PORT).toBe(8000);
      expect(runtime.WORKERS).toBe(container === apiContainer ? 0 : 10);
    }
    expect(JSON.stringify(manifests)).not.toContain("sk-test");
  });

  test("the runtime's key reaches it as its hash only, and a deployment secret cannot replace it", () => {
    const hash = `sha256:${"ab".repeat(32)}`;
    const { manifests, names } = render(
      deployment(null, { secrets: [{ name: "API_KEY_HASHES", value: `sha256:${"00".repeat(32)}` }] }),
    );
    const secret = find(manifests, "Secret", names.secret);
    const data = secret.data as Record<string, string>;
    expect(Buffer.from(data.API_KEY_HASHES, "base64").toString("utf8")).toBe(hash);
    const runtime = loadAgentRuntimeConfig({ ...decodeAll(data), PORT: "8000" });
    expect(runtime.API_KEY_HASHES?.map((digest) => digest.toString("hex"))).toEqual(["ab".repeat(32)]);
    // Every container reads it from the Secret: no plain environment value carries it.
    const api = find(manifests, "Deployment", names.api);
    expect(JSON.stringify(api.spec.template.spec.containers[0].env)).not.toContain("API_KEY_HASHES");
    expect(api.spec.template.spec.containers[0].envFrom).toEqual([{ secretRef: { name: names.secret } }]);

    // A deployment made before keys existed has none: its own secret, if any, is passed as given.
    const legacy = render(deployment(null, { runtimeKeyHash: null }));
    expect(find(legacy.manifests, "Secret", legacy.names.secret).data).not.toHaveProperty("API_KEY_HASHES");
  });

  test("secrets that turn LangSmith tracing on get a tracing project named after the deployment", () => {
    const tracing = [
      { name: "LANGSMITH_TRACING", value: "true" },
      { name: "LANGSMITH_API_KEY", value: "lsv2_pt_fake" },
    ];
    const named = render(deployment(null, { secrets: tracing }));
    expect(decodeAll(find(named.manifests, "Secret", named.names.secret).data)).toMatchObject({
      LANGSMITH_TRACING: "true",
      LANGSMITH_API_KEY: "lsv2_pt_fake",
      LANGSMITH_PROJECT: "My Agent",
    });
    const chosen = render(deployment(null, { secrets: [...tracing, { name: "LANGSMITH_PROJECT", value: "mine" }] }));
    expect(decodeAll(find(chosen.manifests, "Secret", chosen.names.secret).data).LANGSMITH_PROJECT).toBe("mine");
    const untraced = render(deployment(null));
    expect(decodeAll(find(untraced.manifests, "Secret", untraced.names.secret).data)).not.toHaveProperty(
      "LANGSMITH_PROJECT",
    );
  });

  test("defaults: limits twice the requests, queue sizing from the main values, no HPA for a fixed scale", () => {
    const { manifests, names } = render(deployment({ cpu: 0.5, memory_mb: 512, min_scale: 2, max_scale: 2 }));
    const api = find(manifests, "Deployment", names.api);
    const queue = find(manifests, "Deployment", names.queue);
    expect(api.spec.template.spec.containers[0].resources).toEqual({
      requests: { cpu: "500m", memory: "512Mi" },
      limits: { cpu: "1", memory: "1024Mi" },
    });
    expect(queue.spec.template.spec.containers[0].resources).toEqual(api.spec.template.spec.containers[0].resources);
    expect(api.spec.replicas).toBe(2);
    expect(queue.spec.replicas).toBe(2);
    expect(manifests.filter((m) => m.kind === "HorizontalPodAutoscaler")).toEqual([]);
  });

  test("a queue request given alone doubles for its own limit; api limits stay explicit", () => {
    const { manifests, names } = render(
      deployment({ cpu: 1, cpu_limit: 3, memory_mb: 1024, queue_cpu: 0.75, queue_memory_mb: 300 }),
    );
    const queue = find(manifests, "Deployment", names.queue).spec.template.spec.containers[0];
    const api = find(manifests, "Deployment", names.api).spec.template.spec.containers[0];
    expect(api.resources.limits).toEqual({ cpu: "3", memory: "2048Mi" });
    expect(queue.resources).toEqual({
      requests: { cpu: "750m", memory: "300Mi" },
      limits: { cpu: "1500m", memory: "600Mi" },
    });
  });

  test("no resource_spec: one replica of each, 1 cpu / 1024Mi, the configured namespace", () => {
    const target = deployment(null);
    const { manifests, names, namespace } = render(target, { namespace: namespaceOf(target, "agents") });
    expect(namespace).toBe("agents");
    const api = find(manifests, "Deployment", names.api);
    expect(api.spec.replicas).toBe(1);
    expect(api.spec.template.spec.containers[0].resources).toEqual({
      requests: { cpu: "1", memory: "1024Mi" },
      limits: { cpu: "2", memory: "2048Mi" },
    });
    expect(api.spec.template.spec.serviceAccountName).toBeUndefined();
    expect(api.spec.template.spec.volumes).toBeUndefined();
    expect(api.spec.template.spec.initContainers).toBeUndefined();
    expect(manifests.map((m) => m.kind)).toEqual(["Secret", "Deployment", "Service", "Deployment"]);
  });

  test("min_scale 0 scales the revision to zero without an HPA", () => {
    const { manifests, names } = render(deployment({ min_scale: 0, max_scale: 3, queue_min_scale: 0 }));
    expect(find(manifests, "Deployment", names.api).spec.replicas).toBe(0);
    expect(find(manifests, "Deployment", names.queue).spec.replicas).toBe(0);
    expect(manifests.some((m) => m.kind === "HorizontalPodAutoscaler")).toBe(false);
  });

  test("a source revision runs on the runtime image with the repository checked out by an init container", () => {
    const target = deployment({ min_scale: 1 }, { source: "github" });
    const { manifests, names } = render(target, {
      workload: {
        kind: "source",
        runtimeImage: "langgraph-platform/agent-runtime:0.1.0",
        repoUrl: "https://git.example/acme/agent.git",
        repoRef: "release",
        configPath: "./agents/langgraph.json",
        installCommand: "npm ci",
        buildCommand: "npm run build",
      },
    });
    const pod = find(manifests, "Deployment", names.api).spec.template.spec;
    expect(pod.initContainers[0].name).toBe("fetch-source");
    expect(pod.initContainers[0].image).toBe("langgraph-platform/agent-runtime:0.1.0");
    expect(pod.initContainers[0].env).toEqual(
      expect.arrayContaining([
        { name: "REPO_URL", value: "https://git.example/acme/agent.git" },
        { name: "REPO_REF", value: "release" },
      ]),
    );
    const script = pod.initContainers[0].command[2] as string;
    expect(script.split("\n")).toEqual([
      'git clone --depth 1 --branch "$REPO_REF" "$REPO_URL" /project/src',
      "cd /project/src",
      "npm ci",
      "npm run build",
      '(cd /app && node --import tsx services/agent-runtime/src/python/prepare.ts "/project/src/agents/langgraph.json" --environments-dir /project/python --if-needed)',
    ]);
    expect(pod.containers[0].image).toBe("langgraph-platform/agent-runtime:0.1.0");
    expect(pod.containers[0].env).toContainEqual({
      name: "LANGGRAPH_JSON",
      value: "/project/src/agents/langgraph.json",
    });
    // Python graphs: the environment the init container made is where the runtime looks.
    expect(pod.containers[0].env).toContainEqual({ name: "PYTHON_ENVIRONMENTS_DIR", value: "/project/python" });
    expect(pod.volumes).toEqual([{ name: "project", emptyDir: {} }]);
  });

  test("names are DNS-safe, bounded and unique per deployment id", () => {
    const long = resourceNames({ id: DEPLOYMENT_ID, name: `Agent_${"x".repeat(80)}!!` });
    expect(long.base).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(long.queue.length).toBeLessThanOrEqual(63);
    expect(long.secret.length).toBeLessThanOrEqual(63);
    const other = resourceNames({ id: "aaaaaaaa-0000-4000-8000-000000000000", name: "My Agent" });
    expect(other.base).not.toBe(resourceNames({ id: DEPLOYMENT_ID, name: "My Agent" }).base);
  });
});

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** What the API server checks beyond the OpenAPI schema: names and label values. */
function checkNamesAndLabels(manifest: Manifest): void {
  const name = manifest.metadata?.name ?? "";
  expect(name).toMatch(DNS_LABEL);
  expect(name.length).toBeLessThanOrEqual(63);
  for (const value of Object.values((manifest.metadata as any).labels ?? {})) {
    expect(String(value)).toMatch(LABEL_VALUE);
    expect(String(value).length).toBeLessThanOrEqual(63);
  }
}

describe("every rendered manifest is valid against the Kubernetes API schemas", () => {
  const matrix: [string, Record<string, unknown> | null][] = [
    ["no resource_spec", null],
    ["empty resource_spec", {}],
    ["nulls everywhere", { min_scale: null, max_scale: null, cpu: null, memory_mb: null, queue_cpu: null, labels: {} }],
    ["fractional cpu", { cpu: 0.1, cpu_limit: 0.3, memory_mb: 128 }],
    [
      "max cpu and memory",
      { cpu: 8, cpu_limit: 16, memory_mb: 65536, memory_limit_mb: 131072, queue_cpu: 8, queue_memory_mb: 65536 },
    ],
    ["autoscaled", { min_scale: 1, max_scale: 10, queue_min_scale: 2, queue_max_scale: 20 }],
    ["scaled to zero", { min_scale: 0, queue_min_scale: 0 }],
    ["every optional field", FULL_SPEC],
    ["only labels and annotations", { labels: { a: "b" }, annotations: { "x.io/y": "z" } }],
    ["only sidecars", { sidecars: FULL_SPEC.sidecars }],
    [
      "only init containers and volumes",
      {
        init_containers: FULL_SPEC.init_containers,
        volumes: FULL_SPEC.volumes,
        volume_mounts: FULL_SPEC.volume_mounts,
      },
    ],
    [
      "service account and pull secrets",
      { service_account_name: "sa", image_pull_secrets: [{ name: "a" }, { name: "b" }] },
    ],
  ];

  test.each(matrix)("%s", (_label, spec) => {
    for (const workload of [
      { kind: "image" as const, image: "registry.example/agent@sha256:" + "a".repeat(64) },
      {
        kind: "source" as const,
        runtimeImage: "langgraph-platform/agent-runtime:latest",
        repoUrl: "https://git.example/a.git",
        repoRef: "main",
        configPath: "langgraph.json",
      },
    ]) {
      const { manifests } = render(deployment(spec), { workload });
      expect(manifests.length).toBeGreaterThanOrEqual(4);
      for (const manifest of manifests) {
        expect(() => validateManifest(manifest)).not.toThrow();
        checkNamesAndLabels(manifest);
      }
    }
  });

  test("the validator rejects a broken manifest (the check can fail)", () => {
    const { manifests, names } = render(deployment(FULL_SPEC));
    const broken = structuredClone(find(manifests, "Deployment", names.api));
    broken.spec.template.spec.containers[0].resources.requests.cpu = "half a core";
    expect(() => validateManifest(broken)).toThrow(/quantity/);
    const noSelector = structuredClone(find(manifests, "Deployment", names.api));
    delete noSelector.spec.selector;
    expect(() => validateManifest(noSelector)).toThrow(/selector/);
  });
});

function decodeAll(data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]));
}
