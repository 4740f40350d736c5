// Shared set-up of the deployments, revisions, reconciler, tenancy and local-deployer tests: a
// fresh migrated database, a tenant with a key, and the control plane listening on loopback.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, type Logger } from "@lgp/server-kit";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import supertest from "supertest";
import { createControlPlaneApp } from "../../src/app";
import { loadControlPlaneConfig, type ControlPlaneConfig } from "../../src/config";
import { createDb, type Db } from "../../src/db";
import type { ControlPlaneDeps } from "../../src/deps";
import type { ReconcileQueue } from "../../src/queue";
import { generateKey, SecretCipher } from "../../src/secrets/cipher";
import { createTenantKey } from "../../src/tenants/api-keys";
import { startApiKeys } from "../../src/tenants/key-resolver";

export interface Harness {
  database: TestDatabase;
  db: Db;
  config: ControlPlaneConfig;
  logger: Logger;
  cipher: SecretCipher;
  tenantId: string;
  apiKey: string;
  url: string;
  /** supertest agent on the listening server, with this tenant's X-Api-Key on every request. */
  api: {
    get(path: string): supertest.Test;
    post(path: string): supertest.Test;
    patch(path: string): supertest.Test;
    delete(path: string): supertest.Test;
  };
  raw: supertest.Agent;
  close(): Promise<void>;
}

interface HarnessOptions {
  queue?: ReconcileQueue;
  env?: Record<string, string>;
  localRuntime?: ControlPlaneDeps["localRuntime"];
  /** Connections of the app's pool (main.ts: 10). */
  poolSize?: number;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const database = await createTestDatabase("control-plane");
  try {
    return await listen(database, options);
  } catch (error) {
    // A failed set-up leaves no database behind.
    await database.drop().catch(() => {});
    throw error;
  }
}

async function listen(database: TestDatabase, options: HarnessOptions): Promise<Harness> {
  // Listening first gives the app its real URL (PUBLIC_URL: OAuth redirects, upload URLs).
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let config: ControlPlaneConfig;
  try {
    config = loadControlPlaneConfig({
      CONTROL_PLANE_DATABASE_URL: database.url,
      SECRETS_ENCRYPTION_KEY: generateKey(),
      LOG_LEVEL: "warn",
      PUBLIC_URL: url,
      // The tests' runtimes and providers listen on loopback (outbound-policy.test.ts runs without this).
      OUTBOUND_ALLOW: "loopback",
      // Tests create deployments by the dozen a minute; test/rate-limits sets its own budgets.
      RATE_LIMIT_DEPLOYS_PER_MINUTE: "0",
      ...options.env,
    });
  } catch (error) {
    server.close();
    throw error;
  }
  const db = createDb(database.url, options.poolSize ?? 5);
  const logger = createLogger("control-plane-test", process.env.LOG_LEVEL ?? "warn");
  const { tenantId, apiKey } = await createTenantKey(db, "tenant-a");
  // Keys resolve as in main.ts: cached, and forgotten when PostgreSQL announces a change.
  const apiKeys = await startApiKeys(config, db, logger);
  const app = createControlPlaneApp({
    config,
    db,
    logger,
    reconcileQueue: options.queue,
    localRuntime: options.localRuntime,
    apiKeys,
  });
  server.on("request", app);
  const raw = supertest.agent(url);
  const withKey = (test: supertest.Test) => test.set("X-Api-Key", apiKey);
  return {
    database,
    db,
    config,
    logger,
    cipher: SecretCipher.fromEncodedKey(config.SECRETS_ENCRYPTION_KEY),
    tenantId,
    apiKey,
    url,
    raw,
    api: {
      get: (path) => withKey(raw.get(path)),
      post: (path) => withKey(raw.post(path)),
      patch: (path) => withKey(raw.patch(path)),
      delete: (path) => withKey(raw.delete(path)),
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await apiKeys.close();
      await db.$disconnect();
      await database.drop();
    },
  };
}

/** A valid create body of each source kind; `overrides` are merged over it. */
export function dockerBody(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    source: "external_docker",
    source_config: { custom_url: "http://127.0.0.1:9/" },
    source_revision_config: { image_uri: "example/agent:1" },
    secrets: [],
    ...overrides,
  };
}

export function sourceBody(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    source: "internal_source",
    source_config: { repo_url: "file:///nowhere", install_command: "true" },
    source_revision_config: { repo_ref: "main", langgraph_config_path: "langgraph.json" },
    secrets: [{ name: "OPENAI_API_KEY", value: "sk-plain-value" }],
    ...overrides,
  };
}
