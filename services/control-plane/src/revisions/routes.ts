import { Router, type Request } from "express";
import type { ControlPlane } from "@lgp/contracts";
import { invalid } from "@lgp/server-kit";
import { presentCliLogPage } from "./presenter";
import type { LogFilter, LogKind, LogLevel } from "./repository";
import type { RevisionListQuery, RevisionService } from "./service";

type LogQuery = ControlPlane.components["schemas"]["LogQuery"];

/**
 * The contract's date-time format admits a few strings Date cannot read (a leap second such as
 * 23:59:60): those are a 422 here, not a failed query.
 */
function date(value: string | null | undefined, loc: (string | number)[]): Date | null {
  if (!value) return null;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw invalid(loc, "not a date-time this server can read", "format");
  return parsed;
}

/** A level filter in any case; `warning` (the CLI's word) is `warn`, `critical` is `error`. */
function levelOf(value: string | null | undefined): LogLevel | null {
  if (!value) return null;
  const level = value.toLowerCase();
  return (level === "warning" ? "warn" : level === "critical" ? "error" : level) as LogLevel;
}

function logFilter(kind: LogKind, query: LogQuery, where: "query" | "body"): LogFilter {
  return {
    kind,
    limit: query.limit ?? 100,
    offset: query.offset ?? 0,
    order: query.order ?? "asc",
    level: levelOf(query.level),
    query: query.query ?? null,
    startTime: date(query.start_time, [where, "start_time"]),
    endTime: date(query.end_time, [where, "end_time"]),
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

  router.post("/v2/deployments/:deployment_id/api-key", async (req, res) => {
    res.json(await service.rotateKey(req.tenantId, req.params.deployment_id));
  });

  router.post("/v2/deployments/:deployment_id/revisions/:revision_id/redeploy", async (req, res) => {
    res.json(await service.redeploy(req.tenantId, req.params.deployment_id, req.params.revision_id));
  });

  router.get("/v2/deployments/:deployment_id/revisions/:revision_id/logs/:log_type", async (req, res) => {
    const filter = logFilter(req.params.log_type as LogKind, req.query as unknown as LogQuery, "query");
    res.json(await service.logs(req.tenantId, req.params.deployment_id, req.params.revision_id, filter));
  });

  // The official CLI's form: POST with the filter in the body, levels answered in upper case;
  // `project` is the deployment.
  for (const kind of ["build", "deploy"] as const) {
    router.post(`/v1/projects/:project_id/revisions/:revision_id/${kind}_logs`, async (req: Request, res) => {
      const filter = logFilter(kind, (req.body ?? {}) as LogQuery, "body");
      const page = await service.logs(
        req.tenantId,
        String(req.params.project_id),
        String(req.params.revision_id),
        filter,
      );
      res.json(presentCliLogPage(page));
    });
  }
  router.post("/v1/projects/:project_id/deploy_logs", async (req: Request, res) => {
    const filter = logFilter("deploy", (req.body ?? {}) as LogQuery, "body");
    res.json(presentCliLogPage(await service.deploymentLogs(req.tenantId, String(req.params.project_id), filter)));
  });

  return router;
}
