// Executes runs taken from the queue: claims the run, streams the graph with the checkpointer,
// publishes every event to the run's event log, then finalises the run and its thread and wakes
// the thread's next run. Runs in API processes (WORKERS=n) and in worker processes alike.
import { Command } from "@langchain/langgraph";
import { isTransientError, retryTransient, type Logger } from "@lgp/server-kit";
import { InFlight } from "../common/in-flight";
import { mergeConfigs, mergeObjects } from "../common/merge";
import { serialize } from "../common/serde";
import { readPlain } from "../graphs/plain-reads";
import { hasPendingInterrupt, type CheckpointRow } from "../graphs/checkpoint-read";
import type { RuntimeCheckpointer } from "../graphs/checkpointer";
import type { RunHold } from "../graphs/held-checkpoints";
import type { GraphRegistry } from "../graphs/registry";
import type { ControlBus, EventLog, JobHandler, JobOutcome, RunJob, RunQueue, ThreadLog } from "../queue/types";
import type { CheckpointTables } from "../threads/checkpoints";
import type { ThreadStatus } from "../threads/repository";
import { interruptsOf } from "../threads/state";
import type { ClaimedThread, RunRepository, RunRow, RunStatus } from "./repository";
import { finishedWithJson, type RunFinishedHooks } from "./finished";
import type { RunStartObserver } from "./observers";
import { RunEventSender } from "./event-sender";
import { streamGraphRun } from "./graph-stream";
import { ProtocolRunEvents } from "../protocol/run-events";
import { nodeSpans } from "../tracing/node-spans";
import { attemptTraced, traced, type AttemptSpan } from "../tracing/run-spans";

/** What the executor learns from the stream itself. */
interface Tracked {
  values: unknown;
  /** The same as JSON, when the graph's host gave them so (a Python graph's). */
  valuesJson?: string;
  interrupted: boolean;
  /** Set when the run was cancelled (it stops where it was; `rollback` also erases it). */
  cancelled?: "interrupt" | "rollback";
  /** Its checkpoints held back for its end (see RuntimeCheckpointer.holdCheckpoints). */
  hold?: RunHold;
  /** Its events on their way to its log, each after the checkpoints saved before it. */
  sender?: RunEventSender;
}

/** The runtime's checkpointer of a graph (a graph may have none, or another saver). */
const checkpointerOf = (graph: { checkpointer?: unknown } | undefined) =>
  graph?.checkpointer as Partial<RuntimeCheckpointer> | undefined;

/** A run's failure as its `error` event and its end tell it. */
const failureOf = (error: unknown) => ({
  error: (error as Error)?.name ?? "Error",
  message: (error as Error)?.message ?? String(error),
});

/** An event whose failure to be written changes nothing (the run fails or ends anyway). */
function sendQuietly(sender: RunEventSender, event: string, data: string): void {
  try {
    void sender.append(event, data);
  } catch {
    // An earlier event could not be written: this one would not be either.
  }
}

/** The root graph's state chunk: the run's values, or the interrupt it stopped at. */
function track(tracked: Tracked, payload: unknown): void {
  if (payload && typeof payload === "object" && "__interrupt__" in payload) tracked.interrupted = true;
  else tracked.values = payload;
}

/** A newer attempt of the run took over (this one's worker lost its hold, e.g. during an outage). */
class SupersededError extends Error {
  constructor() {
    super("A newer attempt of the run took over");
    this.name = "SupersededError";
  }
}

class CancelledError extends Error {
  constructor(readonly action: "interrupt" | "rollback") {
    super("Run was cancelled");
    this.name = "CancelledError";
  }
}

/** What the executor writes of the event logs (a worker thread sends it to the main thread). */
export type RunEventWriter = Pick<EventLog, "append" | "end"> & { threads: Pick<ThreadLog, "appendMany"> };

export interface RunExecutorDeps {
  runs: RunRepository;
  graphs: GraphRegistry;
  events: RunEventWriter;
  queue: Pick<RunQueue, "enqueue">;
  control: ControlBus;
  checkpoints: CheckpointTables;
  finished: RunFinishedHooks;
  logger: Logger;
  /** RUN_MAX_ATTEMPTS: starts a run may have before it ends as `error`. */
  maxAttempts?: number;
  /** Told of each attempt starting (the metrics). */
  observer?: RunStartObserver;
}

/** How long a run met by a connection fault waits before it is claimed again. */
const HAND_BACK_DELAY_MS = 1_000;

/** How long a cancel for a run not (yet) executing here is remembered. */
const EARLY_CANCEL_MS = 30_000;

/* eslint-disable @typescript-eslint/no-explicit-any */
export class RunExecutor {
  /** Runs executing in this process, by id (with their attempt), so a message can stop them. */
  private readonly active = new Map<string, { controller: AbortController; attempt: number }>();
  /** Ends of runs' logs under way, their jobs done already (see finish); `settled` waits for them. */
  private readonly ending = new InFlight();
  /**
   * Cancels for runs not executing here, kept a while: a cancel can arrive between a worker's
   * claim (the run is `running`, so it is not cancelled as pending) and the run's start here.
   */
  private readonly early = new Map<string, { action: "interrupt" | "rollback"; until: number }>();

  constructor(private readonly deps: RunExecutorDeps) {
    deps.control.subscribe((message) => {
      if (message.kind === "superseded") return this.supersede(message.runId, message.attempt);
      const controller = this.active.get(message.runId)?.controller;
      if (controller) controller.abort(new CancelledError(message.action));
      else this.remember(message.runId, message.action);
    });
  }

  /** Stops this process's attempt of a run if it is older than `attempt`. */
  private supersede(runId: string, attempt: number): void {
    const executing = this.active.get(runId);
    if (executing && executing.attempt < attempt) executing.controller.abort(new SupersededError());
  }

  private remember(runId: string, action: "interrupt" | "rollback"): void {
    const now = Date.now();
    if (this.early.size >= 1000) {
      for (const [id, entry] of this.early) if (entry.until < now) this.early.delete(id);
    }
    if (this.early.size < 1000) this.early.set(runId, { action, until: now + EARLY_CANCEL_MS });
  }

  /** The queue's job handler. */
  readonly handle: JobHandler = (job, { attempt }) =>
    attemptTraced(job, attempt, (span) => this.take(job, attempt, span));

  private async take(job: RunJob, attempt: number, span: AttemptSpan | undefined): Promise<JobOutcome> {
    // Claimed by its creation, which reserved this worker for it: it starts as soon as it was
    // stored, so no later attempt can have taken it meanwhile.
    if (job.claimed && attempt === 1) {
      await this.execute(job.claimed.run, job.claimed.thread, job.claimed.checkpoint, span);
      return "done";
    }
    let claimed: Awaited<ReturnType<RunRepository["claim"]>>;
    try {
      claimed = await traced("run claim", { "langgraph.run.id": job.runId }, () =>
        this.deps.runs.claim(job.runId, attempt > 1),
      );
    } catch (error) {
      if (!isTransientError(error)) throw error;
      // The database is out of reach: try again shortly (the run is untouched, still pending).
      this.deps.logger.warn({ err: error, runId: job.runId }, "cannot claim the run for now; queued again");
      await this.deps.queue.enqueue(job, { delayMs: HAND_BACK_DELAY_MS });
      return "parked";
    }
    if (!claimed) {
      // Not due yet (woken early, or clocks apart): queued again for when it is.
      const wait = await this.deps.runs.notDueForMs(job.runId);
      if (wait !== undefined) await this.deps.queue.enqueue(job, { delayMs: Math.ceil(wait) + 5 });
      // Otherwise an earlier run of the thread is active (it wakes this one when it ends), or the
      // run is no longer pending (cancelled, deleted, done).
      return "parked";
    }
    if (claimed.run.attempt > (this.deps.maxAttempts ?? Infinity)) {
      await this.giveUp(claimed.run, claimed.run.attempt - 1);
      return "done";
    }
    if (claimed.run.attempt > 1) {
      // Taken again while an older attempt may still be executing (its worker lost its hold on
      // the job, as in a Redis outage longer than RUN_LOCK_MS): that one stops, here or elsewhere.
      this.supersede(claimed.run.run_id, claimed.run.attempt);
      await this.deps.control
        .publish({ kind: "superseded", runId: claimed.run.run_id, attempt: claimed.run.attempt })
        .catch(() => undefined);
    }
    await this.execute(claimed.run, claimed.thread, claimed.checkpoint, span);
    return "done";
  }

  private async execute(
    run: RunRow,
    thread: ClaimedThread,
    latest: CheckpointRow | null,
    span?: AttemptSpan,
  ): Promise<void> {
    const { graphs, events, logger } = this.deps;
    const kwargs = run.kwargs;
    const controller = new AbortController();
    this.active.set(run.run_id, { controller, attempt: run.attempt });
    this.deps.observer?.started(run);
    span?.claimed(run);
    // A span per node, when the attempt is traced and sampled.
    const nodes = span?.recording ? nodeSpans() : undefined;
    const early = this.early.get(run.run_id);
    if (early) {
      this.early.delete(run.run_id);
      if (early.until >= Date.now()) controller.abort(new CancelledError(early.action));
    }
    // The assistant's config and the run's, as on the official server: the thread keeps its runs'
    // config only to rebuild a factory graph for state reads and updates, never for the next run.
    const config = mergeConfigs(kwargs.assistant_config as Record<string, unknown>, kwargs.config);
    const configurable: Record<string, unknown> = {
      ...((config.configurable as object) ?? {}),
      run_id: run.run_id,
      thread_id: run.thread_id,
      graph_id: kwargs.graph_id,
      assistant_id: run.assistant_id,
    };
    if (kwargs.checkpoint_id) configurable.checkpoint_id = kwargs.checkpoint_id;
    if (kwargs.checkpoint) Object.assign(configurable, kwargs.checkpoint);
    const metadata = mergeObjects(kwargs.assistant_metadata as Record<string, unknown>, thread.metadata, run.metadata, {
      run_id: run.run_id,
      thread_id: run.thread_id,
      graph_id: kwargs.graph_id,
      assistant_id: run.assistant_id,
      run_attempt: run.attempt,
    });
    const protocol = this.protocolEvents(run);
    let status: RunStatus = "success";
    let failure: { error: string; message: string } | undefined;
    let graph: any;
    const tracked: Tracked = { values: undefined, interrupted: false };
    const sender = new RunEventSender(events, run.run_id, () => checkpointerOf(graph)?.landingOf?.(tracked.hold));
    tracked.sender = sender;
    try {
      graph = await graphs.get(
        kwargs.graph_id,
        { ...config, configurable },
        { access: "threads.create_run", context: kwargs.context as Record<string, unknown> | undefined },
      );
      const checkpointer = checkpointerOf(graph);
      checkpointer?.prefetch?.(run.run_id, run.thread_id, latest);
      // Its last checkpoint goes with the run's end (see holdCheckpoints), unless each must be
      // stored before the next step.
      if (kwargs.durability !== "sync") tracked.hold = checkpointer?.holdCheckpoints?.(run.run_id, run.attempt);
      // A later attempt (its worker died) continues from the run's last checkpoint: no input,
      // so finished steps are not run again. Without a checkpoint yet, it starts over.
      const resuming = run.attempt > 1 && (await this.deps.checkpoints.hasRunCheckpoint(run.thread_id, run.run_id));
      if (resuming) logger.info({ runId: run.run_id, attempt: run.attempt }, "resuming run from its last checkpoint");
      const input = resuming
        ? null
        : kwargs.command && Object.keys(kwargs.command).length
          ? new Command(kwargs.command as ConstructorParameters<typeof Command>[0])
          : kwargs.resume_interrupt && kwargs.input != null && hasPendingInterrupt(latest)
            ? new Command({ resume: kwargs.input })
            : (kwargs.input ?? null);
      if (protocol) await protocol.start();
      await streamGraphRun(
        graph,
        input,
        {
          config: config as Record<string, unknown>,
          configurable,
          metadata,
          recursionLimit:
            (config.recursion_limit as number | undefined) ?? (config.recursionLimit as number | undefined),
          context: kwargs.context,
          streamMode: kwargs.stream_mode,
          subgraphs: !!kwargs.stream_subgraphs,
          interruptBefore: kwargs.interrupt_before,
          interruptAfter: kwargs.interrupt_after,
          durability: kwargs.durability,
          signal: controller.signal,
          runId: run.run_id,
          protocol: !!protocol,
          ...nodes?.options,
        },
        {
          event: (event, data) => sender.emit(event, data),
          values: (values) => {
            tracked.values = values;
            tracked.valuesJson = undefined;
          },
          valuesJson: (json) => {
            tracked.valuesJson = json;
            tracked.values = undefined;
          },
          interrupted: () => {
            tracked.interrupted = true;
          },
          protocol: async (event) => {
            if (event.method === "values" && !event.params.namespace?.length) track(tracked, event.params.data);
            await protocol!.event(event);
          },
        },
      );
      sender.check();
      // Its checkpoints held back and under way are stored (or failed, as a save would have).
      await checkpointer?.settleHeld?.(tracked.hold);
    } catch (error) {
      const reason = controller.signal.reason;
      const checkpointer = checkpointerOf(graph);
      if (reason instanceof SupersededError) {
        // The newer attempt owns the run now: this one leaves it as it is.
        sender.stop();
        checkpointer?.dropHeld?.(tracked.hold);
        logger.warn({ runId: run.run_id, attempt: run.attempt }, "run attempt superseded by a newer one; stopped");
        span?.ended("superseded");
        return;
      } else if (reason instanceof CancelledError) {
        status = "interrupted";
        tracked.cancelled = reason.action;
      } else if (isTransientError(error, { causes: false })) {
        // A connection fault, not the graph's: the run goes back to the queue and resumes from its
        // last checkpoint, as after a worker's death. Its event log stays open for its readers.
        // What it holds back is stored if it can be (a Redis fault, say): less to run again.
        await checkpointer?.flushHeld?.(tracked.hold).catch(() => undefined);
        sender.stop();
        checkpointer?.dropHeld?.(tracked.hold);
        await this.handBack(run, error);
        span?.ended("handed back", error);
        return;
      } else {
        status = "error";
        failure = failureOf(error);
        logger.warn({ err: error, runId: run.run_id }, "run failed");
        sendQuietly(sender, "error", serialize(failure));
      }
    } finally {
      nodes?.close();
      checkpointerOf(graph)?.forgetPrefetch?.(run.run_id);
      // A newer attempt of the run in this process has its own entry: leave it.
      if (this.active.get(run.run_id)?.controller === controller) this.active.delete(run.run_id);
    }
    span?.ended(status, failure && Object.assign(new Error(failure.message), { name: failure.error }));
    try {
      await this.finish(run, graph, status, tracked, failure, protocol);
    } finally {
      // Whatever it held and its end did not take (it failed first) is not kept.
      checkpointerOf(graph)?.dropHeld?.(tracked.hold);
    }
  }

  private async finish(
    run: RunRow,
    graph: any,
    status: RunStatus,
    tracked: Tracked,
    failure?: { error: string; message: string },
    protocol = this.protocolEvents(run),
  ): Promise<void> {
    const { runs, events, queue, logger } = this.deps;
    const sender = tracked.sender ?? new RunEventSender(events, run.run_id);
    // (Widened: the closures below may set it to any status.)
    let threadStatus = (status === "error" ? "error" : "idle") as ThreadStatus;
    let state: { values: string; interrupts: object } | null = null;
    // The common case: the run went to the end (its status can still turn to error below).
    const wentToEnd = () =>
      status === "success" &&
      !tracked.interrupted &&
      (tracked.values !== undefined || tracked.valuesJson !== undefined);
    // Its last checkpoint cannot be stored: the run failed, as it would have had that save failed
    // (its thread keeps the state of the checkpoints stored).
    const checkpointLost = async (cause: unknown) => {
      logger.warn({ err: cause, runId: run.run_id }, "cannot store the run's last checkpoint");
      state = null;
      if (status === "error") return;
      status = "error";
      threadStatus = "error";
      failure = failureOf(cause);
      sendQuietly(sender, "error", serialize(failure));
    };
    // Rollback: what the run wrote goes, then the run itself. The graph may still be finishing
    // writes in the background: they are dropped, and those under way stored, before the delete.
    const checkpointer = checkpointerOf(graph);
    if (tracked.cancelled === "rollback") {
      checkpointer?.dropHeld?.(tracked.hold);
      await checkpointer?.discardRun?.(run.run_id);
      await this.deps.checkpoints.deleteRunCheckpoints(run.thread_id, run.run_id);
    } else if (tracked.cancelled) {
      // Stopped where it was: what it was storing as it stopped is part of where that is (if that
      // cannot be stored, where it was is the last checkpoint stored).
      await checkpointer
        ?.flushHeld?.(tracked.hold)
        .catch((error) => logger.warn({ err: error, runId: run.run_id }, "cannot store a cancelled run's checkpoint"));
      await checkpointer?.settleRun?.(run.run_id);
    } else if (protocol || !wentToEnd()) {
      // Interrupted or failed: the state read below rests on its held checkpoints, stored first. A
      // protocol run's end is in its thread's log before the run is recorded ended: a client that
      // reads the thread's state on it must find its last checkpoint stored by then.
      try {
        await checkpointer?.flushHeld?.(tracked.hold);
      } catch (error) {
        if (isTransientError(error, { causes: false })) {
          sender.stop();
          return this.handBack(run, error);
        }
        await checkpointLost(error);
      }
    }
    // Interrupted, failed or cancelled: the state is read back from what was stored, for its
    // pending tasks (and so the thread's values agree with its state).
    const readBack = async () => {
      if (!graph) return;
      try {
        // Read as the API reads a state (messages as dicts): it is only written out as JSON.
        const snapshot = await readPlain(() =>
          graph!.getState({ configurable: { thread_id: run.thread_id, checkpoint_ns: "" } }),
        );
        const interrupts = interruptsOf(snapshot);
        const stopped = Object.keys(interrupts).length > 0 || (snapshot.next?.length ?? 0) > 0;
        // A cancelled run leaves the thread idle with its progress (interrupt) or without it.
        if (status !== "error" && stopped && !tracked.cancelled) threadStatus = "interrupted";
        state = { values: serialize(snapshot.values ?? {}), interrupts };
      } catch (error) {
        logger.warn({ err: error, runId: run.run_id }, "cannot read the thread state after a run");
      }
    };
    // The common case: the run went to the end; its last values chunk is the state.
    if (wentToEnd()) state = { values: tracked.valuesJson ?? serialize(tracked.values), interrupts: {} };
    else await readBack();
    // The run's outcome is known: a connection fault here is waited out, not turned into a failure.
    // The root's terminal lifecycle before the thread is freed: the thread's next run (queued, or
    // the one that interrupted this one) cannot start, and write its own, before it.
    if (protocol) {
      const end =
        status === "error"
          ? "failed"
          : status === "success" && threadStatus !== "interrupted"
            ? "completed"
            : "interrupted";
      await retryTransient(() => protocol.end(end, failure?.message), { attempts: 30 }).catch((error) =>
        logger.warn({ err: error, runId: run.run_id }, "cannot write the run's last protocol event"),
      );
    }
    // The run's last checkpoints, held back, are stored by the same statement.
    const held = await checkpointer?.takeHeld?.(tracked.hold);
    const end = (also?: typeof held) =>
      retryTransient(
        () =>
          runs.finish(
            { runId: run.run_id, threadId: run.thread_id, status },
            threadStatus,
            state,
            tracked.cancelled === "rollback",
            also?.ctes,
          ),
        {
          attempts: 30,
          onRetry: (error) => logger.warn({ err: error, runId: run.run_id }, "cannot record the run's end yet"),
        },
      );
    let next: string | undefined;
    try {
      next = await end(held);
    } catch (error) {
      // A connection fault was waited out above; another fault may be the checkpoint's: it goes
      // alone (as it would have without this), then the end; if it cannot, the run failed.
      if (!held || isTransientError(error, { causes: false })) throw error;
      logger.warn({ err: error, runId: run.run_id }, "cannot record the run's end with its last checkpoint");
      try {
        await checkpointer!.storeTaken!(run.run_id, held);
      } catch (cause) {
        await checkpointLost(cause);
        await readBack();
      }
      next = await end();
    }
    // Its checkpoints are stored: the events that waited for them go, before the log's end.
    sender.release();
    if (next) await queue.enqueue({ runId: next, threadId: run.thread_id });
    // Late writes of a rolled-back run stay dropped for a while, then it is forgotten.
    if (tracked.cancelled === "rollback") setTimeout(() => checkpointer?.forgetRun?.(run.run_id), 60_000).unref();
    // The log's end goes out once those events are written. The job does not wait for either: the
    // run is recorded ended, and the worker takes its next run sooner. Closing waits for the ends
    // under way (`settled`).
    void this.ending.track(this.endLog(run, status, failure, state, sender));
  }

  /** Ends a finished run's log, then tells those listening for finished runs. */
  private async endLog(
    run: RunRow,
    status: RunStatus,
    failure: { error: string; message: string } | undefined,
    state: { values: string } | null,
    sender: RunEventSender,
  ): Promise<void> {
    const { events, logger } = this.deps;
    try {
      // Behind the run's events: the log renumbers a run's entries in order (one at a time).
      await sender
        .settled()
        .catch((error) => logger.warn({ err: error, runId: run.run_id }, "cannot write all of the run's events"));
      await events.end(run.run_id);
    } catch (error) {
      logger.warn({ err: error, runId: run.run_id }, "cannot write the end of the run's log");
    }
    if (this.deps.finished.listened) {
      this.deps.finished.emit(finishedWithJson({ run, status, error: failure }, state?.values));
    }
  }

  /** The writer of a protocol run's events to its thread's log (none for other runs). */
  private protocolEvents(run: RunRow): ProtocolRunEvents | undefined {
    return run.kwargs.protocol
      ? new ProtocolRunEvents(this.deps.events.threads, run.thread_id, run.kwargs.graph_id)
      : undefined;
  }

  /** Settles once the ends of runs' logs under way are written (before the logs close). */
  async settled(): Promise<void> {
    await this.ending.settled();
  }

  /** Runs executing in this process. */
  activeRunIds(): Set<string> {
    return new Set(this.active.keys());
  }

  /**
   * Puts a run whose attempt died (a connection fault here, or its worker gone) back in the
   * queue, to resume from its last checkpoint; one that used up its attempts ends as `error`.
   */
  async handBack(run: RunRow, cause?: unknown): Promise<void> {
    const { runs, queue, logger } = this.deps;
    if (run.attempt >= (this.deps.maxAttempts ?? Infinity)) return this.giveUp(run, run.attempt, cause);
    logger.warn(
      { err: cause, runId: run.run_id, attempt: run.attempt },
      "run handed back to the queue; it resumes from its last checkpoint",
    );
    const released = await retryTransient(() => runs.release(run.run_id, run.attempt), { attempts: 30 });
    if (released) await queue.enqueue({ runId: run.run_id, threadId: run.thread_id }, { delayMs: HAND_BACK_DELAY_MS });
  }

  /** Ends a run that was started `attempts` times without finishing: `error`, its thread freed. */
  private async giveUp(run: RunRow, attempts: number, cause?: unknown): Promise<void> {
    const failure = {
      error: "RunAttemptsExhausted",
      message:
        `The run was started ${attempts} time(s) and never finished (its worker stopped, or a connection ` +
        `kept failing)${cause instanceof Error ? `: ${cause.message}` : ""}; RUN_MAX_ATTEMPTS is ${this.deps.maxAttempts}`,
    };
    this.deps.logger.error({ runId: run.run_id, attempts }, "run ended as error: it used up its attempts");
    await this.deps.events.append(run.run_id, "error", serialize(failure)).catch(() => undefined);
    await this.finish(run, undefined, "error", { values: undefined, interrupted: false }, failure);
  }

  /** Stops a run executing in this process (the control bus reaches the others). */
  cancelLocal(runId: string, action: "interrupt" | "rollback"): boolean {
    const controller = this.active.get(runId)?.controller;
    if (!controller) return false;
    controller.abort(new CancelledError(action));
    return true;
  }
}
