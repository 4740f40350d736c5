import "./tracing/start";
import path from "node:path";
import {
  createLifecycle,
  createLogger,
  ensureDatabase,
  migrate,
  runMain,
  shutdownTracing,
  startIdempotencySweep,
} from "@lgp/server-kit";
import { createControlPlaneApp } from "./app";
import { loadControlPlaneConfig } from "./config";
import { createDb } from "./db";
import { createReconcilerRuntime } from "./reconciler";
import { RuntimeLogRetention } from "./runtime-logs/retention";
import { DeploymentRepository } from "./deployments/repository";
import { DeploymentService } from "./deployments/service";
import { registerLocalRuntime, type LocalRuntimeEntry } from "./local-runtime";
import { SecretCipher } from "./secrets/cipher";
import { ensureBootstrapKey } from "./tenants/api-keys";
import { startApiKeys } from "./tenants/key-resolver";
import { controlPlaneIdempotencyStorage } from "./idempotency";
import { controlPlaneRateLimiter } from "./rate-limits";

export const MIGRATIONS_DIR = path.resolve(__dirname, "../../../prisma/control-plane/migrations");

/** How often deploy log lines past their retention are deleted. */
const RETENTION_SWEEP_MS = 10 * 60_000;

async function main(): Promise<void> {
  const config = loadControlPlaneConfig();
  const logger = createLogger("control-plane", config.LOG_LEVEL);
  await ensureDatabase(config.CONTROL_PLANE_DATABASE_URL);
  await migrate(config.CONTROL_PLANE_DATABASE_URL, MIGRATIONS_DIR, (message) => logger.info(message));
  const db = createDb(config.CONTROL_PLANE_DATABASE_URL);
  const bootstrapTenant = config.BOOTSTRAP_API_KEY ? await ensureBootstrapKey(db, config.BOOTSTRAP_API_KEY) : undefined;

  const reconciler = createReconcilerRuntime(config, db, logger);
  let localRuntime: LocalRuntimeEntry | undefined;
  if (config.LOCAL_RUNTIME_URL && config.LOCAL_RUNTIME_API_KEY && bootstrapTenant) {
    const repository = new DeploymentRepository(db);
    const deployments = new DeploymentService(repository, SecretCipher.fromConfig(config), reconciler.queue, logger);
    localRuntime = await registerLocalRuntime(
      deployments,
      repository,
      bootstrapTenant,
      { url: config.LOCAL_RUNTIME_URL, apiKey: config.LOCAL_RUNTIME_API_KEY },
      logger,
    );
  }
  // With REDIS_URL every replica counts against the same per-tenant budgets.
  const rateLimiter = controlPlaneRateLimiter(config, logger, { shared: true });
  await rateLimiter.ready();
  // X-Api-Key answers cached; PostgreSQL tells every replica when a key changes.
  const apiKeys = await startApiKeys(config, db, logger);
  const app = createControlPlaneApp({
    config,
    db,
    logger,
    reconcileQueue: reconciler.queue,
    localRuntime: () => localRuntime,
    rateLimiter,
    apiKeys,
  });
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const lifecycle = createLifecycle(logger, { server, deadlineMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000 });
  // Closers run in reverse: buffered spans are exported last.
  lifecycle.onShutdown(shutdownTracing, "tracing");
  lifecycle.onShutdown(() => db.$disconnect(), "the database pool");
  lifecycle.onShutdown(() => rateLimiter.close(), "the rate limiter");
  lifecycle.onShutdown(() => apiKeys.close(), "the API keys' cache");
  // Closers run in reverse: the reconciler (and the runtimes it started) stops before the pool.
  lifecycle.onShutdown(() => reconciler.close(), "the reconciler (and the runtimes it started)");
  await reconciler.start();
  const retention = new RuntimeLogRetention(
    db,
    { maxAgeHours: config.RUNTIME_LOG_RETENTION_HOURS, maxLinesPerDeployment: config.RUNTIME_LOG_MAX_LINES },
    logger,
  );
  retention.start(RETENTION_SWEEP_MS);
  // Expired idempotency keys (any replica may delete them: they are ignored once expired anyway).
  const stopIdempotencySweep = startIdempotencySweep(
    controlPlaneIdempotencyStorage(db, SecretCipher.fromConfig(config)),
    logger,
  );
  lifecycle.onShutdown(async () => stopIdempotencySweep(), "the idempotency sweep");
  lifecycle.onShutdown(() => retention.stop(), "the runtime logs' retention");
  lifecycle.handleSignals();
  logger.info({ port: config.PORT }, `control plane listening on ${config.PUBLIC_URL}`);
}

if (require.main === module) runMain(main);
