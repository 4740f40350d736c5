import { Router } from "express";
import { authOf } from "../auth";
import type { MonitoringService, MonitoringWindow } from "./service";

/** `GET /monitoring/runs?window=1h|24h`: the contract validator has checked the window (422 otherwise). */
export function monitoringRouter(monitoring: MonitoringService): Router {
  const router = Router();
  router.get("/monitoring/runs", async (req, res) => {
    const window = (req.query.window ?? "1h") as MonitoringWindow;
    res.json(await monitoring.runs(window, authOf(res)));
  });
  return router;
}
