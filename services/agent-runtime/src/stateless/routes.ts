import { Router } from "express";
import { idempotencyStarted } from "@lgp/server-kit";
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

  router.post("/runs/batch", async (req, res) => {
    const created = [];
    for (const body of req.body as RunCreate[]) created.push(toRun(await stateless.create(body, runCallerOf(res))));
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
