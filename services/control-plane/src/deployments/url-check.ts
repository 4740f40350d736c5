import { Router, type RequestHandler } from "express";
import { invalid, type OutboundPolicy } from "@lgp/server-kit";

/**
 * An external_docker deployment's `custom_url` is called by the control plane (its /ok): a literal
 * address the outbound policy refuses (loopback, private, link-local... unless OUTBOUND_ALLOW says
 * so) is a 422 naming the field when given. A name is judged when the deployer calls it.
 */
export function customUrlCheck(policy: OutboundPolicy): Router {
  const router = Router();
  const check: RequestHandler = (req, _res, next) => {
    const url = (req.body as { source_config?: { custom_url?: unknown } } | undefined)?.source_config?.custom_url;
    const refusal = typeof url === "string" ? policy.urlRefusal(url) : undefined;
    if (refusal) throw invalid(["body", "source_config", "custom_url"], `${refusal} (OUTBOUND_ALLOW can allow it)`);
    next();
  };
  router.post("/v2/deployments", check);
  router.patch("/v2/deployments/:deployment_id", check);
  return router;
}
