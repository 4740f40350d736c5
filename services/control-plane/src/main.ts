import path from "node:path";
import { createLifecycle, createLogger, ensureDatabase, migrate, runMain } from "@lgp/server-kit";
import { createControlPlaneApp } from "./app";
import { loadControlPlaneConfig } from "./config";
import { createDb } from "./db";
import { ensureBootstrapKey } from "./tenants/api-keys";

export const MIGRATIONS_DIR = path.resolve(__dirname, "../../../prisma/control-plane/migrations");

async function main(): Promise<void> {
  const config = loadControlPlaneConfig();
  const logger = createLogger("control-plane", config.LOG_LEVEL);
  await ensureDatabase(config.CONTROL_PLANE_DATABASE_URL);
  await migrate(config.CONTROL_PLANE_DATABASE_URL, MIGRATIONS_DIR, (message) => logger.info(message));
  const db = createDb(config.CONTROL_PLANE_DATABASE_URL);
  if (config.BOOTSTRAP_API_KEY) await ensureBootstrapKey(db, config.BOOTSTRAP_API_KEY);

  const app = createControlPlaneApp({ config, db, logger });
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const lifecycle = createLifecycle(logger, { server });
  lifecycle.onShutdown(() => db.$disconnect());
  lifecycle.handleSignals();
  logger.info({ port: config.PORT }, `control plane listening on ${config.PUBLIC_URL}`);
}

if (require.main === module) runMain(main);
