import path from "node:path";
import { createLifecycle, createLogger, ensureDatabase, migrate, runMain } from "@lgp/server-kit";
import { createAgentRuntimeApp } from "./app";
import { loadAgentRuntimeConfig } from "./config";
import { createDb } from "./db";

export const MIGRATIONS_DIR = path.resolve(__dirname, "../../../prisma/agent-runtime/migrations");

async function main(): Promise<void> {
  const config = loadAgentRuntimeConfig();
  const logger = createLogger("agent-runtime", config.LOG_LEVEL);
  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, (message) => logger.info(message));
  const db = createDb(config.DATABASE_URL);

  const app = createAgentRuntimeApp({ config, db, logger });
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const lifecycle = createLifecycle(logger, { server });
  lifecycle.onShutdown(() => db.$disconnect());
  lifecycle.handleSignals();
  logger.info({ port: config.PORT }, `agent runtime listening on http://localhost:${config.PORT}`);
}

if (require.main === module) runMain(main);
