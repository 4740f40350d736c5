// A control plane with a running reconciler and the local deployer (or the one `env` configures), for the reconciler, revision
// and local-deployer tests. Work files live under the repository's .data/ (so graph files resolve
// the repository's node_modules) and are removed, with every deployment database, in `close`.
import { mkdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { createLogger, dropDatabase } from "@lgp/server-kit";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import type { KubernetesDeployer } from "../../src/deployers/kubernetes";
import { LocalDeployer } from "../../src/deployers/local";
import { InProcessQueue, type ReconcileQueue } from "../../src/queue";
import { createReconcilerRuntime, type ReconcilerRuntime } from "../../src/reconciler";
import type { FollowingOptions } from "../../src/runtime-logs/following";
import { startHarness, type Harness } from "../deployments/harness";

export interface ReconcilerHarness extends Harness {
  runtime: ReconcilerRuntime;
  deployer: LocalDeployer;
  workDir: string;
  /** A new reconciler over the same database and queue kind (a restart of the control plane). */
  restart(): Promise<void>;
  waitForRevision(
    deploymentId: string,
    revisionId: string,
    statuses: string[],
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
}

export async function startReconcilerHarness(
  options: {
    queue?: () => ReconcileQueue;
    start?: boolean;
    timeoutSeconds?: number;
    sweepSeconds?: number;
    env?: Record<string, string>;
    /** How often (kubernetes) pod logs are brought up to date, and their leases' length. */
    logFollowing?: FollowingOptions;
  } = {},
): Promise<ReconcilerHarness> {
  const workDir = path.join(REPO_ROOT, ".data", `test-deployments-${randomBytes(4).toString("hex")}`);
  mkdirSync(workDir, { recursive: true });
  const makeQueue = options.queue ?? (() => new InProcessQueue(createLoggerless()));
  let queue = makeQueue();
  const h = await startHarness({
    queue: {
      // The app keeps one queue object across a simulated restart: delegate to the current one.
      kind: queue.kind,
      enqueue: (job) => queue.enqueue(job),
      process: (handler, concurrency) => queue.process(handler, concurrency),
      close: () => queue.close(),
    },
    env: {
      DEPLOYMENTS_DIR: workDir,
      LOCAL_DEPLOY_TIMEOUT_SECONDS: String(options.timeoutSeconds ?? 60),
      RECONCILER_SWEEP_SECONDS: String(options.sweepSeconds ?? 30),
      ...options.env,
    },
  });
  const build = () => createReconcilerRuntime(h.config, h.db, h.logger, { queue, logFollowing: options.logFollowing });
  let runtime = build();
  if (options.start !== false) await runtime.start();
  const result: ReconcilerHarness = {
    ...h,
    get runtime() {
      return runtime;
    },
    get deployer() {
      return runtime.deployer as LocalDeployer;
    },
    workDir,
    async restart() {
      await runtime.close();
      queue = makeQueue();
      runtime = build();
      await runtime.start();
    },
    async waitForRevision(deploymentId, revisionId, statuses, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last: Record<string, unknown> = {};
      while (Date.now() < deadline) {
        const res = await h.api.get(`/v2/deployments/${deploymentId}/revisions/${revisionId}`);
        last = res.body;
        if (statuses.includes(String(last.status))) return last;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`revision ${revisionId} stayed ${JSON.stringify(last)} (waiting for ${statuses.join("/")})`);
    },
    async close() {
      await runtime.close();
      const rows = await h.db.deployment.findMany({ select: { id: true } });
      const deployer = runtime.deployer;
      for (const row of rows) {
        const url =
          deployer instanceof LocalDeployer
            ? deployer.databaseUrl(row.id)
            : (deployer as KubernetesDeployer).databaseUrlFor(row);
        await dropDatabase(url).catch(() => {});
      }
      rmSync(workDir, { recursive: true, force: true });
      await h.close();
    },
  };
  return result;
}

/** The in-process queue only logs failed jobs; tests see those through revision states. */
function createLoggerless() {
  return createLogger("test-queue", "error");
}

/** A stand-in for an external_docker deployment: an HTTP server whose /ok answers 200. */
export async function startOkServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.statusCode = req.url === "/ok" ? 200 : 404;
    res.end(req.url === "/ok" ? '{"ok":true}' : "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
