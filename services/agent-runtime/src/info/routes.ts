import { Router } from "express";
import { serverInfo } from "./service";

/** `GET /info`; needs no credentials (the auth room must let it through, as the official server does). */
export function infoRouter(): Router {
  const router = Router();
  const info = serverInfo();
  router.get("/info", (_req, res) => {
    res.json(info);
  });
  return router;
}
