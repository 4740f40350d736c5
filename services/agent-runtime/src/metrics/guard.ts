// /metrics tells of the whole deployment (its graphs, runs pending and running, webhook results):
// under a custom auth handler an app's user may not read it; a deployment key (the operator's
// Prometheus) may, as for the monitoring view.
import type { RequestHandler } from "express";
import { ForbiddenError } from "@lgp/server-kit";
import { authOf, STUDIO_USER_CONTEXT } from "../auth";

export function metricsForOperators(): RequestHandler {
  return (req, res, next) => {
    if (req.path !== "/metrics") return next();
    const auth = authOf(res);
    if (auth && auth !== STUDIO_USER_CONTEXT)
      return next(new ForbiddenError("Metrics are the whole deployment's: they need the deployment's API key"));
    next();
  };
}
