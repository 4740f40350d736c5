// A2A (Agent2Agent, JSON-RPC 0.3) for assistants whose state holds `messages`, as the hosted
// server serves it: `POST /a2a/{assistant_id}` (`message/send`, `message/stream` as server-sent
// events, `tasks/get`, `tasks/cancel`) through the official SDK's request handler, and each
// assistant's agent card at `GET /.well-known/agent-card.json?assistant_id=`.
import type { AgentCard } from "@a2a-js/sdk" with { "resolution-mode": "import" };
import { Router, type Request } from "express";
import { NotFoundError, invalid } from "@lgp/server-kit";
import type { AssistantService } from "../assistants/service";
import { authOf, type AuthContext } from "../auth";
import type { Db } from "../db";
import type { RunService } from "../runs/service";
import type { ThreadService } from "../threads/service";
import { AssistantExecutor, threadOfContext } from "./executor";
import { PostgresTaskStore } from "./task-store";

// The SDK's types are declared as ES module ones; its CommonJS build is what runs here.
const { DefaultRequestHandler, JsonRpcTransportHandler } = require("@a2a-js/sdk/server") as typeof import(
  "@a2a-js/sdk/server",
  { with: { "resolution-mode": "import" } }
);

export interface A2aDeps {
  db: Db;
  assistants: AssistantService;
  runs: RunService;
  threads: ThreadService;
  version: string;
}

/** The assistant behind an A2A request, if it takes messages (its input or state has `messages`). */
async function conversational(deps: A2aDeps, assistantId: string, auth?: AuthContext) {
  const assistant = await deps.assistants.get(assistantId, auth);
  const schemas = await deps.assistants.schemas(assistant.assistant_id, auth).catch(() => ({}));
  const hasMessages = ["input_schema", "state_schema"].some((key) => {
    const schema = (schemas as Record<string, { properties?: Record<string, unknown> } | undefined>)[key];
    return !!schema?.properties && "messages" in schema.properties;
  });
  if (!hasMessages)
    throw new NotFoundError(
      `Assistant "${assistantId}" does not take messages: A2A serves assistants whose state has messages`,
    );
  return assistant;
}

function cardOf(
  req: Request,
  deps: A2aDeps,
  assistant: { assistant_id: string; name: string; description?: string | null; graph_id: string },
): AgentCard {
  const base = `${req.protocol}://${req.get("host")}`;
  return {
    protocolVersion: "0.3.0",
    name: assistant.name,
    description: assistant.description ?? `The "${assistant.graph_id}" agent`,
    url: `${base}/a2a/${assistant.assistant_id}`,
    preferredTransport: "JSONRPC",
    version: deps.version,
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: assistant.graph_id,
        name: assistant.name,
        description: assistant.description ?? `Talk to the "${assistant.graph_id}" agent`,
        tags: [assistant.graph_id],
      },
    ],
  };
}

export function a2aRouter(deps: A2aDeps): Router {
  const router = Router();

  router.get("/.well-known/agent-card.json", async (req, res) => {
    const id = req.query.assistant_id;
    if (typeof id !== "string" || !id)
      throw invalid(["query", "assistant_id"], "names the assistant whose card to answer");
    res.json(cardOf(req, deps, await conversational(deps, id, authOf(res))));
  });

  router.post("/a2a/:assistant_id", async (req, res) => {
    const auth = authOf(res);
    const assistant = await conversational(deps, req.params.assistant_id, auth);
    const handler = new DefaultRequestHandler(
      cardOf(req, deps, assistant),
      new PostgresTaskStore(
        deps.db,
        assistant.assistant_id,
        auth
          ? (contextId) =>
              deps.threads.get(threadOfContext(contextId), auth).then(
                () => true,
                () => false,
              )
          : undefined,
      ),
      new AssistantExecutor(deps.runs, assistant.assistant_id, auth),
    );
    const answer = await new JsonRpcTransportHandler(handler).handle(req.body);
    if (!(Symbol.asyncIterator in answer)) {
      res.json(answer);
      return;
    }
    res.status(200).set({ "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    res.flushHeaders();
    for await (const event of answer) {
      if (res.destroyed) break;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    res.end();
  });

  return router;
}
