import path from "node:path";
import { z } from "zod";
import { env, loadConfig } from "@lgp/server-kit";

const REPO_ROOT = path.resolve(__dirname, "../../..");

/** Every variable the agent runtime reads, validated at start-up (see the README's table). */
export const agentRuntimeEnv = z.object({
  PORT: env.port(8123),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: env.postgresUrl(),
  REDIS_URL: env.redisUrl().optional(),
  LOG_LEVEL: env.logLevel(),
  /** Path of the langgraph.json whose graphs this runtime serves. */
  LANGGRAPH_CONFIG: z.string().default(path.join(REPO_ROOT, "examples/langgraph.json")),
  /** Queue workers inside the API process (0 when separate worker processes run). */
  WORKERS: z.coerce.number().int().min(0).max(256).default(4),
  /** Prefix of this deployment's Redis keys (queue, event streams, control channel). */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,100}$/, "letters, digits and _ : . - only")
    .default("lgp"),
  /** PostgreSQL connections of the checkpointer's pool (graph state reads and writes). */
  CHECKPOINT_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /**
   * A worker's hold on a run it executes, renewed while it lives; a run whose worker died is
   * handed to another worker after about this long (resumed from its last checkpoint).
   */
  RUN_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** Interval of the `: heartbeat` comments on event streams (the official client's reconnect watchdog needs them). */
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** Webhook calls per run end, the first included; failures (network, 408, 429, 5xx) are retried. */
  WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /** Delay before the first webhook retry; doubled for each further one. */
  WEBHOOK_RETRY_DELAY_MS: z.coerce.number().int().min(1).max(3_600_000).default(1000),
  /** How long one webhook call may take. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
});

export type AgentRuntimeConfig = z.infer<typeof agentRuntimeEnv>;

export function loadAgentRuntimeConfig(source: NodeJS.ProcessEnv = process.env): AgentRuntimeConfig {
  return loadConfig(agentRuntimeEnv, source);
}
