// Closing BullMQ's workers and queues (runs, webhooks, cron ticks) without waiting on Redis forever.
import type { Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "@lgp/server-kit";
import type { InFlight } from "../common/in-flight";

/** How long BullMQ may take to close once the jobs its workers ran in this process are done. */
export const BULLMQ_CLOSE_GRACE_MS = 3_000;

/**
 * Closes workers, then their queue, then the connections they were given (BullMQ leaves those
 * open). BullMQ's worker close waits for its jobs, then for its own connections; with Redis down
 * its fetch loop waits for a reconnection that may never come (taskforcesh/bullmq#4656), and a
 * shutdown with it. So the jobs run here are waited for in full (runs end, or are handed back, as
 * before); BullMQ then has `graceMs` for the rest. Past that the connections are closed anyway:
 * BullMQ's commands still waiting fail, and a job it could not mark done is found stalled later,
 * its run already ended.
 */
export async function closeBullmq(parts: {
  workers: (Worker | undefined)[];
  queue: Queue;
  connections: Redis[];
  /** The jobs its workers are running in this process, waited for in full. */
  jobs: InFlight;
  logger: Logger;
  what: string;
  graceMs?: number;
}): Promise<void> {
  const { workers, queue, connections, jobs, logger, what, graceMs = BULLMQ_CLOSE_GRACE_MS } = parts;
  const closing = (async () => {
    await Promise.all(workers.map((worker) => worker?.close()));
    await queue.close();
  })();
  closing.catch((error) => logger.warn({ err: error }, `error while closing the ${what}`));
  await jobs.settled();
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    closing.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
  ]);
  clearTimeout(timer);
  if (!closed) {
    logger.warn(
      { graceMs },
      `the ${what} did not close within ${graceMs} ms of its last job (is Redis reachable?); its connections are cut`,
    );
  }
  for (const connection of connections) connection.disconnect();
}
