import { Router } from "express";
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
    await sendEventStream(
      req,
      res,
      { threadId: run.thread_id, runId: run.run_id },
      (signal) => runs.events(run, { signal }),
      body.on_disconnect === "cancel"
        ? () => void runs.cancel(run.thread_id, run.run_id).catch(() => undefined)
        : undefined,
    );
  });

  router.post("/runs/wait", async (req, res) => {
    const body = req.body as RunCreate;
    const run = await stateless.create(body, { needValues: true, ...runCallerOf(res) });
    res.setHeader("Content-Location", `/threads/${run.thread_id}/runs/${run.run_id}`);
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableEnded) {
        controller.abort();
        if (body.on_disconnect === "cancel") void runs.cancel(run.thread_id, run.run_id).catch(() => undefined);
      }
    });
    const outcome = await stateless.wait(run, controller.signal);
    if (controller.signal.aborted) return;
    res.json(outcome.error ? { ...(outcome.values as object), __error__: outcome.error } : outcome.values);
  });

  return router;
}
