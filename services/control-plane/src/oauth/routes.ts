import type { Server } from "node:http";
import type { Socket } from "node:net";
import { Router, type Request } from "express";
import type { Logger } from "@lgp/server-kit";
import { renderDonePage } from "./done-page";
import type { OAuthService } from "./service";
import type { AuthenticateRequest, ProviderCreate, ProviderUpdate } from "./views";

/** Strings of the (already validated) query; repeated parameters keep their first value. */
function queryStrings(req: Request): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(req.query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") result[key] = first;
  }
  return result;
}

export function oauthRouter(service: OAuthService, logger: Logger): Router {
  const router = Router();

  router.get("/v2/auth/providers", async (req, res) => {
    res.json(await service.listProviders(req.tenantId));
  });
  router.post("/v2/auth/providers", async (req, res) => {
    res.status(201).json(await service.createProvider(req.tenantId, req.body as ProviderCreate));
  });
  router.get("/v2/auth/providers/:provider_id", async (req, res) => {
    res.json(await service.getProvider(req.tenantId, req.params.provider_id));
  });
  router.patch("/v2/auth/providers/:provider_id", async (req, res) => {
    res.json(await service.updateProvider(req.tenantId, req.params.provider_id, req.body as ProviderUpdate));
  });
  router.delete("/v2/auth/providers/:provider_id", async (req, res) => {
    res.json(await service.deleteProvider(req.tenantId, req.params.provider_id));
  });

  router.post("/v2/auth/authenticate", async (req, res) => {
    res.json(await service.authenticate(req.tenantId, req.body as AuthenticateRequest));
  });

  router.get("/v2/auth/wait/:auth_id", async (req, res) => {
    // Stop waiting when the client goes away or the server stops listening (shutdown), so a
    // long-poll never holds up a graceful shutdown.
    const stop = new AbortController();
    res.on("close", () => stop.abort());
    const server = (req.socket as Socket & { server?: Server }).server;
    const watch = setInterval(() => {
      if (server && !server.listening) stop.abort();
    }, 200);
    watch.unref();
    try {
      res.json(await service.wait(req.tenantId, req.params.auth_id, Number(req.query.timeout ?? 30), stop.signal));
    } finally {
      clearInterval(watch);
    }
  });

  // Public (the contract marks it `security: []`): the browser arrives here from the provider.
  // Whatever happens, the browser is sent on to the frontend page: never a 5xx, never a stack.
  router.get("/v2/auth/callback/:provider_id", async (req, res) => {
    const providerId = req.params.provider_id;
    let location: string;
    try {
      location = service.frontendRedirect(await service.handleCallback(providerId, queryStrings(req)));
    } catch (error) {
      logger.error({ err: error, provider_id: providerId, request_id: req.id }, "OAuth callback failed");
      location = service.frontendRedirect({
        status: "failed",
        provider_id: providerId,
        error: "server_error",
        error_description: "The authorization could not be completed; try again.",
      });
    }
    res.setHeader("Cache-Control", "no-store");
    // The callback URL carries the code and state: never pass it on as a Referer.
    res.setHeader("Referrer-Policy", "no-referrer");
    res.redirect(303, location);
  });

  router.get("/v2/auth/tokens", async (req, res) => {
    const query = queryStrings(req);
    res.json(await service.listTokens(req.tenantId, { providerId: query.provider_id, userId: query.user_id }));
  });
  router.delete("/v2/auth/tokens", async (req, res) => {
    const query = queryStrings(req);
    res.json(
      await service.deleteTokens(req.tenantId, { providerId: query.provider_id as string, userId: query.user_id }),
    );
  });
  router.delete("/v2/auth/tokens/:token_id", async (req, res) => {
    await service.deleteToken(req.tenantId, req.params.token_id);
    res.status(204).end();
  });

  router.get("/auth/done", (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    res.type("html").send(renderDonePage(queryStrings(req)));
  });

  return router;
}
