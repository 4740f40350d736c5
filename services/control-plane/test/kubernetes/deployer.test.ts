import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { Client } from "pg";
import { ConfigError, createLogger } from "@lgp/server-kit";
import {
  DeployerError,
  type DeploymentTarget,
  type RevisionLog,
  type RevisionTarget,
} from "../../src/deployers/deployer";
import { loadKubeConfig } from "../../src/deployers/kubernetes/client";
import {
  KubernetesDeployer,
  createKubernetesDeployer,
  type KubernetesDeployerOptions,
} from "../../src/deployers/kubernetes";
import { loadControlPlaneConfig } from "../../src/config";
import { credentialKey, imagePullAccess, tokenSigningKey } from "../../src/registry";
import { generateKey } from "../../src/secrets/cipher";
import { FakeApiServer, writeKubeconfig } from "./fake-apiserver";

const PG_SERVER = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

class MemoryLog implements RevisionLog {
  readonly lines: string[] = [];
  info(message: string) {
    this.lines.push(`info ${message}`);
  }
  warn(message: string) {
    this.lines.push(`warn ${message}`);
  }
  error(message: string) {
    this.lines.push(`error ${message}`);
  }
}

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: PG_SERVER });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

describe("kubernetes deployer against a Kubernetes API on loopback", () => {
  const api = new FakeApiServer();
  let tmp: string;
  let kubeconfigPath: string;
  let deployer: KubernetesDeployer;
  const namespace = "team-a";

  function target(overrides: Partial<DeploymentTarget> = {}): DeploymentTarget {
    return {
      id: randomUUID(),
      tenantId: randomUUID(),
      name: "support-bot",
      source: "internal_docker",
      sourceConfig: {
        listener_config: { k8s_namespace: namespace },
        resource_spec: { cpu: 0.5, memory_mb: 512, min_scale: 1, max_scale: 3 },
      },
      secrets: [{ name: "OPENAI_API_KEY", value: "sk-live-123" }],
      runtimeKeyHash: `sha256:${"cd".repeat(32)}`,
      ...overrides,
    };
  }
  const revision = (image = "registry.example/support-bot:1.0.0"): RevisionTarget => ({
    id: randomUUID(),
    sourceRevisionConfig: { image_uri: image },
  });

  beforeAll(async () => {
    const server = await api.start();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lgp-k8s-"));
    kubeconfigPath = writeKubeconfig(tmp, server, api.token);
    deployer = deployerWith();
  });

  /** A deployer on the stand-in API with short deadlines (and `extra` options). */
  function deployerWith(extra: Partial<KubernetesDeployerOptions> = {}): KubernetesDeployer {
    return new KubernetesDeployer({
      kubeConfig: loadKubeConfig(kubeconfigPath),
      defaultNamespace: "default",
      runtimeImage: "langgraph-platform/agent-runtime:test",
      databaseServerUrl: PG_SERVER,
      redisUrl: "redis://redis.lgp:6379/0",
      progressDeadlineSeconds: 1,
      rolloutGraceMs: 0,
      pollIntervalMs: 10,
      ...extra,
    });
  }

  afterAll(async () => {
    await api.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  beforeEach(() => {
    api.rollout = "succeeds";
    api.failures.clear();
    api.requests.length = 0;
  });

  test("deploy applies every manifest with server-side apply, follows the rollout, and reports the URL", async () => {
    const deployment = target();
    const log = new MemoryLog();
    const rev = revision();
    const result = await deployer.deploy(deployment, rev, null, log);

    const base = `support-bot-${deployment.id.replace(/-/g, "").slice(0, 8)}`;
    expect(result.url).toBe(`http://${base}.${namespace}.svc.cluster.local`);

    const applies = api.requests.filter((r) => r.method === "PATCH");
    expect(applies.map((r) => r.path)).toEqual([
      `/api/v1/namespaces/${namespace}/secrets/${base}-env`,
      `/apis/apps/v1/namespaces/${namespace}/deployments/${base}`,
      `/api/v1/namespaces/${namespace}/services/${base}`,
      `/apis/apps/v1/namespaces/${namespace}/deployments/${base}-queue`,
      `/apis/autoscaling/v2/namespaces/${namespace}/horizontalpodautoscalers/${base}`,
      `/apis/autoscaling/v2/namespaces/${namespace}/horizontalpodautoscalers/${base}-queue`,
    ]);
    for (const request of applies) {
      expect(request.contentType).toBe("application/apply-patch+yaml");
      expect(request.query).toMatchObject({ fieldManager: "lgp-control-plane", force: "true" });
    }
    // The body is the rendered manifest, serialized by the client without losing fields.
    const apiDeployment = applies[1].body;
    expect(apiDeployment.spec.template.spec.containers[0].resources).toEqual({
      requests: { cpu: "500m", memory: "512Mi" },
      limits: { cpu: "1", memory: "1024Mi" },
    });
    expect(apiDeployment.spec.template.spec.containers[0].image).toBe("registry.example/support-bot:1.0.0");
    expect(apiDeployment.spec.strategy.rollingUpdate).toEqual({ maxUnavailable: 0, maxSurge: "25%" });
    expect(apiDeployment.spec.template.metadata.annotations["lgp.dev/revision-id"]).toBe(rev.id);
    expect(apiDeployment.spec.progressDeadlineSeconds).toBe(1);
    const service = applies[2].body;
    expect(service.spec.ports[0].targetPort).toBe("http");
    const secret = applies[0].body;
    expect(Buffer.from(secret.data.DATABASE_URL, "base64").toString()).toBe(deployer.databaseUrlFor(deployment));
    expect(Buffer.from(secret.data.OPENAI_API_KEY, "base64").toString()).toBe("sk-live-123");

    // The follower read both Deployments until the controller had observed and completed them.
    const reads = api.requests.filter((r) => r.method === "GET" && r.path.includes("/deployments/"));
    expect(reads.filter((r) => r.path.endsWith(`/deployments/${base}`)).length).toBeGreaterThanOrEqual(2);
    expect(reads.filter((r) => r.path.endsWith(`/deployments/${base}-queue`)).length).toBeGreaterThanOrEqual(2);
    expect(log.lines).toContain(`info Deployment ${namespace}/${base} rolled out`);
    expect(log.lines).toContain(
      `info Deployment ${namespace}/${base}: waiting for the controller to observe the new spec`,
    );
    expect(log.lines.join("\n")).not.toContain("sk-live-123");

    expect(await deployer.health(deployment, rev)).toBe("healthy");
    expect(await deployer.health(deployment, revision())).toBe("unhealthy");
  });

  test("an image pushed to the control plane's registry for this deployment is pulled with its pull credential; other images with none", async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const registry = imagePullAccess({
      url: "registry.lgp.test:5000",
      service: "lgp-registry",
      issuer: "lgp-control-plane",
      signingKey: tokenSigningKey(privateKey.export({ type: "pkcs8", format: "pem" })),
      credentialKey: credentialKey(generateKey()),
      pushTokenTtlMs: 60_000,
    });
    const withRegistry = deployerWith({ registry });
    const deployment = target();
    const base = `support-bot-${deployment.id.replace(/-/g, "").slice(0, 8)}`;
    const pushed = `registry.lgp.test:5000/deployments/${deployment.id}/support-bot@sha256:${"ab".repeat(32)}`;
    await withRegistry.deploy(deployment, revision(pushed), null, new MemoryLog());
    const pods = api.objects.get(`/apis/apps/v1/namespaces/${namespace}/deployments/${base}`).spec.template.spec;
    expect(pods.imagePullSecrets).toEqual([{ name: `${base}-pull` }]);
    const secret = api.objects.get(`/api/v1/namespaces/${namespace}/secrets/${base}-pull`);
    const { auths } = JSON.parse(Buffer.from(secret.data[".dockerconfigjson"], "base64").toString());
    expect(Object.keys(auths)).toEqual(["registry.lgp.test:5000"]);
    expect(auths["registry.lgp.test:5000"].password).toBe(
      registry.credential(deployment.tenantId, deployment.id).password,
    );

    // Another deployment's repository, or another registry: no credential of this deployment goes with it.
    for (const image of [
      `registry.lgp.test:5000/deployments/${randomUUID()}/support-bot:1`,
      "registry.example/support-bot:1.0.0",
    ]) {
      const other = target();
      const otherBase = `support-bot-${other.id.replace(/-/g, "").slice(0, 8)}`;
      await withRegistry.deploy(other, revision(image), null, new MemoryLog());
      const spec = api.objects.get(`/apis/apps/v1/namespaces/${namespace}/deployments/${otherBase}`).spec.template.spec;
      expect(spec.imagePullSecrets).toBeUndefined();
      expect(api.objects.has(`/api/v1/namespaces/${namespace}/secrets/${otherBase}-pull`)).toBe(false);
    }
  });

  test("a new revision rolls the same Deployments; a fixed scale removes the old HPAs", async () => {
    const deployment = target();
    const first = revision("registry.example/support-bot:1.0.0");
    await deployer.deploy(deployment, first, null, new MemoryLog());
    const base = `support-bot-${deployment.id.replace(/-/g, "").slice(0, 8)}`;
    const path = `/apis/apps/v1/namespaces/${namespace}/deployments/${base}`;
    expect(api.objects.get(path).metadata.generation).toBe(1);

    const fixed = {
      ...deployment,
      sourceConfig: { ...deployment.sourceConfig, resource_spec: { min_scale: 2, max_scale: 2 } },
    };
    const second = revision("registry.example/support-bot:2.0.0");
    const log = new MemoryLog();
    api.requests.length = 0;
    await deployer.deploy(fixed, second, null, log);
    const stored = api.objects.get(path);
    expect(stored.metadata.generation).toBe(2);
    expect(stored.spec.replicas).toBe(2);
    expect(stored.spec.template.spec.containers[0].image).toBe("registry.example/support-bot:2.0.0");
    expect(api.calls()).toEqual(
      expect.arrayContaining([
        `DELETE /apis/autoscaling/v2/namespaces/${namespace}/horizontalpodautoscalers/${base}`,
        `DELETE /apis/autoscaling/v2/namespaces/${namespace}/horizontalpodautoscalers/${base}-queue`,
      ]),
    );
    expect(log.lines).toContain(`info removed HorizontalPodAutoscaler ${namespace}/${base}`);
    expect(await deployer.health(fixed, second)).toBe("healthy");
    expect(await deployer.health(fixed, first)).toBe("unhealthy");

    const retireLog = new MemoryLog();
    const before = api.requests.length;
    await deployer.retire(fixed, first, retireLog);
    expect(api.requests.length).toBe(before);
    expect(retireLog.lines[0]).toMatch(/replaced in place/);
  });

  test("ProgressDeadlineExceeded fails the deploy with the reason and the pods' errors", async () => {
    api.rollout = "deadline-exceeded";
    const deployment = target();
    const log = new MemoryLog();
    const error = await deployer.deploy(deployment, revision("registry.example/missing:9"), null, log).catch((e) => e);
    expect(error).toBeInstanceOf(DeployerError);
    expect(error.message).toMatch(
      /rollout exceeded its progress deadline: ReplicaSet ".*" has timed out progressing\./,
    );
    expect(error.message).toContain(
      'container api: ImagePullBackOff (Back-off pulling image "registry.example/missing:9")',
    );
    expect(api.calls().some((call) => call.startsWith(`GET /api/v1/namespaces/${namespace}/pods`))).toBe(true);
    const podList = api.requests.find((r) => r.path === `/api/v1/namespaces/${namespace}/pods`);
    expect(podList?.query.labelSelector).toMatch(
      /app\.kubernetes\.io\/instance=support-bot-[0-9a-f]{8},app\.kubernetes\.io\/component=(api|queue)/,
    );
  });

  test("a failed rollout puts the previous revision's objects back", async () => {
    const deployment = target();
    const base = `support-bot-${deployment.id.replace(/-/g, "").slice(0, 8)}`;
    const first = revision("registry.example/support-bot:1.0.0");
    await deployer.deploy(deployment, first, null, new MemoryLog());
    const apiPath = `/apis/apps/v1/namespaces/${namespace}/deployments/${base}`;
    const secretPath = `/api/v1/namespaces/${namespace}/secrets/${base}-env`;
    const hpaPath = `/apis/autoscaling/v2/namespaces/${namespace}/horizontalpodautoscalers/${base}`;
    const before = structuredClone(api.objects.get(apiPath));

    api.rollout = "deadline-exceeded";
    const changed = {
      ...deployment,
      secrets: [{ name: "OPENAI_API_KEY", value: "sk-rotated" }],
      sourceConfig: {
        ...deployment.sourceConfig,
        resource_spec: { cpu: 1, memory_mb: 1024, min_scale: 2, max_scale: 8 },
      },
    };
    const log = new MemoryLog();
    const error = await deployer
      .deploy(changed, revision("registry.example/support-bot:2.0.0-broken"), null, log)
      .catch((e) => e);
    expect(error).toBeInstanceOf(DeployerError);

    const restored = api.objects.get(apiPath);
    expect(restored.spec.template).toEqual(before.spec.template);
    expect(restored.spec.template.metadata.annotations["lgp.dev/revision-id"]).toBe(first.id);
    expect(restored.spec.template.spec.containers[0].image).toBe("registry.example/support-bot:1.0.0");
    // The HPA owns the replica count: the restore does not take it back.
    expect(restored.spec.replicas).toBeUndefined();
    expect(Buffer.from(api.objects.get(secretPath).data.OPENAI_API_KEY, "base64").toString()).toBe("sk-live-123");
    expect([api.objects.get(hpaPath).spec.minReplicas, api.objects.get(hpaPath).spec.maxReplicas]).toEqual([1, 3]);
    // What the server owns is not sent back.
    const restoreApply = api.requests.filter((r) => r.method === "PATCH" && r.path === apiPath).at(-1)!;
    expect(Object.keys(restoreApply.body.metadata).sort()).toEqual(["annotations", "labels", "name", "namespace"]);
    expect(restoreApply.body.status).toBeUndefined();
    expect(log.lines).toContain(`warn restored Deployment ${namespace}/${base} to its previous version`);
    expect(log.lines).toContain(`warn restored Secret ${namespace}/${base}-env to its previous version`);
  });

  test("a failed first rollout removes what it created", async () => {
    api.rollout = "deadline-exceeded";
    const deployment = target();
    const base = `support-bot-${deployment.id.replace(/-/g, "").slice(0, 8)}`;
    const log = new MemoryLog();
    await expect(deployer.deploy(deployment, revision(), null, log)).rejects.toThrow(DeployerError);
    expect([...api.objects.keys()].filter((key) => key.includes(base))).toEqual([]);
    expect(log.lines).toContain(`warn removed Deployment ${namespace}/${base}: it did not exist before this revision`);
    expect(log.lines).toContain(`warn removed Service ${namespace}/${base}: nothing serves behind it`);
  });

  test("a rollout that never completes fails after its deadline even if the controller never says so", async () => {
    api.rollout = "stuck";
    const error = await deployer.deploy(target(), revision(), null, new MemoryLog()).catch((e) => e);
    expect(error).toBeInstanceOf(DeployerError);
    expect(error.message).toMatch(/rollout did not complete in \d+s \(0 of 1 updated replicas available\)/);
  });

  test("an apply the API refuses is a DeployerError naming the object and the API's message", async () => {
    api.failures.set(`/apis/apps/v1/namespaces/${namespace}/deployments/`, {
      code: 403,
      reason: "Forbidden",
      message:
        'deployments.apps is forbidden: User "system:serviceaccount:lgp:control-plane" cannot patch resource "deployments"',
      method: "PATCH",
    });
    const error = await deployer.deploy(target(), revision(), null, new MemoryLog()).catch((e) => e);
    expect(error).toBeInstanceOf(DeployerError);
    expect(error.message).toMatch(
      /^applying Deployment team-a\/support-bot-[0-9a-f]{8} failed: Kubernetes API answered 403: deployments.apps is forbidden/,
    );
  });

  test("health is unknown when the API cannot be reached, unhealthy when nothing is deployed", async () => {
    const deployment = target();
    expect(await deployer.health(deployment, revision())).toBe("unhealthy");
    api.failures.set("/apis/apps/v1/", {
      code: 500,
      reason: "InternalError",
      message: "etcdserver: request timed out",
    });
    expect(await deployer.health(deployment, revision())).toBe("unknown");
  });

  test("a deployment without an image is refused before anything is applied", async () => {
    const error = await deployer
      .deploy(target(), { id: randomUUID(), sourceRevisionConfig: {} }, null, new MemoryLog())
      .catch((e) => e);
    expect(error).toBeInstanceOf(DeployerError);
    expect(error.message).toMatch(/image_uri/);
    expect(api.calls()).toEqual([]);
  });

  test("source revisions: build names the runtime image; deploy checks the repository out in the pod", async () => {
    const deployment = target({
      source: "github",
      sourceConfig: { repo_url: "https://git.example/acme/bot.git", install_command: "npm ci", resource_spec: null },
    });
    const rev: RevisionTarget = {
      id: randomUUID(),
      sourceRevisionConfig: { repo_ref: "v2", langgraph_config_path: "langgraph.json" },
    };
    const log = new MemoryLog();
    const build = await deployer.build(deployment, rev, log);
    expect(build.artifact).toBe("langgraph-platform/agent-runtime:test");
    await deployer.deploy(deployment, rev, build, log);
    const applied = api.requests.find((r) => r.method === "PATCH" && r.body.kind === "Deployment")!.body;
    expect(applied.metadata.namespace).toBe("default");
    expect(applied.spec.template.spec.initContainers[0].env).toContainEqual({ name: "REPO_REF", value: "v2" });

    const tarball = target({ source: "internal_source", sourceConfig: {} });
    await expect(deployer.build(tarball, { id: randomUUID(), sourceRevisionConfig: {} }, log)).rejects.toThrow(
      /repo_url is required/,
    );
  });

  test("provisionDatabase creates the deployment's database; destroy deletes every object and drops it", async () => {
    const deployment = target();
    const { databaseUrl } = await deployer.provisionDatabase(deployment);
    const dbName = `lgp_deployment_${deployment.id.replace(/-/g, "")}`;
    expect(new URL(databaseUrl!).pathname).toBe(`/${dbName}`);
    expect(await databaseExists(dbName)).toBe(true);
    // Idempotent: the reconciler may repeat it after a restart.
    await deployer.provisionDatabase(deployment);

    await deployer.deploy(deployment, revision(), null, new MemoryLog());
    const base = `support-bot-${deployment.id.replace(/-/g, "").slice(0, 8)}`;
    const owned = [...api.objects.keys()].filter((key) => key.includes(base));
    expect(owned).toHaveLength(6);

    const log = new MemoryLog();
    api.requests.length = 0;
    await deployer.destroy(deployment, log);
    expect(
      api
        .calls()
        .filter((call) => call.startsWith("DELETE"))
        .sort(),
    ).toEqual(
      [
        `DELETE /api/v1/namespaces/${namespace}/secrets/${base}-env`,
        `DELETE /api/v1/namespaces/${namespace}/secrets/${base}-pull`,
        `DELETE /api/v1/namespaces/${namespace}/services/${base}`,
        `DELETE /apis/apps/v1/namespaces/${namespace}/deployments/${base}`,
        `DELETE /apis/apps/v1/namespaces/${namespace}/deployments/${base}-queue`,
        `DELETE /apis/autoscaling/v2/namespaces/${namespace}/horizontalpodautoscalers/${base}`,
        `DELETE /apis/autoscaling/v2/namespaces/${namespace}/horizontalpodautoscalers/${base}-queue`,
      ].sort(),
    );
    expect(
      api.requests.filter((r) => r.method === "DELETE").every((r) => r.query.propagationPolicy === "Background"),
    ).toBe(true);
    expect([...api.objects.keys()].filter((key) => key.includes(base))).toEqual([]);
    expect(await databaseExists(dbName)).toBe(false);

    // Destroying again finds everything gone and still succeeds.
    const again = new MemoryLog();
    await deployer.destroy(deployment, again);
    expect(again.lines.filter((line) => line.includes("already gone"))).toHaveLength(7);
  });

  test("an external_docker revision without an image is health-checked at its custom_url, not run in the cluster", async () => {
    const server = http.createServer((req, res) => {
      res.writeHead(req.url === "/ok" ? 200 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const deployment = target({ source: "external_docker", sourceConfig: { custom_url: `${url}/` } });
    const rev: RevisionTarget = { id: randomUUID(), sourceRevisionConfig: {} };
    const log = new MemoryLog();
    try {
      expect(await deployer.deploy(deployment, rev, null, log)).toEqual({ url });
      expect(await deployer.health(deployment, rev)).toBe("healthy");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(await deployer.health(deployment, rev)).toBe("unhealthy");
    expect(api.calls()).toEqual([]);
    expect(log.lines).toEqual([`info health-checking ${url}`]);

    const quick = new KubernetesDeployer({
      kubeConfig: loadKubeConfig(kubeconfigPath),
      defaultNamespace: "default",
      runtimeImage: "unused",
      databaseServerUrl: PG_SERVER,
      redisUrl: "redis://unused:6379",
      progressDeadlineSeconds: 1,
      externalHealthTimeoutMs: 300,
    });
    await expect(quick.deploy(deployment, rev, null, new MemoryLog())).rejects.toThrow(
      `${url}/ok did not answer 200 in time`,
    );
    // With an image, an external_docker revision runs in the cluster like internal_docker.
    const withImage = { id: randomUUID(), sourceRevisionConfig: { image_uri: "registry.example/ext:1" } };
    await deployer.deploy(deployment, withImage, null, new MemoryLog());
    expect(api.calls().some((call) => call.startsWith("PATCH /apis/apps/v1/namespaces/default/deployments/"))).toBe(
      true,
    );
  });

  test("a kubeconfig that does not exist or names no cluster is a configuration error", () => {
    expect(() => loadKubeConfig(path.join(tmp, "missing"))).toThrow(ConfigError);
    const empty = path.join(tmp, "empty-kubeconfig");
    fs.writeFileSync(empty, "apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n");
    expect(() => loadKubeConfig(empty)).toThrow(/names no cluster/);
  });

  test("createKubernetesDeployer builds a working deployer from the control plane's configuration", async () => {
    const env = {
      CONTROL_PLANE_DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/control_plane_unused",
      SECRETS_ENCRYPTION_KEY: "00".repeat(32),
      DEPLOYER: "kubernetes",
      KUBECONFIG: kubeconfigPath,
      K8S_NAMESPACE: "agents",
      K8S_REDIS_URL: "redis://redis.agents:6379/2",
      K8S_PROGRESS_DEADLINE_SECONDS: "30",
    };
    const config = loadControlPlaneConfig(env);
    expect(config.DEPLOYER).toBe("kubernetes");
    const logger = createLogger("test", "silent");
    const fromConfig = createKubernetesDeployer(config, logger);
    expect(fromConfig.kind).toBe("kubernetes");
    const deployment = target({ sourceConfig: {} });
    expect(await fromConfig.health(deployment, revision())).toBe("unhealthy");
    expect(api.calls()).toEqual([
      `GET /apis/apps/v1/namespaces/agents/deployments/support-bot-${deployment.id.replace(/-/g, "").slice(0, 8)}`,
    ]);
    expect(fromConfig.databaseUrlFor(deployment)).toMatch(
      /^postgresql:\/\/postgres@127\.0\.0\.1:5432\/lgp_deployment_[0-9a-f]{32}$/,
    );

    expect(() => createKubernetesDeployer(loadControlPlaneConfig({ ...env, K8S_REDIS_URL: "" }), logger)).toThrow(
      ConfigError,
    );
    expect(() => loadControlPlaneConfig({ ...env, DEPLOYER: "nomad" })).toThrow(/invalid DEPLOYER/);
    expect(() => loadControlPlaneConfig({ ...env, K8S_NAMESPACE: "Not_A_Namespace" })).toThrow(/invalid K8S_NAMESPACE/);
    expect(loadControlPlaneConfig({ ...env, DEPLOYER: "" }).DEPLOYER).toBe("local");
  });
});
