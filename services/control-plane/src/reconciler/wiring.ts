import path from "node:path";
import { uploadStoreOf } from "../uploads/store";
import { outboundFetch, type Logger } from "@lgp/server-kit";
import type { ControlPlaneConfig } from "../config";
import type { Db } from "../db";
import type { Deployer } from "../deployers/deployer";
import { LocalDeployer } from "../deployers/local";
import { createReconcileQueue, type ReconcileQueue } from "../queue";
import { RevisionRepository } from "../revisions/repository";
import { RuntimeLogCollector } from "../runtime-logs/collector";
import { RuntimeLogFollowing, type FollowingOptions } from "../runtime-logs/following";
import { SecretCipher } from "../secrets/cipher";
import { Reconciler } from "./reconciler";

const REPO_ROOT = path.resolve(__dirname, "../../../..");

export interface ReconcilerRuntime {
  queue: ReconcileQueue;
  deployer: Deployer;
  reconciler: Reconciler;
  /** Resumes unfinished work and starts taking jobs. */
  start(): Promise<void>;
  /** Stops taking jobs, waits for running ones, stops the local deployer's runtimes. */
  close(): Promise<void>;
}

/** The local deployer; with `db`, its runtimes' output is kept in their revisions' deploy logs. */
export function createLocalDeployer(config: ControlPlaneConfig, logger: Logger, db?: Db): LocalDeployer {
  const revisions = db ? new RevisionRepository(db) : undefined;
  return new LocalDeployer(
    {
      databaseServerUrl: config.DEPLOYMENTS_DATABASE_URL ?? config.CONTROL_PLANE_DATABASE_URL,
      workDir: config.DEPLOYMENTS_DIR ?? path.join(REPO_ROOT, ".data/deployments"),
      startTimeoutMs: config.LOCAL_DEPLOY_TIMEOUT_SECONDS * 1000,
      healthTimeoutMs: config.LOCAL_DEPLOY_TIMEOUT_SECONDS * 1000,
      outbound: outboundFetch(config.OUTBOUND_ALLOW),
      // Runtimes log at info at least: their lines are their deployments' deploy logs, read by
      // their teams, whatever the control plane's own level.
      runtimeLogLevel: config.LOG_LEVEL === "debug" || config.LOG_LEVEL === "trace" ? config.LOG_LEVEL : "info",
      uploads: uploadStoreOf(config),
      runtimeLogs:
        revisions &&
        ((revisionId, secretValues) => new RuntimeLogCollector(revisions, revisionId, secretValues, logger)),
    },
    logger.child({ deployer: "local" }),
  );
}

/** Loaded only when configured: the Kubernetes client is large and the local mode never needs it. */
function kubernetesDeployer(config: ControlPlaneConfig, logger: Logger): Deployer {
  const { createKubernetesDeployer } = require("../deployers/kubernetes") as typeof import("../deployers/kubernetes");
  return createKubernetesDeployer(config, logger);
}

/**
 * The revisions queue (BullMQ with REDIS_URL, in-process otherwise), the configured deployer and
 * the reconciler that connects them. The same queue goes to the HTTP app (`reconcileQueue`).
 */
export function createReconcilerRuntime(
  config: ControlPlaneConfig,
  db: Db,
  logger: Logger,
  overrides: { queue?: ReconcileQueue; deployer?: Deployer; logFollowing?: FollowingOptions } = {},
): ReconcilerRuntime {
  const log = logger.child({ component: "reconciler" });
  const queue = overrides.queue ?? createReconcileQueue({ redisUrl: config.REDIS_URL }, log);
  const deployer: Deployer =
    overrides.deployer ??
    (config.DEPLOYER === "kubernetes" ? kubernetesDeployer(config, log) : createLocalDeployer(config, log, db));
  const cipher = SecretCipher.fromConfig(config);
  const reconciler = new Reconciler(db, deployer, queue, cipher, log, {
    concurrency: config.RECONCILER_CONCURRENCY,
    sweepIntervalMs: config.RECONCILER_SWEEP_SECONDS * 1000,
  });
  // Pod logs (kubernetes) are followed by a loop; the local deployer collects output as it starts runtimes.
  const following = deployer.followLogs
    ? new RuntimeLogFollowing(
        db,
        deployer as Required<Pick<Deployer, "followLogs">>,
        cipher,
        log.child({ component: "runtime-logs" }),
        overrides.logFollowing,
      )
    : undefined;
  return {
    queue,
    deployer,
    reconciler,
    async start() {
      await reconciler.start();
      following?.start();
    },
    async close() {
      await following?.stop();
      await reconciler.stop();
      if (deployer instanceof LocalDeployer) await deployer.stopAll();
    },
  };
}
