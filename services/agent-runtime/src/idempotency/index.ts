// Idempotent creates in the runtime: server-kit's mechanism (packages/server-kit/src/idempotency)
// on every create route, with keys kept per caller in the deployment's database, and repeats of
// a streamed or waited run joining the run their first request created.
import type { Request, RequestHandler, Response } from "express";
import { Router } from "express";
import type pg from "pg";
import { idempotentCreates, PostgresIdempotencyStorage, type IdempotencyStorage, type Logger } from "@lgp/server-kit";
import { apiKeyIdOf, authOf } from "../auth";
import { answerWhenEnded, cancelOnLeave } from "../runs/answers";
import type { RunService } from "../runs/service";
import { sendEventStream } from "../runs/sse";
import type { StatelessRunService } from "../stateless";

/** The deployment's `idempotency_keys` table (prisma/agent-runtime), through the runtime's pool. */
export function runtimeIdempotencyStorage(pool: pg.Pool): PostgresIdempotencyStorage {
  return new PostgresIdempotencyStorage((text, values) => pool.query(text, values).then((result) => result.rows));
}

/**
 * Whose keys these are: the deployment key the request came with (the start of its hash), else
 * the custom-auth user, else nobody in particular (an open runtime has one caller).
 */
export function callerScope(_req: Request, res: Response): string {
  const keyId = apiKeyIdOf(res);
  if (keyId) return `key:${keyId}`;
  const identity = authOf(res)?.user.identity;
  return identity ? `user:${identity}` : "anonymous";
}

export interface IdempotentRoutesOptions {
  storage: IdempotencyStorage;
  ttlSeconds: number;
  logger: Logger;
  runs: RunService;
  stateless: StatelessRunService;
  heartbeatMs: number;
  /** Bounded wait of a repeat for its first request's answer (IDEMPOTENCY_WAIT_MS). */
  waitMs?: number;
}

/**
 * The guard in front of every create: mounted before the routers, it looks at nothing but the
 * header unless a request carries an `Idempotency-Key` (then it matches the create routes below).
 * A repeated stream answers by streaming the first request's run from its first event (what a
 * client that joined it with GET /threads/{id}/runs/{run_id}/stream would see); a repeated wait
 * waits for that run; everything else answers the first answer again.
 */
export function idempotentRoutes(options: IdempotentRoutesOptions): RequestHandler {
  const { runs, stateless, heartbeatMs } = options;
  const idempotent = idempotentCreates({
    storage: options.storage,
    ttlSeconds: options.ttlSeconds,
    scopeOf: callerScope,
    logger: options.logger,
    waitMs: options.waitMs,
  });
  const json = idempotent();

  /** A repeated stream: the first request's run (`load`ed by its ids) streamed from its first event. */
  const streamRun = (
    load: (ids: { thread_id: string; run_id: string }, res: Response) => Promise<Parameters<RunService["events"]>[0]>,
  ) =>
    idempotent({
      resume: async ({ thread_id, run_id }, req, res) => {
        const ids = { thread_id, run_id };
        const run = await load(ids, res);
        await sendEventStream(
          req,
          res,
          { threadId: ids.thread_id, runId: ids.run_id },
          (signal) => runs.events(run, { signal }),
          { heartbeatMs, onDisconnect: cancelOnLeave(runs, req.body, ids) },
        );
      },
    });
  const streamThreadRun = streamRun(({ thread_id, run_id }, res) => runs.get(thread_id, run_id, authOf(res)));
  const waitThreadRun = idempotent({
    resume: async ({ thread_id, run_id }, req, res) => {
      res.setHeader("Content-Location", `/threads/${thread_id}/runs/${run_id}`);
      await answerWhenEnded(
        res,
        (signal) => runs.join(thread_id, run_id, signal, authOf(res)),
        cancelOnLeave(runs, req.body, { thread_id, run_id }),
      );
    },
  });
  // A stateless run's row goes with its thread once it ends: joined by its id and event log.
  const streamStatelessRun = streamRun(({ run_id }) => runs.eventSource(run_id));
  const waitStatelessRun = idempotent({
    resume: async ({ thread_id, run_id }, req, res) => {
      res.setHeader("Content-Location", `/threads/${thread_id}/runs/${run_id}`);
      const run = await runs.eventSource(run_id);
      await answerWhenEnded(
        res,
        (signal) => stateless.wait(run, signal),
        cancelOnLeave(runs, req.body, { thread_id, run_id }),
      );
    },
  });

  const router = Router();
  router.post("/assistants", json);
  router.post("/threads", json);
  router.put("/store/items", json);
  router.post("/threads/:thread_id/runs", json);
  router.post("/threads/:thread_id/runs/stream", streamThreadRun);
  router.post("/threads/:thread_id/runs/wait", waitThreadRun);
  router.post("/threads/:thread_id/runs/crons", json);
  router.post("/runs", json);
  router.post("/runs/batch", json);
  router.post("/runs/stream", streamStatelessRun);
  router.post("/runs/wait", waitStatelessRun);
  router.post("/runs/crons", json);
  // The one cost of a request without the header: this lookup.
  return (req, res, next) => (req.headers["idempotency-key"] === undefined ? next() : router(req, res, next));
}
