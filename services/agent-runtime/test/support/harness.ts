// Test harness: a real agent runtime (app + runtime) on a loopback port, with its own database
// and (in Redis mode) its own key prefix, driven through the official client.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import path from "node:path";
import { createLogger, createMetrics, freePort, waitUntilOk } from "@lgp/server-kit";
import {
  Client,
  createEmptyDatabase,
  createTestDatabase,
  testRedisUrl,
  type TestDatabase,
} from "@lgp/server-kit/src/testing";
import { createAgentRuntimeApp } from "../../src/app";
import { acceptUpgrades } from "../../src/protocol/websocket";
import { loadAgentRuntimeConfig, type AgentRuntimeConfig } from "../../src/config";
import { createRuntime, type Runtime } from "../../src/runtime";

import { deleteRedisKeys } from "./redis-keys";

export { Client, deleteRedisKeys };

export const EXAMPLES_CONFIG = path.resolve(__dirname, "../../../../examples/langgraph.json");
/** The Python twins of the examples (examples/python), with the same graph ids. */
export const PYTHON_EXAMPLES_CONFIG = path.resolve(__dirname, "../../../../examples/python/langgraph.json");

export type GraphLanguage = "js" | "python";

/** The runtime's environment serving the examples of a language (JS: the default). */
export function graphsOf(language: GraphLanguage): Record<string, string> {
  return language === "python" ? { LANGGRAPH_JSON: PYTHON_EXAMPLES_CONFIG } : {};
}

export interface RunningRuntime {
  url: string;
  server: Server;
  client: Client;
  runtime: Runtime;
  config: AgentRuntimeConfig;
  close(): Promise<void>;
}

export function randomPrefix(): string {
  return `lgp-test-${randomBytes(4).toString("hex")}`;
}

/** Starts a runtime on an existing database (so a test can restart one on the same data). */
export async function startRuntime(
  databaseUrl: string,
  options: { redis?: boolean; prefix?: string; workers?: number; env?: Record<string, string> } = {},
): Promise<RunningRuntime> {
  const config = loadAgentRuntimeConfig({
    DATABASE_URL: databaseUrl,
    LANGGRAPH_JSON: EXAMPLES_CONFIG,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    WORKERS: String(options.workers ?? 2),
    CHECKPOINT_POOL_SIZE: "5",
    // The tests' webhook receivers listen on loopback (outbound-policy.test.ts runs without this).
    OUTBOUND_ALLOW: "loopback",
    ...(options.redis ? { REDIS_URL: testRedisUrl(), REDIS_PREFIX: options.prefix ?? randomPrefix() } : {}),
    ...options.env,
  });
  const logger = createLogger("agent-runtime-test", config.LOG_LEVEL);
  const metrics = createMetrics("agent-runtime");
  const runtime = await createRuntime(config, logger, { registry: metrics.registry });
  runtime.startWorkers(config.WORKERS);
  const app = createAgentRuntimeApp({ config, db: runtime.db, logger, runtime, metrics });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  acceptUpgrades(server, app);
  const address = server.address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    server,
    client: new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } }),
    runtime,
    config,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await runtime.close();
      if (config.REDIS_URL) await deleteRedisKeys(config.REDIS_URL, config.REDIS_PREFIX);
    },
  };
}

export async function startTestRuntime(
  options: { redis?: boolean; workers?: number; env?: Record<string, string> } = {},
): Promise<RunningRuntime & { database: TestDatabase }> {
  const database = await createTestDatabase("agent-runtime");
  const running = await startRuntime(database.url, options);
  return {
    ...running,
    database,
    async close() {
      await running.close();
      await database.drop();
    },
  };
}

/** Collects a stream of the official client into an array. */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

/**
 * Starts `src/main.ts` or `src/worker.ts` as a process of its own on Redis (one node process with
 * the tsx loader, so a signal reaches the service itself); its output goes to `output`.
 */
export function spawnRuntimeProcess(
  script: "main.ts" | "worker.ts",
  env: Record<string, string>,
  output: string[],
): ChildProcess {
  const serviceDir = path.resolve(__dirname, "../..");
  const child = spawn(process.execPath, ["--import", "tsx", path.join(serviceDir, "src", script)], {
    cwd: serviceDir,
    env: { ...process.env, REDIS_URL: testRedisUrl(), LANGGRAPH_JSON: EXAMPLES_CONFIG, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => output.push(`${script}: ${chunk}`));
  child.stderr?.on("data", (chunk) => output.push(`${script}: ${chunk}`));
  return child;
}

/** SIGTERMs a process started for a test (SIGKILL after 5 s) and waits until it has exited. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** SIGKILLs a process started for a test (if it still runs) and waits until it has exited. */
export async function killProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

export interface RuntimeProcess {
  url: string;
  /** Its database (a worker process started beside it uses it too). */
  databaseUrl: string;
  child: ChildProcess;
  /** What the process printed. */
  output: string[];
  /** Ends the process, then drops its database. */
  stop(): Promise<void>;
}

/**
 * `src/main.ts` as a process of its own (see spawnRuntimeProcess) on a new empty database and a
 * free port, once it answers `/ok`; `env` adds to or overrides its variables.
 */
export async function startRuntimeProcess(databaseName: string, env: Record<string, string>): Promise<RuntimeProcess> {
  const database = await createEmptyDatabase(databaseName);
  const port = await freePort();
  const output: string[] = [];
  const child = spawnRuntimeProcess(
    "main.ts",
    { DATABASE_URL: database.url, PORT: String(port), REDIS_PREFIX: randomPrefix(), ...env },
    output,
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await database.drop();
  };
  const url = `http://127.0.0.1:${port}`;
  if (!(await waitUntilOk(`${url}/ok`, 60_000, () => child.exitCode === null))) {
    await stop();
    throw new Error(`the runtime process did not start:\n${output.join("")}`);
  }
  return { url, databaseUrl: database.url, child, output, stop };
}
