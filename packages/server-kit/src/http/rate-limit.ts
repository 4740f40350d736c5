// Rate limits per caller (a tenant, an API key, a user), counted in fixed one-minute windows by
// rate-limiter-flexible: in Redis when the service has it, so every replica counts against the same
// budget (one EVALSHA per request, auto-pipelined), in this process's memory otherwise. A request
// over the budget is a 429 with Retry-After and the IETF RateLimit fields
// (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "requests";q=600;w=60` and
// `RateLimit: "requests";r=0;t=37`). Redis not answering never refuses a request: it passes
// unchecked, counted, and the outage is logged once.
import type { Request, RequestHandler, Response } from "express";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Logger } from "../logger";
import { TooManyRequestsError } from "./errors";
import type { ServiceMetrics } from "./metrics";

/** Every budget is per minute: the window the configuration names. */
const WINDOW_SECONDS = 60;
/** How long a limit check may wait on Redis before the request passes unchecked. */
const REDIS_TIMEOUT_MS = 250;

export interface RateLimitPolicy {
  /** Its name in the RateLimit fields and in the 429's sentence: what is counted ("requests", "runs"). */
  name: string;
  /** The budget of a caller per minute; 0 turns the policy off. */
  perMinute: number;
}

export interface RateLimiterOptions {
  /** Every request of a caller not counted by `costly`. */
  requests: RateLimitPolicy;
  /** A lower budget for expensive creates (runs, builds); each such request counts here instead. */
  costly?: RateLimitPolicy;
  /** Redis shared by every replica; without it the counts live in this process. */
  redisUrl?: string;
  /** Prefix of the Redis keys (`<prefix>:ratelimit:<policy>:<caller>`). */
  keyPrefix: string;
  logger: Logger;
}

/** Who is calling, as the service's authentication established it. */
export interface Caller {
  /** Stable across replicas and never a secret: `tenant:<id>`, `key:<hash prefix>`, `user:<identity>`. */
  id: string;
  /** How the 429 names it: "tenant", "API key", "user". */
  noun: string;
}

/** What a service gives createServiceApp: the limiter and how to read a request. */
export interface RateLimitMount {
  limiter: RateLimiter;
  /** The authenticated caller; `undefined` is not limited (public paths, an open runtime). */
  identify: (req: Request, res: Response) => Caller | undefined;
  /** How many `costly` units the request is (runs a batch creates); 0 or absent: an ordinary request. */
  cost?: (req: Request) => number;
}

interface Budget {
  policy: RateLimitPolicy;
  limiter: RateLimiterAbstract;
  /** RateLimit-Policy's value, the same on every response. */
  field: string;
}

export class RateLimiter {
  private readonly requests?: Budget;
  private readonly costly?: Budget;
  private readonly redis?: Redis;
  private readonly logger: Logger;
  /** Set while Redis fails, so the outage is logged once and its end once. */
  private unchecked = false;

  constructor(options: RateLimiterOptions) {
    this.logger = options.logger;
    if (options.redisUrl && (options.requests.perMinute > 0 || (options.costly?.perMinute ?? 0) > 0)) {
      this.redis = new Redis(options.redisUrl, {
        // A check never queues behind a reconnect: it fails at once and the request passes.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: REDIS_TIMEOUT_MS,
        // Concurrent checks share one write to Redis.
        enableAutoPipelining: true,
      });
      // Failures surface through the checks (logged once there); ioredis would print each one.
      this.redis.on("error", () => {});
    }
    const budget = (policy: RateLimitPolicy | undefined): Budget | undefined => {
      if (!policy || policy.perMinute <= 0) return undefined;
      const common = {
        keyPrefix: `${options.keyPrefix}:ratelimit:${policy.name}`,
        points: policy.perMinute,
        duration: WINDOW_SECONDS,
      };
      const limiter = this.redis
        ? new RateLimiterRedis({
            ...common,
            storeClient: this.redis,
            rejectIfRedisNotReady: true,
            // A caller over its budget stays refused from memory until its window ends: a flood
            // costs no Redis calls (the count in Redis only grows within a window, so nothing changes).
            inMemoryBlockOnConsumed: policy.perMinute + 1,
          })
        : new RateLimiterMemory(common);
      return { policy, limiter, field: `"${policy.name}";q=${policy.perMinute};w=${WINDOW_SECONDS}` };
    };
    this.requests = budget(options.requests);
    this.costly = budget(options.costly);
  }

  /**
   * Waits (up to `timeoutMs`) for Redis to be connected, so the first requests are counted rather
   * than let through; never throws: Redis down at start-up is an outage like any other.
   */
  async ready(timeoutMs = 5_000): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === "ready") return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off("ready", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      redis.once("ready", done);
    });
  }

  /** The middleware createServiceApp mounts after authentication; 429s and unchecked requests are counted in `metrics`. */
  middleware(mount: Omit<RateLimitMount, "limiter">, metrics: ServiceMetrics): RequestHandler {
    const { identify, cost } = mount;
    return (req, res, next) => {
      if (!this.requests && !this.costly) return next();
      const caller = identify(req, res);
      if (!caller) return next();
      const units = cost?.(req) ?? 0;
      // An expensive create counts against its own budget; with that one off, as a request.
      const budget = units > 0 && this.costly ? this.costly : this.requests;
      if (!budget) return next();
      const points = budget === this.costly ? units : 1;
      if (points > budget.policy.perMinute) {
        // More than a whole window's budget at once: no wait would let it through.
        metrics.rateLimited.inc({ policy: budget.policy.name });
        return next(
          new TooManyRequestsError(
            `This request counts ${points} ${budget.policy.name}, more than the ${budget.policy.perMinute} allowed per minute for this ${caller.noun}; send fewer at once`,
            WINDOW_SECONDS,
            { "RateLimit-Policy": budget.field },
          ),
        );
      }
      budget.limiter.consume(caller.id, points).then(
        (result) => {
          this.recovered();
          res.setHeader("RateLimit-Policy", budget.field);
          res.setHeader("RateLimit", limitField(budget, result.remainingPoints, secondsOf(result)));
          next();
        },
        (outcome: unknown) => {
          if (outcome instanceof RateLimiterRes) {
            metrics.rateLimited.inc({ policy: budget.policy.name });
            const seconds = Math.max(1, secondsOf(outcome));
            return next(
              new TooManyRequestsError(
                `Rate limit exceeded: at most ${budget.policy.perMinute} ${budget.policy.name} per minute for this ${caller.noun}; retry in ${seconds} s`,
                seconds,
                { "RateLimit-Policy": budget.field, RateLimit: limitField(budget, 0, seconds) },
              ),
            );
          }
          // The store failed (Redis down or slow): the request passes unchecked.
          metrics.rateLimitUnchecked.inc();
          if (!this.unchecked) {
            this.unchecked = true;
            this.logger.warn(
              { err: outcome },
              "rate limits are not enforced: Redis does not answer; requests pass unchecked until it does",
            );
          }
          next();
        },
      );
    };
  }

  private recovered(): void {
    if (!this.unchecked) return;
    this.unchecked = false;
    this.logger.info("rate limits are enforced again: Redis answers");
  }

  async close(): Promise<void> {
    if (!this.redis) return;
    await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}

/** Whole seconds until the caller's window ends. */
function secondsOf(result: RateLimiterRes): number {
  return Math.max(0, Math.ceil(result.msBeforeNext / 1000));
}

/** The RateLimit field: the budget left in the window and the seconds until it ends. */
function limitField(budget: Budget, remaining: number, seconds: number): string {
  return `"${budget.policy.name}";r=${Math.max(0, remaining ?? 0)};t=${seconds}`;
}
