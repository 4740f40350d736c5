// A queue worker process: executes runs from the deployment's BullMQ queue (no HTTP API).
// `npm run worker -w services/agent-runtime`; needs REDIS_URL. WORKERS sets its concurrency.
import "./tracing/start-worker";
import {
  ConfigError,
  createLifecycle,
  createLogger,
  createMetrics,
  ensureDatabase,
  migrate,
  runMain,
  shutdownTracing,
} from "@lgp/server-kit";
import { serveMetrics } from "./metrics/endpoint";
import { loadProcessConfig } from "./config";
import { MIGRATIONS_DIR, checkGraphs } from "./main";
import { createRuntime } from "./runtime";
import { publishOwnUrl } from "./http/own-url";

async function main(): Promise<void> {
  const config = loadProcessConfig();
  if (!config.REDIS_URL)
    throw new ConfigError(
      "invalid REDIS_URL: a worker process needs Redis (the in-process queue lives in the API process)",
    );
  const logger = createLogger("agent-runtime-worker", config.LOG_LEVEL);
  await checkGraphs(config, logger);
  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, (message) => logger.info(message));
  // It serves no HTTP: clients made in its graphs reach the API processes only if told where.
  publishOwnUrl(config.LANGGRAPH_API_URL);
  const metrics = createMetrics("agent-runtime-worker");
  const runtime = await createRuntime(config, logger, { registry: metrics.registry, role: "worker" });
  runtime.startWorkers(Math.max(config.WORKERS, 1));
  const endpoint = config.METRICS_PORT
    ? await serveMetrics(metrics.registry, config.METRICS_PORT, config.HOST)
    : undefined;
  const lifecycle = createLifecycle(logger, { deadlineMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000 });
  // Closers run in reverse: the spans of the last runs are exported after they end.
  lifecycle.onShutdown(shutdownTracing, "tracing");
  if (endpoint)
    lifecycle.onShutdown(() => new Promise<void>((resolve) => endpoint.close(() => resolve())), "the metrics endpoint");
  lifecycle.onShutdown(() => runtime.close(), "the runtime (its runs in flight, queues and stores)");
  lifecycle.handleSignals();
  logger.info(
    { concurrency: Math.max(config.WORKERS, 1), metricsPort: endpoint?.port },
    "agent runtime worker started",
  );
}

if (require.main === module) runMain(main);
