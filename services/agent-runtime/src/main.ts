import "./tracing/start-api";
import path from "node:path";
import {
  createLifecycle,
  createLogger,
  createMetrics,
  ensureDatabase,
  migrate,
  runMain,
  shutdownTracing,
  type Logger,
} from "@lgp/server-kit";
import { createAgentRuntimeApp } from "./app";
import { acceptUpgrades } from "./protocol/websocket";
import { loadProcessConfig, type AgentRuntimeConfig } from "./config";
import { corsSettingsOf } from "./http/cors";
import { MemorySaver } from "@langchain/langgraph";
import { GraphRegistry } from "./graphs/registry";
import { pythonSettingsOf } from "./python/graphs";
import { createRuntime } from "./runtime";
import { runtimeRateLimiter } from "./http/rate-limits";
import { ownUrl, publishOwnUrl } from "./http/own-url";
import type { AddressInfo } from "node:net";

export const MIGRATIONS_DIR = path.resolve(__dirname, "../../../prisma/agent-runtime/migrations");

async function main(): Promise<void> {
  const config = loadProcessConfig();
  const logger = createLogger("agent-runtime", config.LOG_LEVEL);
  await checkGraphs(config, logger);
  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, (message) => logger.info(message));
  const metrics = createMetrics("agent-runtime");
  const runtime = await createRuntime(config, logger, { registry: metrics.registry });
  runtime.startWorkers(config.WORKERS);

  // With REDIS_URL every replica counts against the same per key or user budgets.
  const rateLimiter = runtimeRateLimiter(config, logger, { shared: true });
  await rateLimiter.ready();
  const app = createAgentRuntimeApp({ config, db: runtime.db, logger, runtime, metrics, rateLimiter });
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  publishOwnUrl(ownUrl({ host: config.HOST, port: (server.address() as AddressInfo).port }, config.LANGGRAPH_API_URL));
  acceptUpgrades(server, app);
  const lifecycle = createLifecycle(logger, { server, deadlineMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000 });
  // Closers run in reverse: the spans of the last requests and runs are exported after they end.
  lifecycle.onShutdown(shutdownTracing, "tracing");
  lifecycle.onShutdown(() => runtime.close(), "the runtime (its runs in flight, queues and stores)");
  lifecycle.onShutdown(() => rateLimiter.close(), "the rate limiter");
  lifecycle.handleSignals();
  logger.info({ port: config.PORT }, `agent runtime listening on http://localhost:${config.PORT}`);
  if (runtime.customAuth)
    logger.info(
      {
        auth: runtime.customAuth.source,
        studioKeys: !!config.API_KEY_HASHES && !runtime.customAuth.studioAuthDisabled,
      },
      "custom auth: every request but probes, /info and the docs goes through its authenticate handler" +
        (config.API_KEY_HASHES && !runtime.customAuth.studioAuthDisabled
          ? "; a deployment key (x-api-key) stands for the studio user"
          : ""),
    );
  else if (!config.API_KEY_HASHES)
    logger.warn(
      "OPEN MODE: no API key configured (API_KEY_HASHES): anyone who reaches this runtime can read every thread " +
        "and run every graph. Open mode is for local development only.",
    );
}

/**
 * A bad langgraph.json stops start-up before anything touches the database; so does a graph that
 * fails to load when LANGGRAPH_STRICT_GRAPHS is set (otherwise the runtime logs it and serves the others).
 */
export async function checkGraphs(config: AgentRuntimeConfig, logger: Logger): Promise<void> {
  corsSettingsOf(config); // reads langgraph.json: a bad http.cors stops start-up here too
  if (!config.LANGGRAPH_STRICT_GRAPHS) return;
  // Its warnings are the runtime's to log once, when it loads the graphs for good.
  const graphs = await GraphRegistry.load(config.LANGGRAPH_JSON, new MemorySaver(), {
    logger: logger.child({}, { level: "silent" }),
    strict: true,
    python: pythonSettingsOf(config),
  });
  await graphs.close();
}

if (require.main === module) runMain(main);
