import { z } from "zod";
import { env, idempotencyKeyTtlSeconds, idempotencyWaitMs, loadConfig } from "@lgp/server-kit";
import { decodeKey } from "./secrets/cipher";

/** Every variable the control plane reads, validated at start-up (see the README's table). */
export const controlPlaneEnv = z.object({
  PORT: env.port(8100),
  HOST: z.string().default("0.0.0.0"),
  CONTROL_PLANE_DATABASE_URL: env.postgresUrl(),
  REDIS_URL: env.redisUrl().optional(),
  LOG_LEVEL: env.logLevel(),
  /**
   * How long a shutdown (SIGTERM, SIGINT) may take before the process exits anyway, with what it
   * was still closing logged. Below the orchestrator's grace (the manifest: 30 s).
   */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(25),
  /** A key that always resolves to the `default` tenant (the embedded start sets and prints one). */
  BOOTSTRAP_API_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  /** Seconds a found X-Api-Key is answered from memory (a change is heard at once through PostgreSQL; this bounds a missed one); 0: looked up on every request. */
  API_KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Seconds an unknown X-Api-Key is refused from memory (a flood of one bad key costs one lookup); 0: looked up every time. */
  API_KEY_CACHE_NEGATIVE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  /** Keys kept in memory of each kind (found, unknown), least recently used out first. */
  API_KEY_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  /** The agent runtime started beside this control plane (`npm start` sets both): registered as deployment "local" of the bootstrap tenant. */
  LOCAL_RUNTIME_URL: z.url().optional(),
  /** That runtime's API key: the console of the bootstrap tenant gets it from GET /v2/local-runtime; never stored. */
  LOCAL_RUNTIME_API_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  /** Besides the internet, what calls to URLs from input (external_docker custom_url, OAuth token URLs) may reach: network names (loopback, private, link-local...), addresses, CIDR ranges. */
  OUTBOUND_ALLOW: env.outboundPolicy(),
  /** Where this control plane is reachable from a browser (OAuth redirect URIs). */
  PUBLIC_URL: z.url().optional(),
  /** Page the browser lands on after an OAuth callback; default the console's callback page (`{PUBLIC_URL}/auth/done` without the console). */
  FRONTEND_CALLBACK_URL: z.url().optional(),
  /** Serve the web console under /console. */
  CONSOLE_ENABLED: env.boolean(true),
  /** The console's built files; default packages/console/dist in this repository. */
  CONSOLE_DIR: z.string().min(1).optional(),
  /** Accept OAuth providers at plain-http loopback URLs (a provider on this machine; development and tests). */
  OAUTH_ALLOW_HTTP_LOOPBACK: env.boolean(false),
  /** 32 bytes (base64 or hex) encrypting secrets at rest; the embedded start generates one under .data/. */
  SECRETS_ENCRYPTION_KEY: z.string().refine((value) => {
    try {
      decodeKey(value);
      return true;
    } catch {
      return false;
    }
  }, "must be 32 bytes, as 64 hex characters or base64"),
  /** Earlier keys, comma separated: they still decrypt (and verify signed URLs and credentials) until `secrets:rotate` has moved everything to the current key. */
  SECRETS_ENCRYPTION_OLD_KEYS: z
    .string()
    .default("")
    .transform((value, context) => {
      const keys = value
        .split(",")
        .map((key) => key.trim())
        .filter(Boolean);
      keys.forEach((key, index) => {
        try {
          decodeKey(key);
        } catch {
          // Which entry, never its value: these are keys.
          context.addIssue({
            code: "custom",
            message: `entry ${index + 1} must be 32 bytes, as 64 hex characters or base64`,
          });
        }
      });
      return keys;
    }),
  /** Where revisions run: `local` (processes on this machine) or `kubernetes` (a cluster). */
  DEPLOYER: z.enum(["local", "kubernetes"]).default("local"),
  /** kubernetes deployer: kubeconfig file; unset = in-cluster service account, else ~/.kube/config. */
  KUBECONFIG: z.string().optional(),
  /** kubernetes deployer: namespace of deployments whose listener_config names none. */
  K8S_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "must be a DNS-1123 label")
    .max(63)
    .default("default"),
  /** kubernetes deployer: image of source revisions (the agent runtime serving the mounted project). */
  K8S_AGENT_RUNTIME_IMAGE: z.string().min(1).default("langgraph-platform/agent-runtime:latest"),
  /** kubernetes deployer: PostgreSQL server (URL, any database) holding each deployment's database, as seen from the cluster; default the control plane's server. */
  K8S_DATABASE_URL: env.postgresUrl().optional(),
  /** kubernetes deployer: Redis for the deployments' run queues, as seen from the cluster; default REDIS_URL. */
  K8S_REDIS_URL: env.redisUrl().optional(),
  /** kubernetes deployer: seconds a rollout may make no progress before the revision is DEPLOY_FAILED. */
  K8S_PROGRESS_DEADLINE_SECONDS: z.coerce.number().int().min(10).max(3600).default(600),
  /** local deployer: PostgreSQL server (URL, any database) holding each deployment's database; default the control plane's server. */
  DEPLOYMENTS_DATABASE_URL: env.postgresUrl().optional(),
  /** local deployer: where revisions are checked out and built; default `.data/deployments` in the repository. */
  DEPLOYMENTS_DIR: z.string().min(1).optional(),
  /** Where uploaded source tarballs are kept (langgraph deploy); default `.data/uploads` in the repository. */
  UPLOADS_DIR: z.string().min(1).optional(),
  /** The largest source upload accepted, in bytes (the official CLI sends at most 200 MB). */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(200 * 1024 * 1024),
  /** Keep uploads in this S3 (or S3-compatible) bucket instead of UPLOADS_DIR; credentials from the AWS environment (AWS_ACCESS_KEY_ID...). */
  UPLOADS_S3_BUCKET: z.string().min(3).max(63).optional(),
  /** Key prefix of uploads in the bucket. */
  UPLOADS_S3_PREFIX: z.string().default("lgp-uploads/"),
  /** An S3-compatible endpoint (MinIO, Ceph, R2...), addressed path-style; unset: AWS. */
  UPLOADS_S3_ENDPOINT: z.url().optional(),
  /** The bucket's region. */
  UPLOADS_S3_REGION: z.string().min(1).default("us-east-1"),
  /** Seconds an upload URL stays valid. */
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
  /** The container registry `langgraph deploy` pushes to, as image references name it: host[:port][/path]. Unset: push tokens are a 501. */
  REGISTRY_URL: z
    .string()
    .transform((value) => value.replace(/^[a-z]+:\/\//i, "").replace(/\/+$/, ""))
    .pipe(z.string().regex(/^[a-z0-9.-]+(:[0-9]+)?(\/[a-z0-9._-]+)*$/, "must be host[:port][/path], lower case"))
    .optional(),
  /** PEM private key (EC P-256/P-384 or RSA) signing registry tokens; its certificate is the registry's `auth.token.rootcertbundle`. */
  REGISTRY_TOKEN_KEY_FILE: z.string().min(1).optional(),
  /** The registry's `auth.token.service`. */
  REGISTRY_SERVICE: z.string().min(1).default("lgp-registry"),
  /** The registry's `auth.token.issuer`. */
  REGISTRY_TOKEN_ISSUER: z.string().min(1).default("lgp-control-plane"),
  /** Seconds a push token (what `langgraph deploy` logs in to the registry with) stays valid. */
  REGISTRY_PUSH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** local deployer: seconds an agent runtime may take to answer /ok (and an external_docker URL). */
  LOCAL_DEPLOY_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
  /** Revisions one control plane drives at the same time. */
  RECONCILER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** How often the reconciler queues lost work again and (local deployer) restarts dead runtimes. */
  RECONCILER_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Hours a deployment's deploy log lines (its runtimes' output) are kept. */
  RUNTIME_LOG_RETENTION_HOURS: z.coerce.number().int().min(1).max(87_600).default(168),
  /** Deploy log lines kept per deployment (its newest); older ones are deleted. */
  RUNTIME_LOG_MAX_LINES: z.coerce.number().int().min(100).max(100_000_000).default(100_000),
  /** How long an `Idempotency-Key` sent on a create is kept (per tenant): a repeat within it answers the first result. */
  IDEMPOTENCY_KEY_TTL_SECONDS: idempotencyKeyTtlSeconds(),
  /** How long a repeat of an in-flight create (same Idempotency-Key) waits for its first answer before a 409 with Retry-After. */
  IDEMPOTENCY_WAIT_MS: idempotencyWaitMs(),
  /** Requests per minute of one tenant (all its keys together); 0 turns the limit off. */
  RATE_LIMIT_REQUESTS_PER_MINUTE: z.coerce.number().int().min(0).default(3000),
  /** Requests per minute of one tenant that may start a build (deployment create, patch, redeploy); 0: they count as requests. */
  RATE_LIMIT_DEPLOYS_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  /** Requests refused 401 per minute from one client address (guessing API keys); past it the address gets 429s until its window ends; 0 turns it off. */
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  /** Reverse proxies whose X-Forwarded-For gives the client's address: a hop count or their addresses/CIDRs; unset, the socket's address. */
  TRUST_PROXY: env.trustProxy(),
});

export type ControlPlaneConfig = z.infer<typeof controlPlaneEnv> & {
  PUBLIC_URL: string;
  FRONTEND_CALLBACK_URL: string;
};

/** The console's OAuth callback page (packages/console), the default frontend callback while it is served. */
export const CONSOLE_CALLBACK_PATH = "/console/oauth/callback";

export function loadControlPlaneConfig(source: NodeJS.ProcessEnv = process.env): ControlPlaneConfig {
  const config = loadConfig(
    controlPlaneEnv
      .refine((value) => !value.REGISTRY_URL || value.REGISTRY_TOKEN_KEY_FILE, {
        path: ["REGISTRY_TOKEN_KEY_FILE"],
        message: "is required with REGISTRY_URL (the key the registry's tokens are signed with)",
      })
      .refine((value) => !value.LOCAL_RUNTIME_URL === !value.LOCAL_RUNTIME_API_KEY, {
        path: ["LOCAL_RUNTIME_API_KEY"],
        message: "LOCAL_RUNTIME_URL and LOCAL_RUNTIME_API_KEY go together",
      })
      .refine((value) => !value.LOCAL_RUNTIME_URL || value.BOOTSTRAP_API_KEY, {
        path: ["BOOTSTRAP_API_KEY"],
        message: "is required with LOCAL_RUNTIME_URL (the local runtime belongs to the bootstrap tenant)",
      }),
    source,
  );
  const publicUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  // The console's page shows the outcome to a signed-in user; /auth/done is the plain one.
  const callbackPath = config.CONSOLE_ENABLED ? CONSOLE_CALLBACK_PATH : "/auth/done";
  return {
    ...config,
    PUBLIC_URL: publicUrl,
    FRONTEND_CALLBACK_URL: config.FRONTEND_CALLBACK_URL ?? `${publicUrl.replace(/\/+$/, "")}${callbackPath}`,
  };
}
