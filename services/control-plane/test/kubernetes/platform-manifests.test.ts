import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { parseAllDocuments } from "yaml";
import { loadControlPlaneConfig } from "../../src/config";
import { kustomize, podContainers, podSpecs, readYamlDocuments } from "./kustomize";
import { validateManifest } from "./schemas";

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are plain JSON */

const ROOT = path.resolve(__dirname, "../../../..");
const K8S = path.join(ROOT, "docker/k8s");
const VARIANTS = ["base", "overlays/dev", "overlays/prod"];
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const hasKubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" }).status === 0;

function byKind(objects: any[], kind: string): any[] {
  return objects.filter((o) => o.kind === kind);
}

function matches(selector: Record<string, string>, labels: Record<string, string> = {}): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

/** The environment a container gets from its env and envFrom, resolved against the rendered objects. */
function containerEnv(
  objects: any[],
  container: any,
  podNamespace: string,
  secretSource: any[],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const map = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name === from.configMapRef.name);
      if (!map) throw new Error(`configMapRef ${from.configMapRef.name} does not exist`);
      Object.assign(env, map.data);
    }
  }
  for (const variable of container.env ?? []) {
    if ("value" in variable) env[variable.name] = variable.value;
    else if (variable.valueFrom?.secretKeyRef) {
      const ref = variable.valueFrom.secretKeyRef;
      const secret = secretSource.find((o) => o.kind === "Secret" && o.metadata.name === ref.name);
      if (!secret) throw new Error(`secretKeyRef to missing Secret ${ref.name}`);
      const value =
        secret.stringData?.[ref.key] ??
        (secret.data?.[ref.key] && Buffer.from(secret.data[ref.key], "base64").toString());
      if (value === undefined && !ref.optional) throw new Error(`Secret ${ref.name} has no key ${ref.key}`);
      if (value !== undefined) env[variable.name] = value;
    } else if (variable.valueFrom?.fieldRef?.fieldPath === "metadata.namespace") env[variable.name] = podNamespace;
    else throw new Error(`unsupported env source for ${variable.name}`);
  }
  return env;
}

describe.each(VARIANTS)("docker/k8s/%s", (variant) => {
  const objects = kustomize(path.join(K8S, variant));

  test("every object is valid against the Kubernetes API schemas, with valid names and labels", () => {
    expect(objects.length).toBeGreaterThan(10);
    for (const object of objects) {
      expect(() => validateManifest(object)).not.toThrow();
      expect(object.metadata.name).toMatch(DNS_LABEL);
      for (const value of Object.values(object.metadata.labels ?? {}))
        expect(String(value).length).toBeLessThanOrEqual(63);
    }
    const ids = objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("the platform's workloads: Deployments, Services, worker HPA, PDBs, ConfigMap, migration Job, NetworkPolicies", () => {
    const names = (kind: string) => byKind(objects, kind).map((o) => o.metadata.name);
    expect(names("Deployment")).toEqual(
      expect.arrayContaining(["control-plane", "agent-runtime", "agent-runtime-worker"]),
    );
    expect(names("Service")).toEqual(expect.arrayContaining(["control-plane", "agent-runtime"]));
    expect(names("HorizontalPodAutoscaler")).toEqual(["agent-runtime-worker"]);
    expect(names("PodDisruptionBudget").sort()).toEqual(["agent-runtime", "agent-runtime-worker", "control-plane"]);
    expect(names("ConfigMap")).toEqual(["lgp-config"]);
    expect(names("Job")).toEqual(["lgp-migrate"]);
    expect(names("NetworkPolicy")).toEqual(
      expect.arrayContaining(["default-deny-ingress", "control-plane-ingress", "agent-runtime-ingress"]),
    );
    const denyAll = byKind(objects, "NetworkPolicy").find((p) => p.metadata.name === "default-deny-ingress");
    expect(denyAll.spec).toEqual({ podSelector: {}, policyTypes: ["Ingress"] });
  });

  test("every pod runs non-root with resources, a restricted security context and (for servers) probes", () => {
    const platformPods = podSpecs(objects).filter(
      ({ owner }) => owner.metadata.labels?.["app.kubernetes.io/part-of"] === "langgraph-platform",
    );
    expect(platformPods.length).toBeGreaterThanOrEqual(4);
    for (const { owner, spec } of platformPods) {
      expect(spec.securityContext?.runAsNonRoot).toBe(true);
      expect(spec.securityContext?.seccompProfile?.type).toBe("RuntimeDefault");
      for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
        expect(container.resources?.requests?.cpu && container.resources?.requests?.memory).toBeTruthy();
        expect(container.resources?.limits?.cpu && container.resources?.limits?.memory).toBeTruthy();
        expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
        expect(container.securityContext?.capabilities?.drop).toEqual(["ALL"]);
      }
      const serves = spec.containers.filter((c: any) => c.ports?.length);
      for (const container of serves) {
        expect(container.readinessProbe?.httpGet?.path).toBeDefined();
        expect(container.livenessProbe?.httpGet?.path).toBe("/ok");
      }
      if (
        owner.kind === "Deployment" &&
        ["control-plane", "agent-runtime", "agent-runtime-worker"].includes(owner.metadata.name)
      ) {
        for (const container of spec.containers) {
          expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
          // tsx caches compiled sources under /tmp: it must be writable.
          expect(container.volumeMounts).toContainEqual({ name: "tmp", mountPath: "/tmp" });
        }
      }
    }
  });

  test("selectors, scale targets, service accounts and config references all resolve", () => {
    const deployments = byKind(objects, "Deployment");
    for (const deployment of deployments)
      expect(matches(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);
    for (const service of byKind(objects, "Service")) {
      const backends = deployments.filter((d) => matches(service.spec.selector, d.spec.template.metadata.labels));
      expect(backends).toHaveLength(1);
      for (const port of service.spec.ports) {
        const named = backends[0].spec.template.spec.containers
          .flatMap((c: any) => c.ports ?? [])
          .map((p: any) => p.name);
        expect(named).toContain(port.targetPort);
      }
    }
    for (const pdb of byKind(objects, "PodDisruptionBudget")) {
      expect(
        deployments.filter((d) => matches(pdb.spec.selector.matchLabels, d.spec.template.metadata.labels)),
      ).toHaveLength(1);
    }
    for (const hpa of byKind(objects, "HorizontalPodAutoscaler")) {
      const target = deployments.find((d) => d.metadata.name === hpa.spec.scaleTargetRef.name);
      expect(target).toBeDefined();
      // The HPA owns the worker's replica count.
      expect(target.spec.replicas).toBeUndefined();
      expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
    }
    const accounts = byKind(objects, "ServiceAccount").map((o) => o.metadata.name);
    for (const { spec } of podSpecs(objects))
      if (spec.serviceAccountName) expect(accounts).toContain(spec.serviceAccountName);
    const binding = byKind(objects, "RoleBinding")[0];
    expect(byKind(objects, "Role").map((r) => r.metadata.name)).toContain(binding.roleRef.name);
    // The deployer's Role covers every kind it applies, and the pod logs it follows.
    const rules = byKind(objects, "Role")[0].rules;
    for (const resource of ["deployments", "services", "secrets", "horizontalpodautoscalers", "pods", "pods/log"]) {
      expect(rules.some((rule: any) => rule.resources.includes(resource))).toBe(true);
    }
  });

  test("the control plane's environment passes its own configuration schema", () => {
    // The Secret comes from the overlay (dev) or must be created as secret.example.yaml shows.
    const secretSource = byKind(objects, "Secret").length
      ? objects
      : readYamlDocuments(path.join(K8S, "base/secret.example.yaml"));
    const controlPlane = byKind(objects, "Deployment").find((d) => d.metadata.name === "control-plane");
    const env = containerEnv(
      objects,
      controlPlane.spec.template.spec.containers[0],
      controlPlane.metadata.namespace ?? "default",
      secretSource,
    );
    const config = loadControlPlaneConfig(env);
    expect(config.DEPLOYER).toBe("kubernetes");
    expect(config.PORT).toBe(8100);
    for (const name of ["agent-runtime", "agent-runtime-worker"]) {
      const runtime = byKind(objects, "Deployment").find((d) => d.metadata.name === name);
      const runtimeEnv = containerEnv(objects, runtime.spec.template.spec.containers[0], "default", secretSource);
      expect(runtimeEnv.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
      expect(runtimeEnv.REDIS_URL).toMatch(/^redis:\/\//);
      expect(runtimeEnv.LANGGRAPH_JSON).toBe("/app/examples/langgraph.json");
      if (name === "agent-runtime") expect(runtimeEnv.WORKERS).toBe("0");
    }
    const job = byKind(objects, "Job")[0];
    const jobContainers = [...job.spec.template.spec.initContainers, ...job.spec.template.spec.containers];
    expect(jobContainers.map((c: any) => Object.keys(containerEnv(objects, c, "default", secretSource)))).toEqual([
      ["CONTROL_PLANE_DATABASE_URL"],
      ["DATABASE_URL"],
    ]);
  });

  (hasKubectl ? test : test.skip)("kubectl kustomize renders the same objects and images", () => {
    const result = spawnSync("kubectl", ["kustomize", path.join(K8S, variant)], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const rendered = parseAllDocuments(result.stdout).map((doc) => doc.toJS());
    for (const object of rendered) expect(() => validateManifest(object)).not.toThrow();
    const key = (o: any) => `${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`;
    expect(rendered.map(key).sort()).toEqual(objects.map(key).sort());
    const images = (list: any[]) =>
      podContainers(list)
        .map((c) => c.image)
        .sort();
    expect(images(rendered)).toEqual(images(objects));
    for (const object of rendered) {
      const mine = objects.find((o) => key(o) === key(object));
      // Same content up to key order: the test renderer is a faithful stand-in where kubectl is absent.
      expect(object).toEqual(mine);
    }
  });
});

describe("overlays", () => {
  test("dev: its own namespace, datastores reachable only from the platform, development secret", () => {
    const objects = kustomize(path.join(K8S, "overlays/dev"));
    expect(new Set(objects.filter((o) => o.kind !== "Namespace").map((o) => o.metadata.namespace))).toEqual(
      new Set(["lgp-dev"]),
    );
    expect(byKind(objects, "Deployment").map((d) => d.metadata.name)).toEqual(
      expect.arrayContaining(["postgres", "redis"]),
    );
    expect(byKind(objects, "HorizontalPodAutoscaler")[0].spec.maxReplicas).toBe(2);
    expect(byKind(objects, "ConfigMap")[0].data.LOG_LEVEL).toBe("debug");
    const binding = byKind(objects, "RoleBinding")[0];
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", name: "control-plane", namespace: "lgp-dev" }]);
  });

  test("prod: images pinned to this release, two replicas of each API, workers 2..20, no Secret in the manifests", () => {
    const objects = kustomize(path.join(K8S, "overlays/prod"));
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    for (const container of podContainers(objects))
      expect(container.image).toMatch(new RegExp(`:${version.replace(/\./g, "\\.")}$`));
    const config = readYamlDocuments(path.join(K8S, "overlays/prod/patches/config.yaml"))[0] as {
      data: Record<string, string>;
    };
    expect(config.data.K8S_AGENT_RUNTIME_IMAGE).toBe(`langgraph-platform/agent-runtime:${version}`);
    const replicas = Object.fromEntries(byKind(objects, "Deployment").map((d) => [d.metadata.name, d.spec.replicas]));
    expect(replicas).toEqual({ "control-plane": 2, "agent-runtime": 2, "agent-runtime-worker": undefined });
    const hpa = byKind(objects, "HorizontalPodAutoscaler")[0];
    expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([2, 20]);
    expect(byKind(objects, "Secret")).toEqual([]);
    const runtime = byKind(objects, "Deployment").find((d) => d.metadata.name === "agent-runtime");
    expect(runtime.spec.template.spec.containers[0].resources.requests).toEqual({ cpu: "1", memory: "1Gi" });
    // The patch merged into the existing container instead of adding one.
    expect(runtime.spec.template.spec.containers).toHaveLength(1);
  });

  test("the example Secret names every key the platform's pods reference", () => {
    const [example] = readYamlDocuments(path.join(K8S, "base/secret.example.yaml"));
    expect(() => validateManifest(example)).not.toThrow();
    const objects = kustomize(path.join(K8S, "base"));
    const keys = new Set<string>();
    for (const container of podContainers(objects)) {
      for (const variable of container.env ?? []) {
        if (variable.valueFrom?.secretKeyRef?.name === "lgp-secrets") keys.add(variable.valueFrom.secretKeyRef.key);
      }
    }
    expect(Object.keys(example.stringData).sort()).toEqual([...keys].sort());
  });

  test("the test renderer refuses kustomize features it does not implement", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kustomize-"));
    fs.writeFileSync(path.join(dir, "kustomization.yaml"), "resources: []\nconfigMapGenerator:\n  - name: x\n");
    expect(() => kustomize(dir)).toThrow(/configMapGenerator/);
    fs.rmSync(dir, { recursive: true });
  });
});
