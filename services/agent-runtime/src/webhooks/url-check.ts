import type { RequestHandler } from "express";
import { invalid, type OutboundPolicy } from "@lgp/server-kit";

/**
 * A run's or cron's `webhook` naming an address outbound calls may not reach (loopback, private,
 * link-local... unless OUTBOUND_ALLOW says so) is refused when it is given: 422 naming the field.
 * A name is judged when the webhook is delivered (it may resolve differently then). A path
 * (`/hooks/done`) is this runtime's own address, which its operator set: not judged.
 */
export function webhookUrlCheck(policy: OutboundPolicy): RequestHandler {
  const refusalAt = (body: unknown, loc: (string | number)[]) => {
    const webhook = (body as { webhook?: unknown } | null)?.webhook;
    if (typeof webhook !== "string" || webhook.startsWith("/")) return;
    const refusal = policy.urlRefusal(webhook);
    if (refusal) throw invalid([...loc, "webhook"], refusal);
  };
  return (req, _res, next) => {
    if ((req.method === "POST" || req.method === "PATCH") && req.path.includes("/runs")) {
      if (Array.isArray(req.body)) req.body.forEach((item, index) => refusalAt(item, ["body", index]));
      else refusalAt(req.body, ["body"]);
    }
    next();
  };
}
