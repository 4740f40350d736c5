import type { Express } from "express";
import { agentRuntimeApi } from "@lgp/contracts";
import { createServiceApp, type Logger, type ServiceMetrics } from "@lgp/server-kit";
import type { AgentRuntimeConfig } from "./config";
import type { Db } from "./db";
import { assistantsRouter } from "./assistants/routes";
import { runsRouter } from "./runs/routes";
import type { Runtime } from "./runtime";
import { threadsRouter } from "./threads/routes";
import { StoreRepository, StoreService, storeRouter } from "./store";
import { cronsRouter } from "./crons";
import { statelessRouter } from "./stateless";
import { corsMiddleware, corsSettingsOf } from "./http/cors";
import { infoRouter } from "./info/routes";
import { authenticateRequests } from "./auth";
import { protocolRouter } from "./protocol/routes";
import { uiRouter } from "./ui/routes";

/** Everything the HTTP layer needs; built once in main.ts (or by a test). */
export interface AgentRuntimeDeps {
  config: AgentRuntimeConfig;
  db: Db;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Graphs, assistants, threads and runs (see runtime.ts). */
  runtime?: Runtime;
}

export function createAgentRuntimeApp(deps: AgentRuntimeDeps): Express {
  const { app } = createServiceApp({
    service: "agent-runtime",
    logger: deps.logger,
    apiSpec: agentRuntimeApi,
    validationStyle: "message",
    // Official SDKs add query parameters and body fields release after release; the Python SDK
    // sends null for what it was not given; proxies drop Content-Type.
    tolerantInput: true,
    // CORS first (a preflight carries no credentials), then the deployment's keys or custom auth.
    early: [
      ...corsMiddleware(corsSettingsOf(deps.config)),
      ...(deps.config.API_KEY_HASHES || deps.runtime?.customAuth
        ? [
            authenticateRequests({
              keyHashes: deps.config.API_KEY_HASHES,
              customAuth: deps.runtime?.customAuth,
              logger: deps.logger,
            }),
          ]
        : []),
    ],
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
      app.use(infoRouter());
      if (deps.runtime) {
        app.use(assistantsRouter(deps.runtime.assistants, deps.runtime.threads));
        app.use(threadsRouter(deps.runtime.threads));
        app.use(runsRouter(deps.runtime.runs, { heartbeatMs: deps.config.STREAM_HEARTBEAT_MS }));
        app.use(statelessRouter(deps.runtime.stateless, deps.runtime.runs));
        app.use(cronsRouter(deps.runtime.crons));
        const { assistants, ui } = deps.runtime;
        app.use(
          uiRouter(ui, (id) =>
            assistants.resolve(id, { cached: true }).then(
              (assistant) => assistant.graph_id,
              () => undefined,
            ),
          ),
        );
        app.use(
          protocolRouter(deps.runtime.protocol, deps.runtime.sockets, { heartbeatMs: deps.config.STREAM_HEARTBEAT_MS }),
        );
      }
      app.use(storeRouter(new StoreService(new StoreRepository(deps.db), deps.runtime?.authorize)));
    },
  });
  return app;
}
