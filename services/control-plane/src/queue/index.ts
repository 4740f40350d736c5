import type { Logger } from "@lgp/server-kit";
import { BullReconcileQueue } from "./bullmq";
import { InProcessQueue } from "./in-process";
import type { ReconcileQueue } from "./queue";

export * from "./queue";
export { BullReconcileQueue, InProcessQueue };

/** BullMQ when a Redis URL is configured, the in-process queue otherwise. */
export function createReconcileQueue(
  options: { redisUrl?: string; name?: string; prefix?: string },
  logger: Logger,
): ReconcileQueue {
  if (options.redisUrl)
    return new BullReconcileQueue({ redisUrl: options.redisUrl, name: options.name, prefix: options.prefix }, logger);
  return new InProcessQueue(logger);
}
