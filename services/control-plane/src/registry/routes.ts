import { Router } from "express";
import type { RegistryService } from "./service";

/** POST /v2/deployments/{id}/push-token, and the registry's token endpoint (GET /registry/token). */
export function registryRouter(service: RegistryService): Router {
  const router = Router();

  router.post("/v2/deployments/:deployment_id/push-token", async (req, res) => {
    res.json(await service.pushToken(req.tenantId, req.params.deployment_id));
  });

  router.get("/registry/token", async (req, res) => {
    const { service: name, scope } = req.query as { service?: string; scope?: string | string[] };
    // A client may ask for several scopes: `scope=a&scope=b`, or one parameter holding them space-separated.
    const scopes = (Array.isArray(scope) ? scope : scope ? [scope] : []).flatMap((value) => value.split(" "));
    res.set("Cache-Control", "no-store").json(await service.issue(req.get("authorization"), name, scopes));
  });

  return router;
}
