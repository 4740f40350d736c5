// Rate limits per caller (a tenant, an API key, a user), counted in fixed one-minute windows by
// rate-limiter-flexible: in Redis when the service has it, so every replica counts against the same
// budget (one EVALSHA per request, auto-pipelined), in this process's memory otherwise. A request
// over the budget is a 429 with Retry-After and the IETF RateLimit fields
// (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "requests";q=600;w=60` and
// `RateLimit: "requests";r=0;t=37`). Redis not answering never refuses a request: it passes
// unchecked, counted, and the outage is logged once. Requests that fail authentication (401s) have
// a budget per client address (guessing keys), checked before authentication: see authFailureGuard.
import type { Request, RequestHandler, Response } from "express";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Logger } from "../logger";
import { TooManyRequestsError } from "./errors";
import { SERVICE_PATHS } from "./service-paths";
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
  /**
   * Requests answered 401 per client address (`req.ip`: the socket's address unless the app trusts
   * a proxy); an address past it is refused everything but the probes, /metrics and the docs until
   * its window ends.
   */
  authFailures?: RateLimitPolicy;
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

/** Addresses refused at most: past it, the expired ones go, then the oldest (a flood of addresses costs bounded memory). */
const MAX_BLOCKED_ADDRESSES = 10_000;

export class RateLimiter {
  private readonly requests?: Budget;
  private readonly costly?: Budget;
  private readonly authFailures?: Budget;
  /** Addresses past their authFailures budget, until when (ms): refused from memory, no store call. */
  private readonly blocked = new Map<string, number>();
  private readonly redis?: Redis;
  private readonly logger: Logger;
  /** Set while Redis fails, so the outage is logged once and its end once. */
  private unchecked = false;

  constructor(options: RateLimiterOptions) {
    this.logger = options.logger;
    const policies = [options.requests, options.costly, options.authFailures];
    if (options.redisUrl && policies.some((policy) => (policy?.perMinute ?? 0) > 0)) {
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
    this.authFailures = budget(options.authFailures);
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
          this.storeFailed(outcome);
          next();
        },
      );
    };
  }

  /**
   * The middleware createServiceApp mounts before authentication (after CORS, so a browser can read
   * the 429): an address whose requests failed authentication `authFailures.perMinute` times in its
   * window is refused with 429 until the window ends. Each 401 answered is counted once it is sent;
   * the refusal is decided in memory (no store call per request). With Redis the count is shared:
   * an address is blocked on a replica once one of its 401s there finds the shared budget spent.
   */
  authFailureGuard(metrics: ServiceMetrics): RequestHandler {
    const budget = this.authFailures;
    return (req, res, next) => {
      if (!budget || req.method === "OPTIONS" || SERVICE_PATHS.test(req.path)) return next();
      const address = req.ip ?? req.socket.remoteAddress ?? "unknown";
      const until = this.blocked.get(address);
      if (until !== undefined) {
        const seconds = Math.ceil((until - Date.now()) / 1000);
        if (seconds > 0) {
          metrics.rateLimited.inc({ policy: budget.policy.name });
          return next(
            new TooManyRequestsError(
              `Too many requests that failed authentication from this address: at most ${budget.policy.perMinute} per minute; retry in ${seconds} s`,
              seconds,
              { "RateLimit-Policy": budget.field, RateLimit: limitField(budget, 0, seconds) },
            ),
          );
        }
        this.blocked.delete(address);
      }
      res.on("finish", () => {
        if (res.statusCode === 401) this.countFailure(budget, address, metrics);
      });
      next();
    };
  }

  private countFailure(budget: Budget, address: string, metrics: ServiceMetrics): void {
    budget.limiter.consume(address).then(
      (result) => {
        this.recovered();
        if (result.remainingPoints <= 0) this.block(address, result);
      },
      (outcome: unknown) => {
        if (outcome instanceof RateLimiterRes) return this.block(address, outcome);
        metrics.rateLimitUnchecked.inc();
        this.storeFailed(outcome);
      },
    );
  }

  private block(address: string, result: RateLimiterRes): void {
    if (this.blocked.size >= MAX_BLOCKED_ADDRESSES) {
      const now = Date.now();
      for (const [known, until] of this.blocked) if (until <= now) this.blocked.delete(known);
      if (this.blocked.size >= MAX_BLOCKED_ADDRESSES) this.blocked.delete(this.blocked.keys().next().value!);
    }
    this.blocked.delete(address);
    this.blocked.set(address, Date.now() + Math.max(1000, result.msBeforeNext));
  }

  private storeFailed(error: unknown): void {
    if (this.unchecked) return;
    this.unchecked = true;
    this.logger.warn(
      { err: error },
      "rate limits are not enforced: Redis does not answer; requests pass unchecked until it does",
    );
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
