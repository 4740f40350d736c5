// What the HTTP layer needs, built once in main.ts (or by a test). A module of its own: app.ts
// mounts the capabilities' routers, and each router takes these, so neither imports the other.
import type { Logger, RateLimiter, ServiceMetrics } from "@lgp/server-kit";
import type { ControlPlaneConfig } from "./config";
import type { Db } from "./db";
import type { LocalRuntimeEntry } from "./local-runtime";
import type { ReconcileQueue } from "./queue";
import type { ApiKeyResolver } from "./tenants/key-cache";

export interface ControlPlaneDeps {
  config: ControlPlaneConfig;
  db: Db;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Per-tenant rate limits; main.ts shares them through REDIS_URL. Absent: counted in memory, as configured. */
  rateLimiter?: RateLimiter;
  /** Where the API queues revision and deletion jobs for the reconciler. */
  reconcileQueue?: ReconcileQueue;
  /** The agent runtime started beside this control plane, once registered (npm start). */
  localRuntime?: () => LocalRuntimeEntry | undefined;
  /** How X-Api-Key is resolved: main.ts passes the cache kept true by PostgreSQL's announcements; absent, every request asks the database. */
  apiKeys?: ApiKeyResolver;
}
