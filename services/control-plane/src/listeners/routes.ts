import { Router } from "express";
import type { ListenerCreate, ListenerPatch, ListListenersQuery } from "./model";
import type { ListenerService } from "./service";

/** Thin handlers: the contract validator has checked the input; the service applies the rules. */
export function listenersRouter(service: ListenerService): Router {
  const router = Router();

  router.get("/v2/listeners", async (req, res) => {
    res.json(await service.list(req.tenantId, req.query as unknown as ListListenersQuery));
  });

  router.post("/v2/listeners", async (req, res) => {
    res.status(201).json(await service.create(req.tenantId, req.body as ListenerCreate));
  });

  router.get("/v2/listeners/:listener_id", async (req, res) => {
    res.json(await service.get(req.tenantId, req.params.listener_id));
  });

  router.patch("/v2/listeners/:listener_id", async (req, res) => {
    res.json(await service.update(req.tenantId, req.params.listener_id, req.body as ListenerPatch));
  });

  router.delete("/v2/listeners/:listener_id", async (req, res) => {
    await service.delete(req.tenantId, req.params.listener_id);
    res.status(204).end();
  });

  return router;
}
