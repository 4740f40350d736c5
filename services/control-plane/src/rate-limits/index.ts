// The control plane's rate limits: per tenant (whichever of its keys is used), after the API-key
// middleware has resolved it. Requests that may start a build (a deployment created, patched or
// redeployed) have a budget of their own; public operations (the OAuth callback) are not limited.
// Requests refused 401 have a budget per client address (TRUST_PROXY says which address that is).
import type { Request } from "express";
import { RateLimiter, type Logger, type RateLimitMount } from "@lgp/server-kit";
import type { ControlPlaneConfig } from "../config";

/** Its Redis keys: `lgp-control-plane:ratelimit:<policy>:tenant:<id>`. */
const KEY_PREFIX = "lgp-control-plane";

const DEPLOY = [
  { method: "POST", path: /^\/v2\/deployments\/?$/ },
  { method: "PATCH", path: /^\/v2\/deployments\/[^/]+\/?$/ },
  { method: "POST", path: /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+\/redeploy\/?$/ },
];

/** The limiter the configuration asks for; `shared` counts in REDIS_URL's Redis (main.ts), else in memory. */
export function controlPlaneRateLimiter(
  config: ControlPlaneConfig,
  logger: Logger,
  options: { shared?: boolean } = {},
): RateLimiter {
  return new RateLimiter({
    requests: { name: "requests", perMinute: config.RATE_LIMIT_REQUESTS_PER_MINUTE },
    costly: { name: "deploys", perMinute: config.RATE_LIMIT_DEPLOYS_PER_MINUTE },
    authFailures: { name: "auth_failures", perMinute: config.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE },
    redisUrl: options.shared ? config.REDIS_URL : undefined,
    keyPrefix: KEY_PREFIX,
    logger,
  });
}

export function controlPlaneRateLimits(limiter: RateLimiter): RateLimitMount {
  return {
    limiter,
    identify: (req: Request) => (req.tenantId ? { id: `tenant:${req.tenantId}`, noun: "tenant" } : undefined),
    cost: (req: Request) => (DEPLOY.some((op) => op.method === req.method && op.path.test(req.path)) ? 1 : 0),
  };
}
