import { Router } from "express";
import type { DeploymentCreate, DeploymentPatch, ListDeploymentsQuery } from "./model";
import type { DeploymentService } from "./service";

/** Thin handlers: the contract validator has checked the input; the service applies the rules. */
export function deploymentsRouter(service: DeploymentService): Router {
  const router = Router();

  router.get("/v2/deployments", async (req, res) => {
    res.json(await service.list(req.tenantId, req.query as unknown as ListDeploymentsQuery));
  });

  router.post("/v2/deployments", async (req, res) => {
    res.status(201).json(await service.create(req.tenantId, req.body as DeploymentCreate));
  });

  router.delete("/v2/deployments", async (req, res) => {
    const { complete, body } = await service.deleteMany(req.tenantId, String(req.query.deployment_ids));
    res.status(complete ? 200 : 207).json(body);
  });

  router.get("/v2/deployments/:deployment_id", async (req, res) => {
    res.json(await service.get(req.tenantId, req.params.deployment_id));
  });

  router.patch("/v2/deployments/:deployment_id", async (req, res) => {
    res.json(await service.update(req.tenantId, req.params.deployment_id, req.body as DeploymentPatch));
  });

  router.delete("/v2/deployments/:deployment_id", async (req, res) => {
    await service.delete(req.tenantId, req.params.deployment_id);
    res.status(204).end();
  });

  return router;
}
