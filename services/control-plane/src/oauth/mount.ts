import type { Router } from "express";
import { CONSOLE_CALLBACK_PATH } from "../console/router";
import type { ControlPlaneDeps } from "../deps";
import { SecretCipher } from "../secrets/cipher";
import { oauthRouter } from "./routes";
import { OAuthService } from "./service";

/** The OAuth capability wired from the app's dependencies. */
export function createOAuthRouter(deps: ControlPlaneDeps): Router {
  const publicUrl = deps.config.PUBLIC_URL;
  // The console's page shows the outcome to a signed-in user; /auth/done is the plain one.
  const callbackPath = deps.config.CONSOLE_ENABLED ? CONSOLE_CALLBACK_PATH : "/auth/done";
  const service = new OAuthService({
    db: deps.db,
    cipher: SecretCipher.fromEncodedKey(deps.config.SECRETS_ENCRYPTION_KEY),
    logger: deps.logger,
    publicUrl,
    allowHttpLoopback: deps.config.OAUTH_ALLOW_HTTP_LOOPBACK,
    frontendCallbackUrl: deps.config.FRONTEND_CALLBACK_URL ?? `${publicUrl.replace(/\/+$/, "")}${callbackPath}`,
  });
  return oauthRouter(service, deps.logger);
}
