// What the HTTP layer needs, built once in main.ts (or by a test). A module of its own: app.ts
// mounts the capabilities' routers, and each router takes these, so neither imports the other.
import type { Logger, ServiceMetrics } from "@lgp/server-kit";
import type { ControlPlaneConfig } from "./config";
import type { Db } from "./db";
import type { LocalRuntimeEntry } from "./local-runtime";
import type { ReconcileQueue } from "./queue";

export interface ControlPlaneDeps {
  config: ControlPlaneConfig;
  db: Db;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Where the API queues revision and deletion jobs for the reconciler. */
  reconcileQueue?: ReconcileQueue;
  /** The agent runtime started beside this control plane, once registered (npm start). */
  localRuntime?: () => LocalRuntimeEntry | undefined;
}
