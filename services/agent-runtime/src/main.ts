import path from "node:path";
import { createLifecycle, createLogger, ensureDatabase, migrate, runMain } from "@lgp/server-kit";
import { createAgentRuntimeApp } from "./app";
import { loadAgentRuntimeConfig } from "./config";
import { MemorySaver } from "@langchain/langgraph";
import { GraphRegistry } from "./graphs/registry";
import { createRuntime } from "./runtime";

export const MIGRATIONS_DIR = path.resolve(__dirname, "../../../prisma/agent-runtime/migrations");

async function main(): Promise<void> {
  const config = loadAgentRuntimeConfig();
  const logger = createLogger("agent-runtime", config.LOG_LEVEL);
  // A bad graph config stops start-up before anything touches the database.
  await GraphRegistry.load(config.LANGGRAPH_CONFIG, new MemorySaver());
  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, (message) => logger.info(message));
  const runtime = await createRuntime(config, logger);
  runtime.startWorkers(config.WORKERS);

  const app = createAgentRuntimeApp({ config, db: runtime.db, logger, runtime });
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const lifecycle = createLifecycle(logger, { server });
  lifecycle.onShutdown(() => runtime.close());
  lifecycle.handleSignals();
  logger.info({ port: config.PORT }, `agent runtime listening on http://localhost:${config.PORT}`);
}

if (require.main === module) runMain(main);
