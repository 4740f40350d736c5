import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";

/* eslint-disable @typescript-eslint/no-explicit-any -- objects are Kubernetes JSON */

/**
 * A Kubernetes API server on loopback that speaks the paths the kubernetes deployer uses, answering
 * with the response shapes of the real API (APIResourceList discovery documents, objects with
 * server-populated metadata, `Status` bodies for errors, `...List` kinds). Its Deployment "controller"
 * is scripted per test: `rollout` decides what status a read returns after a spec change.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  authorization: string | undefined;
  body: any;
}

/** How the fake controller reports a Deployment after its spec changed. */
export type RolloutScript =
  /** The first read shows the old generation, the next one a completed rollout. */
  | "succeeds"
  /** The controller gives up: Progressing=False, reason ProgressDeadlineExceeded; pods are in ImagePullBackOff. */
  | "deadline-exceeded"
  /** The controller observes the spec but no replica ever becomes available (and never reports a deadline). */
  | "stuck";

const DISCOVERY: Record<string, { groupVersion: string; resources: any[] }> = {
  "/api/v1": {
    groupVersion: "v1",
    resources: [
      resource("secrets", "secret", "Secret", true),
      resource("services", "service", "Service", true),
      resource("pods", "pod", "Pod", true),
      resource("namespaces", "namespace", "Namespace", false),
    ],
  },
  "/apis/apps/v1": { groupVersion: "apps/v1", resources: [resource("deployments", "deployment", "Deployment", true)] },
  "/apis/autoscaling/v2": {
    groupVersion: "autoscaling/v2",
    resources: [resource("horizontalpodautoscalers", "horizontalpodautoscaler", "HorizontalPodAutoscaler", true)],
  },
};

function resource(name: string, singularName: string, kind: string, namespaced: boolean) {
  return {
    name,
    singularName,
    namespaced,
    kind,
    verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
    storageVersionHash: "",
  };
}

const GROUP_OF: Record<string, string> = {
  deployments: "apps",
  horizontalpodautoscalers: "autoscaling",
  secrets: "",
  services: "",
  pods: "",
};

function status(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, details, code };
}

export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  /** Stored objects by API path (`/apis/apps/v1/namespaces/ns/deployments/name`). */
  readonly objects = new Map<string, any>();
  rollout: RolloutScript = "succeeds";
  /** Answer requests to this path prefix (and method, when given) with this status (to test error handling). */
  failures = new Map<string, { code: number; reason: string; message: string; method?: string }>();
  private readonly reads = new Map<string, number>();
  /** Each container's log (`namespace/pod/container`): its lines, and the requests following it. */
  private lastLogNs = 0n;
  private readonly podLogs = new Map<
    string,
    { lines: { time: string; text: string }[]; followers: Set<http.ServerResponse> }
  >();
  private server?: http.Server;
  readonly token = `token-${randomUUID()}`;

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://localhost");
        const text = Buffer.concat(chunks).toString("utf8");
        const recorded: RecordedRequest = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          contentType: req.headers["content-type"],
          authorization: req.headers.authorization,
          body: text ? JSON.parse(text) : undefined,
        };
        this.requests.push(recorded);
        const log = /^\/api\/v1\/namespaces\/([a-z0-9-]+)\/pods\/([a-z0-9.-]+)\/log$/.exec(url.pathname);
        if (log && req.method === "GET" && recorded.authorization === `Bearer ${this.token}`) {
          return this.streamLog(`${log[1]}/${log[2]}/${recorded.query.container}`, recorded.query, res);
        }
        const [code, body] = this.handle(recorded);
        res.writeHead(code, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const entry of this.podLogs.values()) for (const follower of entry.followers) follower.end();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /**
   * A line a container writes: kept with the node's time (RFC 3339 with nanoseconds, trailing
   * zeros trimmed, as the kubelet writes it) and sent to whoever follows that log.
   */
  writePodLog(namespace: string, pod: string, container: string, text: string): void {
    const entry = this.logOf(`${namespace}/${pod}/${container}`);
    // The node's clock, in nanoseconds, never going back.
    const clock = BigInt(Date.now()) * 1_000_000n + 123n;
    const ns = (this.lastLogNs = clock > this.lastLogNs ? clock : this.lastLogNs + 1000n);
    const seconds = new Date(Number(ns / 1_000_000_000n) * 1000).toISOString().slice(0, 19);
    const fraction = String(ns % 1_000_000_000n)
      .padStart(9, "0")
      .replace(/0+$/, "");
    const time = `${seconds}${fraction ? `.${fraction}` : ""}Z`;
    entry.lines.push({ time, text });
    for (const follower of entry.followers)
      follower.write(`${follower.req.url?.includes("timestamps=true") ? `${time} ` : ""}${text}\n`);
  }

  /** Ends every request following that log (a connection the API server drops). */
  dropPodLogFollowers(namespace: string, pod: string, container: string): void {
    const entry = this.logOf(`${namespace}/${pod}/${container}`);
    for (const follower of entry.followers) follower.end();
    entry.followers.clear();
  }

  /** How many requests follow that log now. */
  podLogFollowers(namespace: string, pod: string, container: string): number {
    return this.logOf(`${namespace}/${pod}/${container}`).followers.size;
  }

  private logOf(key: string) {
    let entry = this.podLogs.get(key);
    if (!entry) {
      entry = { lines: [], followers: new Set() };
      this.podLogs.set(key, entry);
    }
    return entry;
  }

  /** GET .../pods/{name}/log: the lines since `sinceTime` (whole seconds, as the API reads it), then, with `follow`, each new one. */
  private streamLog(key: string, query: Record<string, string>, res: http.ServerResponse): void {
    const entry = this.logOf(key);
    const since = query.sinceTime ? Date.parse(query.sinceTime) : null;
    res.writeHead(200, { "content-type": "text/plain", "transfer-encoding": "chunked" });
    // The API server answers a follow request's headers at once, lines or not.
    res.flushHeaders();
    for (const line of entry.lines) {
      if (since !== null && Date.parse(line.time.replace(/\.\d+Z$/, "Z")) < since) continue;
      res.write(`${query.timestamps === "true" ? `${line.time} ` : ""}${line.text}\n`);
    }
    if (query.follow !== "true") return void res.end();
    entry.followers.add(res);
    res.on("close", () => entry.followers.delete(res));
  }

  /** Requests other than discovery, as "METHOD path". */
  calls(): string[] {
    return this.requests.filter((r) => !DISCOVERY[r.path]).map((r) => `${r.method} ${r.path}`);
  }

  private handle(req: RecordedRequest): [number, unknown] {
    if (req.authorization !== `Bearer ${this.token}`) return [401, status(401, "Unauthorized", "Unauthorized")];
    const discovery = DISCOVERY[req.path];
    if (discovery && req.method === "GET") return [200, { kind: "APIResourceList", apiVersion: "v1", ...discovery }];
    for (const [prefix, failure] of this.failures) {
      if (req.path.startsWith(prefix) && (!failure.method || failure.method === req.method)) {
        return [failure.code, status(failure.code, failure.reason, failure.message)];
      }
    }

    const match =
      /^\/(?:api\/v1|apis\/([a-z.]+)\/(v[0-9a-z]+))\/namespaces\/([a-z0-9-]+)\/([a-z]+)(?:\/([a-z0-9.-]+))?$/.exec(
        req.path,
      );
    if (!match) return [404, status(404, "NotFound", "the server could not find the requested resource")];
    const [, , , namespace, plural, name] = match;
    const group = GROUP_OF[plural] ?? "";
    const notFound = () =>
      status(404, "NotFound", `${plural}${group ? `.${group}` : ""} "${name}" not found`, {
        name,
        group,
        kind: plural,
      });

    if (!name) {
      if (req.method !== "GET" || plural !== "pods")
        return [405, status(405, "MethodNotAllowed", "method not allowed")];
      return [
        200,
        {
          kind: "PodList",
          apiVersion: "v1",
          metadata: { resourceVersion: "1" },
          items: this.pods(namespace, req.query.labelSelector ?? ""),
        },
      ];
    }

    const stored = this.objects.get(req.path);
    switch (req.method) {
      case "PATCH": {
        if (req.contentType !== "application/apply-patch+yaml") {
          return [
            415,
            status(
              415,
              "UnsupportedMediaType",
              `the body of the request was in an unknown format - accepted media types include: application/apply-patch+yaml`,
            ),
          ];
        }
        if (!req.query.fieldManager)
          return [422, status(422, "Invalid", "fieldManager is required for apply requests")];
        const applied = req.body;
        if (applied.metadata?.name !== name || (applied.metadata?.namespace ?? namespace) !== namespace) {
          return [400, status(400, "BadRequest", "the name of the object does not match the name on the URL")];
        }
        const specOf = (o: any) => JSON.stringify({ spec: o.spec, data: o.data, template: o.spec?.template });
        const changed = !stored || specOf(stored) !== specOf(applied);
        const generation = (stored?.metadata?.generation ?? 0) + (changed ? 1 : 0);
        const object = {
          ...applied,
          metadata: {
            ...applied.metadata,
            namespace,
            uid: stored?.metadata?.uid ?? randomUUID(),
            resourceVersion: String(Date.now()),
            generation,
            creationTimestamp: stored?.metadata?.creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, "Z"),
            managedFields: [
              {
                manager: req.query.fieldManager,
                operation: "Apply",
                apiVersion: applied.apiVersion,
                time: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
                fieldsType: "FieldsV1",
                fieldsV1: {},
              },
            ],
          },
          status: stored?.status ?? {},
        };
        if (applied.kind === "Deployment" && changed) this.reads.set(req.path, 0);
        this.objects.set(req.path, object);
        return [stored ? 200 : 201, object];
      }
      case "GET": {
        if (!stored) return [404, notFound()];
        if (stored.kind === "Deployment") stored.status = this.deploymentStatus(req.path, stored);
        return [200, stored];
      }
      case "DELETE": {
        if (!stored) return [404, notFound()];
        this.objects.delete(req.path);
        return [
          200,
          {
            kind: "Status",
            apiVersion: "v1",
            metadata: {},
            status: "Success",
            details: { name, group, kind: plural, uid: stored.metadata.uid },
          },
        ];
      }
      default:
        return [405, status(405, "MethodNotAllowed", "method not allowed")];
    }
  }

  /** The scripted controller: status of a Deployment on its n-th read since its spec last changed. */
  private deploymentStatus(path: string, deployment: any): any {
    const reads = (this.reads.get(path) ?? 0) + 1;
    this.reads.set(path, reads);
    const generation = deployment.metadata.generation;
    const desired = deployment.spec.replicas ?? 1;
    const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    if (reads === 1) {
      // The controller has not seen the new spec yet.
      return { ...deployment.status, observedGeneration: generation - 1 };
    }
    if (this.rollout === "succeeds") {
      return {
        observedGeneration: generation,
        replicas: desired,
        updatedReplicas: desired,
        readyReplicas: desired,
        availableReplicas: desired,
        conditions: [
          {
            type: "Available",
            status: "True",
            lastUpdateTime: now,
            lastTransitionTime: now,
            reason: "MinimumReplicasAvailable",
            message: "Deployment has minimum availability.",
          },
          {
            type: "Progressing",
            status: "True",
            lastUpdateTime: now,
            lastTransitionTime: now,
            reason: "NewReplicaSetAvailable",
            message: `ReplicaSet "${deployment.metadata.name}-7d9f8c6b5" has successfully progressed.`,
          },
        ],
      };
    }
    const base = {
      observedGeneration: generation,
      replicas: desired,
      updatedReplicas: desired,
      readyReplicas: 0,
      unavailableReplicas: desired,
      conditions: [
        {
          type: "Available",
          status: "False",
          lastUpdateTime: now,
          lastTransitionTime: now,
          reason: "MinimumReplicasUnavailable",
          message: "Deployment does not have minimum availability.",
        },
      ] as any[],
    };
    if (this.rollout === "deadline-exceeded" && reads >= 3) {
      base.conditions.push({
        type: "Progressing",
        status: "False",
        lastUpdateTime: now,
        lastTransitionTime: now,
        reason: "ProgressDeadlineExceeded",
        message: `ReplicaSet "${deployment.metadata.name}-7d9f8c6b5" has timed out progressing.`,
      });
    } else {
      base.conditions.push({
        type: "Progressing",
        status: "True",
        lastUpdateTime: now,
        lastTransitionTime: now,
        reason: "ReplicaSetUpdated",
        message: `ReplicaSet "${deployment.metadata.name}-7d9f8c6b5" is progressing.`,
      });
    }
    return base;
  }

  /** Pods of the stored Deployments matching the selector; failing rollouts show image pull errors. */
  private pods(namespace: string, labelSelector: string): any[] {
    const wanted = Object.fromEntries(
      labelSelector
        .split(",")
        .filter(Boolean)
        .map((pair) => pair.split("=")),
    );
    const pods: any[] = [];
    for (const [path, object] of this.objects) {
      if (object.kind !== "Deployment" || !path.includes(`/namespaces/${namespace}/`)) continue;
      const labels = object.spec.template.metadata.labels;
      if (!Object.entries(wanted).every(([key, value]) => labels[key] === value)) continue;
      const image = object.spec.template.spec.containers[0].image;
      const waiting =
        this.rollout === "succeeds"
          ? undefined
          : { reason: "ImagePullBackOff", message: `Back-off pulling image "${image}"` };
      pods.push({
        apiVersion: "v1",
        kind: "Pod",
        metadata: {
          name: `${object.metadata.name}-7d9f8c6b5-x2x9q`,
          namespace,
          labels,
          annotations: object.spec.template.metadata.annotations ?? {},
        },
        spec: object.spec.template.spec,
        status: {
          phase: "Pending",
          conditions: [{ type: "PodScheduled", status: "True" }],
          containerStatuses: [
            {
              name: object.spec.template.spec.containers[0].name,
              image,
              imageID: "",
              ready: false,
              restartCount: 0,
              started: false,
              state: waiting ? { waiting } : { running: { startedAt: new Date().toISOString() } },
            },
          ],
        },
      });
    }
    return pods;
  }
}

/** A kubeconfig file in `dir` pointing at a fake API server with its token. */
export function writeKubeconfig(dir: string, server: string, token: string): string {
  const file = path.join(dir, "kubeconfig");
  fs.writeFileSync(
    file,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      "  - name: fake",
      "    cluster:",
      `      server: ${server}`,
      "      insecure-skip-tls-verify: true",
      "users:",
      "  - name: deployer",
      "    user:",
      `      token: ${token}`,
      "contexts:",
      "  - name: fake",
      "    context: { cluster: fake, user: deployer, namespace: default }",
      "current-context: fake",
      "",
    ].join("\n"),
  );
  return file;
}
