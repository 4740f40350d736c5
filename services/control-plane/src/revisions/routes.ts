import { Router, type Request } from "express";
import type { ControlPlane } from "@lgp/contracts";
import type { LogFilter, LogKind } from "./repository";
import type { RevisionListQuery, RevisionService } from "./service";

type LogQuery = ControlPlane.components["schemas"]["LogQuery"];

function date(value: string | null | undefined): Date | null {
  return value ? new Date(value) : null;
}

function logFilter(kind: LogKind, query: LogQuery): LogFilter {
  return {
    kind,
    limit: query.limit ?? 100,
    offset: query.offset ?? 0,
    order: query.order ?? "asc",
    level: query.level ?? null,
    query: query.query ?? null,
    startTime: date(query.start_time),
    endTime: date(query.end_time),
  };
}

/** Thin handlers for revisions and their logs. */
export function revisionsRouter(service: RevisionService): Router {
  const router = Router();

  router.get("/v2/deployments/:deployment_id/revisions", async (req, res) => {
    res.json(await service.list(req.tenantId, req.params.deployment_id, req.query as RevisionListQuery));
  });

  router.get("/v2/deployments/:deployment_id/revisions/:revision_id", async (req, res) => {
    res.json(await service.get(req.tenantId, req.params.deployment_id, req.params.revision_id));
  });

  router.post("/v2/deployments/:deployment_id/revisions/:revision_id/redeploy", async (req, res) => {
    res.json(await service.redeploy(req.tenantId, req.params.deployment_id, req.params.revision_id));
  });

  router.get("/v2/deployments/:deployment_id/revisions/:revision_id/logs/:log_type", async (req, res) => {
    const filter = logFilter(req.params.log_type as LogKind, req.query as unknown as LogQuery);
    res.json(await service.logs(req.tenantId, req.params.deployment_id, req.params.revision_id, filter));
  });

  // The official CLI's form: POST with the filter in the body; `project` is the deployment.
  for (const kind of ["build", "deploy"] as const) {
    router.post(`/v1/projects/:project_id/revisions/:revision_id/${kind}_logs`, async (req: Request, res) => {
      const filter = logFilter(kind, (req.body ?? {}) as LogQuery);
      res.json(await service.logs(req.tenantId, String(req.params.project_id), String(req.params.revision_id), filter));
    });
  }

  return router;
}
