import { Router } from "express";
import { idempotencyStarted, NotFoundError } from "@lgp/server-kit";
import { authOf } from "../auth";
import { runCallerOf } from "../http/settings";
import { flag } from "../common/flags";
import { serialize } from "../common/serde";
import type { RunService } from "./service";
import { toRun } from "./service";
import { answerWhenEnded, cancelOnLeave } from "./answers";
import { sendEventStream } from "./sse";
import { THREAD_STREAM_MODES, type ThreadStreamMode } from "./thread-stream";
import type { RunStatus } from "./repository";

function streamModes(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  let list: unknown[] = Array.isArray(value) ? value : [value];
  // The official client sends an array as its JSON text.
  list = list.flatMap((item) => {
    if (typeof item === "string" && item.startsWith("[")) {
      try {
        return JSON.parse(item) as unknown[];
      } catch {
        return [item];
      }
    }
    return [item];
  });
  return list.flatMap((item) => String(item).split(",")).filter(Boolean);
}

export function runsRouter(runs: RunService, options: { heartbeatMs: number } = { heartbeatMs: 5_000 }): Router {
  const { heartbeatMs } = options;
  const router = Router();

  router.post("/threads/:thread_id/runs", async (req, res) => {
    const run = await runs.create(req.params.thread_id, req.body, runCallerOf(res));
    res.setHeader("Content-Location", `/threads/${run.thread_id}/runs/${run.run_id}`);
    res.json(toRun(run));
  });

  router.post("/threads/:thread_id/runs/stream", async (req, res) => {
    const { run, first, queued } = await runs.start(req.params.thread_id, req.body, {
      eager: true,
      ...runCallerOf(res),
    });
    await sendEventStream(
      req,
      res,
      { threadId: run.thread_id, runId: run.run_id },
      async function* (signal) {
        // The first event goes out at once; the rest follow from the log.
        yield first;
        try {
          await queued;
        } catch (error) {
          // The run could not be stored or queued after the stream started: say so, and end.
          const detail = (error as { detail?: unknown }).detail ?? (error as Error).message;
          yield {
            id: "error",
            event: "error",
            data: serialize({ error: (error as Error).constructor?.name ?? "Error", message: String(detail) }),
          };
          return;
        }
        // Stored and queued: a repeat of this request (same Idempotency-Key) joins this run.
        await idempotencyStarted(res, { thread_id: run.thread_id, run_id: run.run_id });
        yield* runs.events(run, { signal, lastEventId: first.id });
      },
      {
        heartbeatMs,
        onDisconnect: cancelOnLeave(runs, req.body, run),
      },
    );
  });

  router.post("/threads/:thread_id/runs/wait", async (req, res) => {
    const run = await runs.create(req.params.thread_id, req.body, runCallerOf(res));
    res.setHeader("Content-Location", `/threads/${run.thread_id}/runs/${run.run_id}`);
    await idempotencyStarted(res, { thread_id: run.thread_id, run_id: run.run_id });
    await answerWhenEnded(
      res,
      (signal) => runs.join(run.thread_id, run.run_id, signal),
      cancelOnLeave(runs, req.body, run),
    );
  });

  router.get("/threads/:thread_id/runs", async (req, res) => {
    const rows = await runs.list(
      req.params.thread_id,
      {
        limit: req.query.limit as unknown as number,
        offset: req.query.offset as unknown as number,
        status: req.query.status as RunStatus | undefined,
      },
      authOf(res),
    );
    res.json(rows.map(toRun));
  });

  router.get("/threads/:thread_id/runs/:run_id", async (req, res) => {
    res.json(toRun(await runs.get(req.params.thread_id, req.params.run_id, authOf(res))));
  });

  router.delete("/threads/:thread_id/runs/:run_id", async (req, res) => {
    await runs.delete(req.params.thread_id, req.params.run_id, authOf(res));
    res.status(204).end();
  });

  router.get("/threads/:thread_id/runs/:run_id/join", async (req, res) => {
    const controller = new AbortController();
    const cancelOnDisconnect = flag(req.query.cancel_on_disconnect);
    res.on("close", () => {
      controller.abort();
      // Closed before the answer was written: the client left while the run went on.
      if (cancelOnDisconnect && !res.writableFinished) {
        void runs.cancel(req.params.thread_id, req.params.run_id).catch(() => undefined);
      }
    });
    const outcome = await runs.join(req.params.thread_id, req.params.run_id, controller.signal, authOf(res));
    if (!controller.signal.aborted) res.json(outcome.values);
  });

  router.get("/threads/:thread_id/runs/:run_id/stream", async (req, res) => {
    let run;
    try {
      run = await runs.get(req.params.thread_id, req.params.run_id, authOf(res));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      // As the official server answers: the stream opens and its one event says the run is absent
      // (clients written for it read an error event here, not a status).
      const data = serialize({ error: "NotFoundError", message: `404: ${String(error.detail)}` });
      await sendEventStream(req, res, undefined, async function* () {
        yield { id: "error", event: "error", data };
      });
      return;
    }
    const lastEventId = req.get("Last-Event-ID") || undefined;
    const modes = streamModes(req.query.stream_mode);
    await sendEventStream(
      req,
      res,
      { threadId: run.thread_id, runId: run.run_id },
      (signal) => runs.events(run, { signal, lastEventId, modes }),
      {
        heartbeatMs,
        onDisconnect: flag(req.query.cancel_on_disconnect)
          ? () => void runs.cancel(run.thread_id, run.run_id).catch(() => undefined)
          : undefined,
      },
    );
  });

  router.post("/threads/:thread_id/runs/:run_id/cancel", async (req, res) => {
    const wait = flag(req.query.wait);
    const action = (req.query.action as "interrupt" | "rollback" | undefined) ?? "interrupt";
    // A client that leaves while waiting releases the wait (and its event-log reader).
    const left = new AbortController();
    res.on("close", () => left.abort());
    await runs.cancel(req.params.thread_id, req.params.run_id, {
      wait,
      action,
      signal: left.signal,
      auth: authOf(res),
    });
    if (!left.signal.aborted) res.status(wait ? 204 : 202).end();
  });

  router.get("/threads/:thread_id/stream", async (req, res) => {
    const lastEventId = req.get("Last-Event-ID") || undefined;
    // The SDKs send `stream_mode`; the hosted server's reference names it `stream_modes`.
    const modes = (streamModes(req.query.stream_mode) ?? streamModes(req.query.stream_modes) ?? []).filter(
      (mode): mode is ThreadStreamMode => (THREAD_STREAM_MODES as readonly string[]).includes(mode),
    );
    await runs.assertThread(req.params.thread_id, authOf(res));
    await sendEventStream(
      req,
      res,
      undefined,
      (signal) => runs.threadEvents(req.params.thread_id, { modes, lastEventId, signal }),
      { heartbeatMs },
    );
  });

  router.post("/runs/cancel", async (req, res) => {
    const action = (req.query.action as "interrupt" | "rollback" | undefined) ?? "interrupt";
    await runs.cancelMany(req.body ?? {}, action, authOf(res));
    res.status(204).end();
  });

  return router;
}
