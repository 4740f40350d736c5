import path from "node:path";
import { z } from "zod";
import { env, idempotencyKeyTtlSeconds, idempotencyWaitMs, loadConfig } from "@lgp/server-kit";
import { applyProjectEnv, parseGraphDefaults, readGraphProject } from "./graphs/config";
import { corsSettings } from "./http/cors";
import { parseKeyHashes } from "./auth/api-keys";

const REPO_ROOT = path.resolve(__dirname, "../../..");

/** Every variable the agent runtime reads, validated at start-up (see the README's table). */
export const agentRuntimeEnv = z.object({
  PORT: env.port(8123),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: env.postgresUrl(),
  REDIS_URL: env.redisUrl().optional(),
  LOG_LEVEL: env.logLevel(),
  /** Path of the langgraph.json whose graphs this runtime serves. */
  LANGGRAPH_JSON: z.string().default(path.join(REPO_ROOT, "examples/langgraph.json")),
  /**
   * Per-graph defaults of the default assistants, as the official server reads them:
   * `{"<graph_id>": {"configurable": {...}, "context": {...}}}`. Also read from langgraph.json's `env`.
   */
  LANGGRAPH_CONFIG: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      const parsed = parseGraphDefaults(value);
      if (typeof parsed === "string") {
        context.addIssue({ code: "custom", message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  /**
   * This runtime's address for official SDK clients created in its graphs and custom routes with
   * no `apiUrl` (as the official server sets it). Unset: where the API process listens; a worker
   * process, which does not listen, needs it for such clients.
   */
  LANGGRAPH_API_URL: z
    .string()
    .refine((value) => /^https?:\/\/.+/.test(value) && URL.canParse(value), "must be an http(s):// URL")
    .optional(),
  /** Stop at start-up when a graph fails to load (otherwise it is logged and the others serve). */
  LANGGRAPH_STRICT_GRAPHS: env.boolean(false),
  /**
   * Time limit of reading one graph's types from its TypeScript source (Annotation state), in a
   * worker thread, the first time its schemas are asked; past it the run-time schemas answer.
   */
  LANGGRAPH_SCHEMA_RESOLVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /**
   * CORS settings as a JSON object of langgraph.json's `http.cors` keys; replaces that section
   * (unset: langgraph.json's, or any origin when it has none).
   */
  CORS_CONFIG: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        context.addIssue({ code: "custom", message: "must be a JSON object of http.cors settings" });
        return z.NEVER;
      }
      const settings = corsSettings.safeParse(parsed);
      if (!settings.success) {
        const issue = settings.error.issues[0];
        context.addIssue({ code: "custom", message: `${issue.path.join(".") || "(root)"} ${issue.message}` });
        return z.NEVER;
      }
      return settings.data;
    }),
  /** Origins allowed to call the runtime from a browser, comma-separated; overrides `allow_origins`. */
  CORS_ALLOW_ORIGINS: z
    .string()
    .optional()
    .transform((value) =>
      value
        ?.split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    ),
  /**
   * SHA-256 hashes of the deployment's API keys (`sha256:<hex>`, comma-separated): with them, every
   * request but /ok, /ready, /info and the docs needs one of the keys. Unset: open (local development).
   */
  API_KEY_HASHES: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === "") return undefined;
      const parsed = parseKeyHashes(value);
      if (typeof parsed === "string") {
        context.addIssue({ code: "custom", message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  /**
   * Python graphs: the interpreter of an environment made already (with the graph host's and the
   * project's requirements, as the images and the local deployer make them). Unset: the runtime
   * makes one itself under PYTHON_ENVIRONMENTS_DIR, the first time, and reuses it.
   */
  LANGGRAPH_PYTHON: z.string().min(1).optional(),
  /** The interpreter Python environments are made with (unset: python<python_version>, else python3). */
  PYTHON: z.string().min(1).optional(),
  /** Where the runtime keeps the Python environments it makes (one per set of requirements). */
  PYTHON_ENVIRONMENTS_DIR: z.string().default(path.join(REPO_ROOT, ".data/python")),
  /** PostgreSQL connections of each Python graph host (its checkpointer). */
  PYTHON_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(5),
  /** Queue workers inside the API process (0 when separate worker processes run). */
  WORKERS: z.coerce.number().int().min(0).max(256).default(4),
  /** A `worker` process serves its /metrics (the runs it executes) on this port; unset: none. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * Embedded mode (no REDIS_URL): threads that execute the in-process queue's runs, each with its
   * own graphs and connections, so HTTP and runs use more than one core; 0 runs them on the main
   * thread. WORKERS stays the number of runs at once, shared by the threads. Ignored with Redis
   * (run worker processes there).
   */
  WORKER_THREADS: z.coerce.number().int().min(0).max(64).default(0),
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
  /**
   * How many times a run may be started (its first attempt included): a run whose worker keeps
   * dying (a graph that is OOM-killed) ends as `error` after this many, and its thread is freed.
   */
  RUN_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(3),
  /**
   * How long a shutdown (SIGTERM, SIGINT) may take before the process exits anyway, with what it
   * was still closing logged: its runs in flight end first, and one that waits for an unreachable
   * store would hold it. Below the orchestrator's grace (the manifests: 60 s, 120 s for workers).
   */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(55),
  /** Interval of the `: heartbeat` comments on event streams (the official client's reconnect watchdog needs them). */
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /**
   * Semantic store search (store.index): how many of the query's nearest lists (k-means centroids
   * of the vectors) a search reads. More finds more of the exact scan's best items, and reads more.
   */
  STORE_SEARCH_NPROBE: z.coerce.number().int().min(1).max(10_000).default(12),
  /**
   * Below this many items under a search's namespace prefix the search is an exact scan of their
   * vectors; the lists are first trained once the store holds this many vectors.
   */
  STORE_SEARCH_EXACT_BELOW: z.coerce.number().int().min(1).max(2_000_000_000).default(2000),
  /** How often the store's lists are looked after: trained when the vectors have doubled since, and new vectors put in them. */
  STORE_SEARCH_TRAIN_CHECK_MS: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
  /** How often expired threads (a `ttl` set on create or update) are swept: deleted, or pruned to their latest checkpoint. */
  THREAD_TTL_SWEEP_MS: z.coerce.number().int().min(100).max(86_400_000).default(300_000),
  /**
   * How long an `Idempotency-Key` sent on a create is kept (per API key or user): a repeat within
   * it answers the first result again; after it the key may be used afresh.
   */
  IDEMPOTENCY_KEY_TTL_SECONDS: idempotencyKeyTtlSeconds(),
  /** How long a repeat of an in-flight create (same Idempotency-Key) waits for its first answer before a 409 with Retry-After. */
  IDEMPOTENCY_WAIT_MS: idempotencyWaitMs(),
  /** Webhook calls per run end, the first included; failures (network, 408, 429, 5xx) are retried. */
  WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /** Delay before the first webhook retry; doubled for each further one. */
  WEBHOOK_RETRY_DELAY_MS: z.coerce.number().int().min(1).max(3_600_000).default(1000),
  /** How long one webhook call may take. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /**
   * Requests per minute of one API key or custom-auth user; 0 (the default) turns the limit off:
   * one deployment key often carries a whole application's traffic, which no default should cut.
   */
  RATE_LIMIT_REQUESTS_PER_MINUTE: z.coerce.number().int().min(0).default(0),
  /** Runs created per minute by one API key or user (a batch counts each run); 0: run creates count as requests. */
  RATE_LIMIT_RUNS_PER_MINUTE: z.coerce.number().int().min(0).default(0),
  /**
   * Requests refused 401 per minute from one client address (guessing keys); past it the address
   * gets 429s until its window ends. 0 (the default) turns it off: behind an ingress without
   * TRUST_PROXY every client shares the ingress's address.
   */
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).default(0),
  /** Reverse proxies whose X-Forwarded-For gives the client's address: a hop count or their addresses/CIDRs; unset, the socket's address. */
  TRUST_PROXY: env.trustProxy(),
  /** Besides the internet, what webhooks may reach: network names (loopback, private, link-local...), addresses, CIDR ranges. */
  OUTBOUND_ALLOW: env.outboundPolicy(),
});

export type AgentRuntimeConfig = z.infer<typeof agentRuntimeEnv>;

export function loadAgentRuntimeConfig(source: NodeJS.ProcessEnv = process.env): AgentRuntimeConfig {
  return loadConfig(agentRuntimeEnv, source);
}

/**
 * The configuration of a runtime process. langgraph.json's `env` joins the process environment
 * first, as with the official server: a variable already set keeps its value, and the graphs see
 * the others (LANGGRAPH_CONFIG among them).
 */
export function loadProcessConfig(): AgentRuntimeConfig {
  applyProjectEnv(
    readGraphProject(agentRuntimeEnv.shape.LANGGRAPH_JSON.parse(process.env.LANGGRAPH_JSON || undefined)),
  );
  return loadAgentRuntimeConfig(process.env);
}
