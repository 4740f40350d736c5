import { Router } from "express";
import { authOf } from "../auth";
import { flag } from "../common/flags";
import type { ThreadService } from "./service";

export function threadsRouter(threads: ThreadService): Router {
  const router = Router();
  router.post("/threads", async (req, res) => {
    res.json(await threads.create(req.body ?? {}, authOf(res)));
  });
  router.post("/threads/search", async (req, res) => {
    const { threads: items, total, next } = await threads.search(req.body ?? {}, authOf(res));
    res.setHeader("X-Pagination-Total", String(total));
    if (next !== null) res.setHeader("X-Pagination-Next", String(next));
    res.json(items);
  });
  router.post("/threads/prune", async (req, res) => {
    res.json(await threads.prune(req.body.thread_ids, req.body.strategy ?? undefined, authOf(res)));
  });
  router.post("/threads/count", async (req, res) => {
    res.json(await threads.count(req.body ?? {}, authOf(res)));
  });
  router.get("/threads/:thread_id", async (req, res) => {
    res.json(await threads.get(req.params.thread_id, authOf(res)));
  });
  router.patch("/threads/:thread_id", async (req, res) => {
    res.json(await threads.update(req.params.thread_id, req.body?.metadata, req.body?.ttl, authOf(res)));
  });
  router.delete("/threads/:thread_id", async (req, res) => {
    await threads.delete(req.params.thread_id, authOf(res));
    res.status(204).end();
  });
  router.post("/threads/:thread_id/copy", async (req, res) => {
    res.json(await threads.copy(req.params.thread_id, authOf(res)));
  });
  router.get("/threads/:thread_id/state", async (req, res) => {
    res.json(await threads.state(req.params.thread_id, undefined, flag(req.query.subgraphs), authOf(res)));
  });
  router.post("/threads/:thread_id/state", async (req, res) => {
    res.json(await threads.updateState(req.params.thread_id, req.body ?? {}, authOf(res)));
  });
  router.post("/threads/:thread_id/state/checkpoint", async (req, res) => {
    res.json(await threads.state(req.params.thread_id, req.body.checkpoint, req.body.subgraphs === true, authOf(res)));
  });
  router.get("/threads/:thread_id/state/:checkpoint_id", async (req, res) => {
    res.json(
      await threads.state(req.params.thread_id, req.params.checkpoint_id, flag(req.query.subgraphs), authOf(res)),
    );
  });
  router.post("/threads/:thread_id/history", async (req, res) => {
    res.json(await threads.history(req.params.thread_id, req.body ?? {}, authOf(res)));
  });
  router.get("/threads/:thread_id/history", async (req, res) => {
    const limit = Number(req.query.limit ?? 10);
    res.json(
      await threads.history(
        req.params.thread_id,
        { limit, before: req.query.before as string | undefined },
        authOf(res),
      ),
    );
  });
  return router;
}
