import { Router } from "express";
import { flag } from "../common/flags";
import type { ThreadService } from "./service";

export function threadsRouter(threads: ThreadService): Router {
  const router = Router();
  router.post("/threads", async (req, res) => {
    res.json(await threads.create(req.body ?? {}));
  });
  router.post("/threads/search", async (req, res) => {
    const { threads: items, total, next } = await threads.search(req.body ?? {});
    res.setHeader("X-Pagination-Total", String(total));
    if (next !== null) res.setHeader("X-Pagination-Next", String(next));
    res.json(items);
  });
  router.post("/threads/prune", async (req, res) => {
    res.json(await threads.prune(req.body.thread_ids, req.body.strategy ?? undefined));
  });
  router.post("/threads/count", async (req, res) => {
    res.json(await threads.count(req.body ?? {}));
  });
  router.get("/threads/:thread_id", async (req, res) => {
    res.json(await threads.get(req.params.thread_id));
  });
  router.patch("/threads/:thread_id", async (req, res) => {
    res.json(await threads.update(req.params.thread_id, req.body?.metadata, req.body?.ttl));
  });
  router.delete("/threads/:thread_id", async (req, res) => {
    await threads.delete(req.params.thread_id);
    res.status(204).end();
  });
  router.post("/threads/:thread_id/copy", async (req, res) => {
    res.json(await threads.copy(req.params.thread_id));
  });
  router.get("/threads/:thread_id/state", async (req, res) => {
    res.json(await threads.state(req.params.thread_id, undefined, flag(req.query.subgraphs)));
  });
  router.post("/threads/:thread_id/state", async (req, res) => {
    res.json(await threads.updateState(req.params.thread_id, req.body ?? {}));
  });
  router.post("/threads/:thread_id/state/checkpoint", async (req, res) => {
    res.json(await threads.state(req.params.thread_id, req.body.checkpoint, req.body.subgraphs === true));
  });
  router.get("/threads/:thread_id/state/:checkpoint_id", async (req, res) => {
    res.json(await threads.state(req.params.thread_id, req.params.checkpoint_id, flag(req.query.subgraphs)));
  });
  router.post("/threads/:thread_id/history", async (req, res) => {
    res.json(await threads.history(req.params.thread_id, req.body ?? {}));
  });
  router.get("/threads/:thread_id/history", async (req, res) => {
    const limit = Number(req.query.limit ?? 10);
    res.json(await threads.history(req.params.thread_id, { limit, before: req.query.before as string | undefined }));
  });
  return router;
}
