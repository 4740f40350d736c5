// The runtime's rate limits: per deployment key (the hash it matched) or per custom-auth user, once
// authentication has said which. Run creates of the run API (on a thread or stateless; create,
// stream, wait, batch) have a budget of their own, a batch counting each of its runs. An open
// runtime (no keys, no custom auth) has no callers to tell apart and is not limited. Requests
// refused 401 have a budget per client address (TRUST_PROXY says which address that is).
import type { Request, Response } from "express";
import { RateLimiter, type Logger, type RateLimitMount } from "@lgp/server-kit";
import { apiKeyIdOf, authOf } from "../auth";
import type { AgentRuntimeConfig } from "../config";

const RUN_CREATE = /^\/(threads\/[^/]+\/)?runs(\/stream|\/wait|\/batch)?\/?$/;

/** The limiter the configuration asks for; `shared` counts in REDIS_URL's Redis (main.ts), else in memory. */
export function runtimeRateLimiter(
  config: AgentRuntimeConfig,
  logger: Logger,
  options: { shared?: boolean } = {},
): RateLimiter {
  return new RateLimiter({
    requests: { name: "requests", perMinute: config.RATE_LIMIT_REQUESTS_PER_MINUTE },
    costly: { name: "runs", perMinute: config.RATE_LIMIT_RUNS_PER_MINUTE },
    authFailures: { name: "auth_failures", perMinute: config.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE },
    redisUrl: options.shared ? config.REDIS_URL : undefined,
    keyPrefix: config.REDIS_PREFIX,
    logger,
  });
}

export function runtimeRateLimits(limiter: RateLimiter): RateLimitMount {
  return {
    limiter,
    identify: (_req: Request, res: Response) => {
      const keyId = apiKeyIdOf(res);
      if (keyId) return { id: `key:${keyId}`, noun: "API key" };
      const identity = authOf(res)?.user.identity;
      return identity ? { id: `user:${identity}`, noun: "user" } : undefined;
    },
    cost: (req: Request) => {
      const match = req.method === "POST" ? RUN_CREATE.exec(req.path) : null;
      if (!match) return 0;
      return match[2] === "/batch" && Array.isArray(req.body) ? Math.max(1, req.body.length) : 1;
    },
  };
}
