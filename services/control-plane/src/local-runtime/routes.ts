import { NotFoundError } from "@lgp/server-kit";
import { Router } from "express";
import type { LocalRuntimeEntry } from "./registration";

/** GET /v2/local-runtime: the local runtime and its key, to its tenant only. */
export function localRuntimeRouter(entry: () => LocalRuntimeEntry | undefined): Router {
  const router = Router();
  router.get("/v2/local-runtime", (req, res) => {
    const local = entry();
    // Another tenant learns nothing, not even that there is one.
    if (!local || local.tenantId !== req.tenantId) throw new NotFoundError("This control plane runs no local runtime");
    res
      .set("Cache-Control", "no-store")
      .json({ deployment_id: local.deploymentId, url: local.url, api_key: local.apiKey });
  });
  return router;
}
