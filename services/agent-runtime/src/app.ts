import type { Express, Router } from "express";
import { agentRuntimeApi } from "@lgp/contracts";
import { createServiceApp, scopedRouter, type Logger, type RateLimiter, type ServiceMetrics } from "@lgp/server-kit";
import type { AgentRuntimeConfig } from "./config";
import type { Db } from "./db";
import { assistantsRouter } from "./assistants/routes";
import { runsRouter } from "./runs/routes";
import { webhookUrlCheck } from "./webhooks";
import type { Runtime } from "./runtime";
import { threadsRouter } from "./threads/routes";
import { StoreRepository, StoreService, storeRouter } from "./store";
import { cronsRouter } from "./crons";
import { statelessRouter } from "./stateless";
import { corsMiddleware, corsSettingsOf } from "./http/cors";
import { collectConfigurableHeaders } from "./http/settings";
import { runtimeRateLimiter, runtimeRateLimits } from "./http/rate-limits";
import { infoRouter } from "./info/routes";
import { idempotentRoutes } from "./idempotency";
import { authenticateRequests } from "./auth";
import { protocolRouter } from "./protocol/routes";
import { uiRouter } from "./ui/routes";
import { mcpRouter } from "./mcp/routes";
import { a2aRouter } from "./a2a/routes";
import { metricsForOperators } from "./metrics/guard";
import { MonitoringRepository, MonitoringService, monitoringRouter } from "./monitoring";
import { AssistantTools } from "./mcp/tools";
import { runtimeVersion } from "./info/service";

/** Everything the HTTP layer needs; built once in main.ts (or by a test). */
export interface AgentRuntimeDeps {
  config: AgentRuntimeConfig;
  db: Db;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Graphs, assistants, threads and runs (see runtime.ts). */
  runtime?: Runtime;
  /** Per key or user rate limits; main.ts shares them through REDIS_URL. Absent: counted in memory, as configured. */
  rateLimiter?: RateLimiter;
}

export function createAgentRuntimeApp(deps: AgentRuntimeDeps): Express {
  const customRoutes = deps.runtime?.customRoutes?.handler;
  const publicRoutes = deps.runtime?.http.customRoutesPublic ?? false;
  const { app } = createServiceApp({
    service: "agent-runtime",
    logger: deps.logger,
    apiSpec: agentRuntimeApi,
    validationStyle: "message",
    // Official SDKs add query parameters and body fields release after release; the Python SDK
    // sends null for what it was not given; proxies drop Content-Type.
    tolerantInput: true,
    // CORS first (a preflight carries no credentials), then the deployment's keys or custom auth.
    cors: corsMiddleware(corsSettingsOf(deps.config)),
    trustProxy: deps.config.TRUST_PROXY,
    early: [
      // langgraph.json's http.app: after CORS and auth, before every built-in route; before auth
      // when `http.enable_custom_route_auth` is false (its routes are public).
      ...(customRoutes && publicRoutes ? [customRoutes] : []),
      ...(deps.config.API_KEY_HASHES || deps.runtime?.customAuth
        ? [
            authenticateRequests({
              keyHashes: deps.config.API_KEY_HASHES,
              customAuth: deps.runtime?.customAuth,
              logger: deps.logger,
            }),
          ]
        : []),
      ...(deps.runtime?.customAuth ? [metricsForOperators()] : []),
      ...(customRoutes && !publicRoutes ? [customRoutes] : []),
      ...(deps.runtime ? [collectConfigurableHeaders(deps.runtime.http.configurableHeaders)] : []),
    ],
    // After authentication (in `early`) and with the body read (a batch counts each of its runs).
    rateLimit: runtimeRateLimits(deps.rateLimiter ?? runtimeRateLimiter(deps.config, deps.logger)),
    validateResponses: process.env.VALIDATE_RESPONSES === "true",
    metrics: deps.metrics,
    // Ready means runs can be created and streamed: the database answers and, with Redis, the
    // queue and event log are connected.
    ready: async () => {
      await deps.db.$queryRaw`SELECT 1`;
      if (deps.runtime && !(deps.runtime.queue.reachable() && deps.runtime.events.reachable()))
        throw new Error("Redis is unreachable");
    },
    routes: (app) => {
      // Each capability mounts its router here (assistants, threads, runs, store, crons).
      // langgraph.json's http.disable_* switch built-in groups off (their paths then answer 404).
      const off = deps.runtime?.http.disabled;
      // Each router is entered only by the paths its routes could match (see scopedRouter).
      const mount = (router: Router) => app.use(scopedRouter(router));
      if (!off?.meta) mount(infoRouter());
      // The console's monitoring view: figures read from the runs table (any process may answer).
      mount(monitoringRouter(new MonitoringService(new MonitoringRepository(deps.db))));
      // Creates that carry an Idempotency-Key are done once per key and caller (idempotency/).
      if (deps.runtime)
        app.use(
          idempotentRoutes({
            storage: deps.runtime.idempotency,
            ttlSeconds: deps.config.IDEMPOTENCY_KEY_TTL_SECONDS,
            waitMs: deps.config.IDEMPOTENCY_WAIT_MS,
            logger: deps.logger,
            runs: deps.runtime.runs,
            stateless: deps.runtime.stateless,
            heartbeatMs: deps.config.STREAM_HEARTBEAT_MS,
          }),
        );
      if (deps.runtime) {
        if (!off?.assistants) mount(assistantsRouter(deps.runtime.assistants, deps.runtime.threads));
        if (!off?.threads) mount(threadsRouter(deps.runtime.threads));
        if (!off?.runs) {
          app.use(webhookUrlCheck(deps.config.OUTBOUND_ALLOW));
          mount(runsRouter(deps.runtime.runs, { heartbeatMs: deps.config.STREAM_HEARTBEAT_MS }));
          mount(statelessRouter(deps.runtime.stateless, deps.runtime.runs));
          mount(cronsRouter(deps.runtime.crons));
        }
        const { assistants, ui } = deps.runtime;
        if (!off?.ui)
          mount(
            uiRouter(ui, (id) =>
              assistants.resolve(id, { cached: true }).then(
                (assistant) => assistant.graph_id,
                () => undefined,
              ),
            ),
          );
        if (!off?.a2a)
          mount(
            a2aRouter({
              db: deps.db,
              assistants: deps.runtime.assistants,
              runs: deps.runtime.runs,
              threads: deps.runtime.threads,
              version: runtimeVersion(),
            }),
          );
        if (!off?.mcp)
          mount(mcpRouter(new AssistantTools(deps.runtime.assistants, deps.runtime.stateless), runtimeVersion()));
        // The protocol starts and streams runs: it goes with them, as on the official server.
        if (!off?.runs)
          mount(
            protocolRouter(deps.runtime.protocol, deps.runtime.sockets, {
              heartbeatMs: deps.config.STREAM_HEARTBEAT_MS,
            }),
          );
      }
      if (!off?.store)
        mount(
          storeRouter(
            new StoreService(
              new StoreRepository(deps.db, deps.runtime?.storeIndex, deps.runtime?.storeTtl),
              deps.runtime?.authorize,
            ),
          ),
        );
    },
  });
  return app;
}
