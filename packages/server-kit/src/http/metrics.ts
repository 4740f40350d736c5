import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface ServiceMetrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  httpErrors: Counter<"status">;
  /** 401 and 403 answers: a rising count is a client with a stale key or someone probing. */
  authRefusals: Counter<"status">;
  /** 429s of the rate limiter, by policy ("requests", "runs", "deploys"). */
  rateLimited: Counter<"policy">;
  /** Requests let through unchecked because the limiter's Redis did not answer. */
  rateLimitUnchecked: Counter;
}

/** One registry per service instance (tests run several apps in one process). */
export function createMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, route template and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const httpErrors = new Counter({
    name: "http_server_errors_total",
    help: "Responses with a 5xx status",
    labelNames: ["status"] as const,
    registers: [registry],
  });
  const authRefusals = new Counter({
    name: "http_auth_refusals_total",
    help: "Requests refused by authentication (401) or authorization (403)",
    labelNames: ["status"] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: "http_rate_limited_total",
    help: "Requests refused with a 429 because the caller (tenant, API key, user) was over its budget, by policy",
    labelNames: ["policy"] as const,
    registers: [registry],
  });
  const rateLimitUnchecked = new Counter({
    name: "http_rate_limit_unchecked_total",
    help: "Requests let through without a rate limit check because Redis did not answer (the limiter fails open)",
    registers: [registry],
  });
  // Served at 0 from the start (both services have this budget): a dashboard shows none refused, not no data.
  rateLimited.labels({ policy: "requests" }).inc(0);
  return { registry, httpDuration, httpErrors, authRefusals, rateLimited, rateLimitUnchecked };
}
