import type { Router } from "express";
import type { ControlPlaneDeps } from "../deps";
import { SecretCipher } from "../secrets/cipher";
import { oauthRouter } from "./routes";
import { OAuthService } from "./service";

/** The OAuth capability wired from the app's dependencies. */
export function createOAuthRouter(deps: ControlPlaneDeps): Router {
  const publicUrl = deps.config.PUBLIC_URL;
  const service = new OAuthService({
    db: deps.db,
    cipher: SecretCipher.fromEncodedKey(deps.config.SECRETS_ENCRYPTION_KEY),
    logger: deps.logger,
    publicUrl,
    allowHttpLoopback: deps.config.OAUTH_ALLOW_HTTP_LOOPBACK,
    frontendCallbackUrl: deps.config.FRONTEND_CALLBACK_URL,
  });
  return oauthRouter(service, deps.logger);
}
