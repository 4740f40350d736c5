import { Router } from "express";
import type { UploadService } from "./service";

/** POST /v2/deployments/{id}/upload-url and the PUT its URL names. */
export function uploadsRouter(service: UploadService): Router {
  const router = Router();

  router.post("/v2/deployments/:deployment_id/upload-url", async (req, res) => {
    res.json(await service.uploadUrl(req.tenantId, req.params.deployment_id));
  });

  router.put("/v2/uploads/:token", async (req, res) => {
    const length = req.get("content-length");
    res.json(await service.receive(req.params.token, length === undefined ? undefined : Number(length), req));
  });

  return router;
}
