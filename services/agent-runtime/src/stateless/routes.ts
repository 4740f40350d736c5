import { Router } from "express";
import { HttpError, idempotencyKeep, idempotencyStarted, isTransientError } from "@lgp/server-kit";
import { answerWhenEnded, cancelOnLeave } from "../runs/answers";
import { runCallerOf } from "../http/settings";
import type { RunCreate, RunService } from "../runs/service";
import { toRun } from "../runs/service";
import { sendEventStream } from "../runs/sse";
import type { StatelessRunService } from "./service";

/** POST /runs, /runs/stream, /runs/wait, /runs/batch: runs on a thread of their own. */
export function statelessRouter(stateless: StatelessRunService, runs: RunService): Router {
  const router = Router();

  router.post("/runs", async (req, res) => {
    const run = await stateless.create(req.body as RunCreate, runCallerOf(res));
    res.setHeader("Content-Location", `/threads/${run.thread_id}/runs/${run.run_id}`);
    res.json(toRun(run));
  });

  // All or nothing as far as can be known beforehand: every run is checked before the first is
  // made. A failure after that (Redis or PostgreSQL lost, the auth handler refusing one) leaves the
  // runs made so far: the answer names them, and an Idempotency-Key keeps that answer, so a repeat
  // does not make them twice.
  router.post("/runs/batch", async (req, res) => {
    const bodies = req.body as RunCreate[];
    for (const body of bodies) await runs.creatable(body);
    const created: ReturnType<typeof toRun>[] = [];
    try {
      for (const body of bodies) created.push(toRun(await stateless.create(body, runCallerOf(res))));
    } catch (error) {
      if (created.length === 0) throw error;
      idempotencyKeep(res);
      throw partialBatch(error, created, bodies.length);
    }
    res.json(created);
  });

  router.post("/runs/stream", async (req, res) => {
    const body = req.body as RunCreate;
    const run = await stateless.create(body, runCallerOf(res));
    // A repeat of this request (same Idempotency-Key) joins this run.
    await idempotencyStarted(res, { thread_id: run.thread_id, run_id: run.run_id });
    await sendEventStream(
      req,
      res,
      { threadId: run.thread_id, runId: run.run_id },
      (signal) => runs.events(run, { signal }),
      cancelOnLeave(runs, body, run),
    );
  });

  router.post("/runs/wait", async (req, res) => {
    const body = req.body as RunCreate;
    const run = await stateless.create(body, { needValues: true, ...runCallerOf(res) });
    res.setHeader("Content-Location", `/threads/${run.thread_id}/runs/${run.run_id}`);
    await idempotencyStarted(res, { thread_id: run.thread_id, run_id: run.run_id });
    await answerWhenEnded(res, (signal) => stateless.wait(run, signal), cancelOnLeave(runs, body, run));
  });

  return router;
}

/** A batch that failed after making some runs: the failure's status, and which runs exist. */
function partialBatch(error: unknown, created: { run_id: string }[], size: number): HttpError {
  const status = error instanceof HttpError ? error.status : isTransientError(error) ? 503 : 500;
  const cause =
    error instanceof HttpError && typeof error.detail === "string" ? error.detail : "the server could not create it";
  return new HttpError(
    status,
    `Run ${created.length + 1} of ${size} failed: ${cause}. Runs 1 to ${created.length} were created and are queued ` +
      `(${created.map((run) => run.run_id).join(", ")}); repeating this request with the same Idempotency-Key ` +
      `answers this again without making them twice; send the others in a new request.`,
  );
}
