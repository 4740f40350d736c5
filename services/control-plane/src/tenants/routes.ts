import { Router } from "express";
import type { TenantService } from "./service";

/** Thin handler: the auth middleware has resolved the X-Api-Key to req.tenantId. */
export function tenantsRouter(service: TenantService): Router {
  const router = Router();

  router.get("/v2/tenant", async (req, res) => {
    res.json(await service.get(req.tenantId));
  });

  return router;
}
