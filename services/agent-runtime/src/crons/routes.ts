import { Router } from "express";
import { authOf } from "../auth";
import type { CronCreate, CronSearch, CronService, CronUpdate } from "./service";

/** /threads/{id}/runs/crons and /runs/crons/*: the contract validator has checked every body. */
export function cronsRouter(crons: CronService): Router {
  const router = Router();

  router.post("/threads/:thread_id/runs/crons", async (req, res) => {
    res.json(await crons.create(req.params.thread_id, req.body as CronCreate, authOf(res)));
  });

  router.post("/runs/crons", async (req, res) => {
    res.json(await crons.create(null, req.body as CronCreate, authOf(res)));
  });

  router.post("/runs/crons/search", async (req, res) => {
    res.json(await crons.search((req.body ?? {}) as CronSearch, authOf(res)));
  });

  router.post("/runs/crons/count", async (req, res) => {
    res.json(await crons.count(req.body ?? {}, authOf(res)));
  });

  router.get("/runs/crons/:cron_id", async (req, res) => {
    res.json(await crons.get(req.params.cron_id, authOf(res)));
  });

  router.patch("/runs/crons/:cron_id", async (req, res) => {
    res.json(await crons.update(req.params.cron_id, req.body as CronUpdate, authOf(res)));
  });

  router.delete("/runs/crons/:cron_id", async (req, res) => {
    await crons.delete(req.params.cron_id, authOf(res));
    res.status(204).end();
  });

  return router;
}
