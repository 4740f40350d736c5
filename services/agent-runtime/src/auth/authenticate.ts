// Who may call the runtime. Three modes, chosen at start-up:
// - deployment keys only (API_KEY_HASHES): a request needs one of the keys;
// - a custom auth handler (`auth.path`): its `authenticate` decides, and the user it returns goes on
//   to the resource handlers. A deployment key, when keys are configured too, stands for the studio
//   user (the operator's own tools), unless `auth.disable_studio_auth`. The official dev server
//   trusts a header (`x-auth-scheme: langsmith`) for that; a header any client can send proves
//   nothing, so here only a key does;
// - neither: open (local development; main.ts says so loudly).
import type { RequestHandler } from "express";
import { HttpError, type Logger } from "@lgp/server-kit";
import { keyIdOf, matchingKeyHash, presentedKey } from "./api-keys";
import type { AuthContext } from "./context";
import type { CustomAuth } from "./custom-auth";
import { standardRequest } from "../http/standard-request";

/** What anyone may read without credentials: probes, server info, the docs. */
const OPEN_PATHS = /^\/(ok|ready|info|openapi\.json|docs)(\/|$)/;
/** Generative UI bundles: a page's script and link tags cannot send credentials (code, no data). */
const UI_FILE = /^\/ui\/[^/]+\/[^/]+$/;

/** The user a deployment key stands for under custom auth (the SDK's `isStudioUser` recognises it). */
export const STUDIO_USER_CONTEXT: AuthContext = {
  user: {
    kind: "StudioUser",
    identity: "langgraph-studio-user",
    display_name: "langgraph-studio-user",
    permissions: [],
    is_authenticated: true,
  },
  scopes: [],
};

export interface AuthenticationOptions {
  keyHashes?: Buffer[];
  customAuth?: CustomAuth;
  logger: Logger;
}

function refusal(status: number, detail: string): HttpError {
  return new HttpError(
    status,
    detail,
    status === 401 ? { "WWW-Authenticate": 'ApiKey header="x-api-key", Bearer' } : undefined,
  );
}

export function authenticateRequests(options: AuthenticationOptions): RequestHandler {
  const { keyHashes, customAuth, logger } = options;
  const studioKey = !!keyHashes?.length && !customAuth?.studioAuthDisabled;
  return (req, res, next) => {
    // Preflights carry no credentials (CORS answers them before this runs).
    if (
      req.method === "OPTIONS" ||
      (["GET", "HEAD"].includes(req.method) && (OPEN_PATHS.test(req.path) || UI_FILE.test(req.path)))
    )
      return next();
    const refuse = (error: HttpError, reason: string) => {
      // Never the credential itself in the log.
      logger.warn({ path: req.path, method: req.method, status: error.status, reason }, "request refused");
      next(error);
    };
    if (!customAuth) {
      const key = presentedKey(req.get("x-api-key"), req.get("authorization"));
      const hash = matchingKeyHash(keyHashes ?? [], key);
      if (hash) {
        res.locals.apiKeyId = keyIdOf(hash);
        return next();
      }
      return refuse(
        refusal(401, key ? "Invalid API key" : "Missing API key: send it in the x-api-key header"),
        key ? "invalid API key" : "no API key",
      );
    }
    const apiKey = req.get("x-api-key");
    if (studioKey && apiKey) {
      const hash = matchingKeyHash(keyHashes!, apiKey);
      if (!hash) return refuse(refusal(401, "Invalid API key"), "invalid API key");
      res.locals.auth = STUDIO_USER_CONTEXT;
      res.locals.apiKeyId = keyIdOf(hash);
      return next();
    }
    customAuth
      .authenticate(standardRequest(req))
      .then((auth) => {
        res.locals.auth = auth;
        next();
      })
      .catch((error: HttpError) => refuse(error, `authenticate answered ${error.status}`));
  };
}
