import type { Router } from "express";
import { OutboundPolicy } from "@lgp/server-kit";
import type { ControlPlaneDeps } from "../deps";
import { SecretCipher } from "../secrets/cipher";
import { oauthRouter } from "./routes";
import { OAuthService } from "./service";

/** The OAuth capability wired from the app's dependencies. */
export function createOAuthRouter(deps: ControlPlaneDeps): Router {
  const publicUrl = deps.config.PUBLIC_URL;
  const service = new OAuthService({
    db: deps.db,
    cipher: SecretCipher.fromConfig(deps.config),
    logger: deps.logger,
    publicUrl,
    allowHttpLoopback: deps.config.OAUTH_ALLOW_HTTP_LOOPBACK,
    // A provider on this machine, allowed for development, is reached on loopback.
    outbound: deps.config.OAUTH_ALLOW_HTTP_LOOPBACK
      ? new OutboundPolicy([...deps.config.OUTBOUND_ALLOW.allow, "loopback"])
      : deps.config.OUTBOUND_ALLOW,
    frontendCallbackUrl: deps.config.FRONTEND_CALLBACK_URL,
  });
  return oauthRouter(service, deps.logger);
}
