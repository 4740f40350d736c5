// POST /threads/{id}/commands and POST /threads/{id}/stream/events (SSE). The WebSocket form of
// the stream is websocket.ts. The validator has checked the shapes; channel names are checked here.
import { Router } from "express";
import { invalid } from "@lgp/server-kit";
import { authOf } from "../auth";
import { runCallerOf } from "../http/settings";
import { sendEventStream } from "../runs/sse";
import { upgradeHead, type ProtocolSockets } from "./websocket";
import { filterProblem, type Command, type EventFilter, type ProtocolService } from "./service";

export function protocolRouter(
  protocol: ProtocolService,
  sockets: ProtocolSockets,
  options: { heartbeatMs: number },
): Router {
  const router = Router();

  router.post("/threads/:thread_id/commands", async (req, res) => {
    res.json(await protocol.command(req.params.thread_id, req.body as Command, runCallerOf(res)));
  });

  router.post("/threads/:thread_id/stream/events", async (req, res) => {
    const filter = req.body as EventFilter;
    const problem = filterProblem(filter);
    if (problem)
      throw invalid(
        ["body", "channels"],
        problem === "empty" ? "channels must be a non-empty array" : "channels holds an unsupported channel",
      );
    const threadId = req.params.thread_id;
    const auth = authOf(res);
    // Refused before the stream starts when the thread is another user's.
    await protocol.requireVisibleIfExists(threadId, auth);
    await sendEventStream(
      req,
      res,
      undefined,
      async function* (signal) {
        for await (const event of protocol.events(threadId, filter, signal, auth))
          yield { id: String(event.seq), event: event.method, data: event.json };
      },
      { heartbeatMs: options.heartbeatMs },
    );
  });

  // The WebSocket form: the upgrade request reaches this route through acceptUpgrades.
  router.get("/threads/:thread_id/stream/events", async (req, res) => {
    if (!upgradeHead(req) || req.get("upgrade")?.toLowerCase() !== "websocket") {
      res.status(426).setHeader("Upgrade", "websocket").json({ detail: "Upgrade to a WebSocket to use this stream" });
      return;
    }
    const caller = runCallerOf(res);
    // A thread the client is about to create (run.start creates it) may not exist yet.
    await protocol.requireVisibleIfExists(req.params.thread_id, caller.auth);
    sockets.accept(req, res, req.params.thread_id, caller);
  });

  return router;
}
