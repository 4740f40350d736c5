// Runs, API side: create (row + queue job), read, join, stream and cancel. Workers execute them
// (executor.ts); everything between the two goes through the queue, the event log and the
// control bus, so any API process can serve any run.
import type { AgentRuntime } from "@lgp/contracts";
import { ConflictError, NotFoundError, ServiceUnavailableError, retryTransient, type Logger } from "@lgp/server-kit";
import type { AssistantService } from "../assistants/service";
import { allowAll, authConfigurable, type AuthContext, type Authorize } from "../auth";
import type { GraphRegistry } from "../graphs/registry";
import { newRunId } from "../common/ids";
import { serialize } from "../common/serde";
import type { ControlBus, EventLog, RunEvent, RunJob, RunQueue } from "../queue/types";
import type { ThreadRepository } from "../threads/repository";
import {
  pendingRunRow,
  type InsertOutcome,
  type NewRun,
  type RunKwargs,
  type RunRepository,
  type RunRow,
  type RunStatus,
} from "./repository";
import type { RunFinishedHooks } from "./finished";
import type { RunCreatedObserver } from "./observers";
import { enqueueTraced, traced } from "../tracing/run-spans";
import { requestedModes } from "./stream-modes";
import { threadEvents, type ThreadStreamMode } from "./thread-stream";

type Schemas = AgentRuntime.components["schemas"];
export type Run = Schemas["Run"];
export type RunCreate = Schemas["RunCreate"];

const ACTIVE: RunStatus[] = ["pending", "running"];

export function toRun(row: RunRow): Run {
  return {
    run_id: row.run_id,
    thread_id: row.thread_id,
    assistant_id: row.assistant_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    status: row.status,
    metadata: row.metadata,
    kwargs: row.kwargs,
    multitask_strategy: row.multitask_strategy,
  };
}

export interface RunOutcome {
  values: unknown;
  error?: { error: string; message: string };
}

export interface RunServiceDeps {
  runs: RunRepository;
  graphs: GraphRegistry;
  threads: ThreadRepository;
  assistants: AssistantService;
  queue: RunQueue;
  events: EventLog;
  control: ControlBus;
  finished: RunFinishedHooks;
  /** The custom auth handlers (every run path checks the caller may see the run's thread). */
  authorize?: Authorize;
  logger?: Logger;
  /** Counts the runs created. */
  metrics?: RunCreatedObserver;
}

/** How long a request waits for its stored run to be queued before it answers anyway. */
const DELIVERY_WAIT_MS = 5_000;

/** What a caller does to a thread through its runs, as the auth handlers name it. */
type ThreadAction = "read" | "update" | "delete";

/** How long a thread this process ran on counts as known to exist (see `start`'s `eager`). */
const KNOWN_THREAD_MS = 60_000;
const KNOWN_THREADS_MAX = 10_000;

/** Who asks for a run: the authenticated user, and the request headers that reach its `configurable`. */
export interface RunCaller {
  auth?: AuthContext;
  headers?: Record<string, string>;
}

export class RunService {
  /** Threads with a run created here recently, by id, with the time they stop counting. */
  private readonly knownThreads = new Map<string, number>();

  private readonly authorize: Authorize;

  constructor(private readonly deps: RunServiceDeps) {
    this.authorize = deps.authorize ?? allowAll;
  }

  /**
   * 404 unless the caller may `action` the thread (another user's thread is as if absent). Costs
   * nothing without a caller or when its handler returns no filter.
   */
  private async checkThread(threadId: string, auth: AuthContext | undefined, action: ThreadAction): Promise<void> {
    if (!auth) return;
    const { filters } = await this.authorize(auth, `threads:${action}`, { thread_id: threadId });
    if (filters && !(await this.deps.threads.find(threadId, filters)))
      throw new NotFoundError(`Thread "${threadId}" not found`);
  }

  private isKnownThread(threadId: string): boolean {
    const until = this.knownThreads.get(threadId);
    return until !== undefined && until > Date.now();
  }

  private rememberThread(threadId: string): void {
    if (this.knownThreads.size >= KNOWN_THREADS_MAX) this.knownThreads.clear();
    this.knownThreads.set(threadId, Date.now() + KNOWN_THREAD_MS);
  }

  /** A thread deleted here is known no more. */
  forgetThread(threadId: string): void {
    this.knownThreads.delete(threadId);
  }

  /**
   * Creates a run on a thread and queues it: the domain entry point for every kind of run
   * (background, streamed, waited, stateless, cron). The run's first event (`metadata`) is in its
   * event log before a worker can take it.
   */
  async create(
    threadId: string,
    body: RunCreate,
    options: RunCaller & { temporary?: boolean; protocol?: boolean; resumeInterrupt?: boolean } = {},
  ): Promise<RunRow> {
    const { run, queued } = await this.start(threadId, body, options);
    await queued;
    return run;
  }

  /**
   * What refuses a run before anything is stored, checked alone (a batch checks all its runs before
   * it creates any): Redis out of reach (503), an unknown assistant (404), a graph that failed to
   * load at start-up (409). Answers the assistant.
   */
  async creatable(body: Pick<RunCreate, "assistant_id">) {
    const { assistants, queue, events } = this.deps;
    // Nothing is stored while Redis is out of reach: a 503 the client retries, never a 500 after a
    // stored run (the official clients retry 5xx, and each retry would have made another run).
    if (!queue.reachable() || !events.reachable()) {
      throw new ServiceUnavailableError("The run queue is unreachable: no run was created; retry shortly");
    }
    const assistant = await assistants.resolve(body.assistant_id, { cached: true });
    // A graph that failed to load at start-up answers 409 now rather than a failed run later.
    this.deps.graphs.assertLoaded(assistant.graph_id);
    return assistant;
  }

  /**
   * `create` in two steps, for streams: answers as soon as the run row exists, with the run's
   * first event (`metadata`, whose id is known in advance) and `queued`, which settles once that
   * event is stored and the run queued. A stream sends the first event meanwhile.
   */
  async start(
    threadId: string,
    body: RunCreate,
    options: RunCaller & { temporary?: boolean; eager?: boolean; protocol?: boolean; resumeInterrupt?: boolean } = {},
  ): Promise<{ run: RunRow; first: RunEvent; queued: Promise<void> }> {
    const { runs, threads, events } = this.deps;
    const { auth } = options;
    const assistant = await this.creatable(body);
    const runId = newRunId();
    const strategy = body.multitask_strategy ?? "enqueue";
    const { filters: access, value: authorized } = await this.authorize(auth, "threads:create_run", {
      thread_id: threadId,
      assistant_id: assistant.assistant_id,
      run_id: runId,
      metadata: { ...(body.metadata ?? {}) } as Record<string, unknown>,
      multitask_strategy: strategy,
      if_not_exists: body.if_not_exists,
      after_seconds: body.after_seconds,
    });
    const streamMode = requestedModes(body.stream_mode);
    const given = body.config ?? {};
    // langgraph.json's http.configurable_headers: the request's headers, under what the body sets.
    const config =
      options.headers && Object.keys(options.headers).length
        ? { ...given, configurable: { ...options.headers, ...(given.configurable as object) } }
        : given;
    const kwargs: RunKwargs = {
      graph_id: assistant.graph_id,
      input: body.input ?? null,
      command: body.command ?? null,
      // The caller reaches the graph as `configurable.langgraph_auth_user` (and its id, permissions).
      config: auth
        ? { ...config, configurable: { ...(config.configurable as object), ...authConfigurable(auth) } }
        : config,
      context: { ...assistant.context, ...(body.context ?? {}) },
      stream_mode: streamMode,
      stream_subgraphs: body.stream_subgraphs ?? false,
      interrupt_before: body.interrupt_before,
      interrupt_after: body.interrupt_after,
      checkpoint_id: body.checkpoint_id,
      checkpoint: body.checkpoint as Record<string, unknown> | undefined,
      durability: body.durability,
      webhook: body.webhook,
      on_completion: body.on_completion,
      on_disconnect: body.on_disconnect ?? "continue",
      temporary: options.temporary ?? false,
      assistant_config: assistant.config,
      assistant_metadata: assistant.metadata,
      // `after_seconds`: the run may not start earlier (counted from its creation, in database time).
      after_seconds: body.after_seconds || undefined,
      // A run of the thread-centric protocol: its events go to the thread's protocol log.
      ...(options.protocol ? { protocol: true } : {}),
      ...(options.resumeInterrupt ? { resume_interrupt: true } : {}),
    };
    const newRun = {
      runId,
      threadId,
      assistantId: assistant.assistant_id,
      metadata: authorized.metadata ?? {},
      kwargs,
      multitaskStrategy: strategy,
      threadMetadata: { graph_id: assistant.graph_id, assistant_id: assistant.assistant_id },
      threadConfig: { assistant: assistant.config, run: body.config ?? {} },
      rejectIfBusy: strategy === "reject",
      access,
      // May be claimed as it is stored (one statement fewer) when a worker here is free for it.
      claim: !body.after_seconds,
    };
    const data = serialize({ run_id: runId, attempt: 1 });
    const first: RunEvent = { id: events.firstId, event: "metadata", data };
    const delayMs = body.after_seconds ? Math.round(body.after_seconds * 1000) : undefined;
    if (
      options.eager &&
      !access &&
      strategy === "enqueue" &&
      body.if_not_exists !== "create" &&
      this.isKnownThread(threadId)
    ) {
      // A thread this process has just run on: the stream starts now, while the run is stored
      // (it can only fail if the thread was deleted meanwhile: the stream then ends in an error).
      const queued = this.insert(newRun).then(async (outcome) => {
        if (!("run" in outcome)) {
          this.knownThreads.delete(threadId);
          throw new NotFoundError(`Thread "${threadId}" not found`);
        }
        await this.deliver({ runId, threadId, claimed: outcome.claimed }, data, delayMs);
      });
      queued.catch(() => undefined); // observed by the caller; never an unhandled rejection
      return { run: pendingRunRow(newRun, new Date()), first, queued };
    }
    let outcome = await this.insert(newRun);
    if ("missingThread" in outcome && body.if_not_exists === "create") {
      // A thread made for a caller carries what its handler stamped on the run (its owner).
      await threads.insert({ threadId, metadata: auth ? (authorized.metadata ?? {}) : {} });
      outcome = await this.insert(newRun);
    }
    if ("missingThread" in outcome) throw new NotFoundError(`Thread "${threadId}" not found`);
    if ("busy" in outcome) {
      throw new ConflictError(
        `Thread "${threadId}" is busy with another run; multitask_strategy "reject" refuses a new one`,
      );
    }
    // A run its creation claimed had its thread to itself: nothing to interrupt.
    if ((strategy === "interrupt" || strategy === "rollback") && !outcome.claimed) {
      for (const other of await runs.activeRuns(threadId)) {
        if (other.run_id !== runId) await this.cancelRow(other, strategy);
      }
    }
    this.rememberThread(threadId);
    return {
      run: outcome.run,
      first,
      queued: this.deliver({ runId, threadId, claimed: outcome.claimed }, data, delayMs),
    };
  }

  /**
   * Stores a new run. One eligible to be claimed by its creation is, when a worker of this process
   * can be reserved for it (the in-process queue): its job then starts as soon as it is added.
   */
  private async insert(newRun: NewRun): Promise<InsertOutcome> {
    const { runs, queue } = this.deps;
    const reserved = !!newRun.claim && (queue.reserveWorker?.() ?? false);
    let outcome: InsertOutcome | undefined;
    try {
      outcome = await traced(
        "run create",
        {
          "langgraph.run.id": newRun.runId,
          "langgraph.thread.id": newRun.threadId,
          "langgraph.graph.id": newRun.kwargs.graph_id,
        },
        () => runs.insert({ ...newRun, claim: reserved }),
      );
      if ("run" in outcome) this.deps.metrics?.created(newRun.kwargs.graph_id);
      return outcome;
    } finally {
      if (reserved && !(outcome && "claimed" in outcome && outcome.claimed)) queue.releaseWorker?.();
    }
  }

  /**
   * Stores a stored run's first event, then queues it (so a worker's events always come after it).
   * The run row is committed: a failure now is retried in the background and, past that, left to
   * the run sweep, which queues pending runs nothing woke. The caller never sees it fail (a 5xx
   * would make the client create the run again) and waits for it at most DELIVERY_WAIT_MS.
   */
  private deliver(job: RunJob, data: string, delayMs: number | undefined): Promise<void> {
    const { runId } = job;
    const { events, queue, logger } = this.deps;
    const delivery = retryTransient(
      async () => {
        await events.appendFirst(runId, "metadata", data);
        await enqueueTraced(job, (traced) => queue.enqueue(traced, { delayMs }));
      },
      { attempts: 10 },
    ).catch((error) => {
      if (job.claimed) queue.releaseWorker?.();
      logger?.error({ err: error, runId }, "cannot queue the stored run; the run sweep will queue it");
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DELIVERY_WAIT_MS);
      timer.unref();
    });
    return Promise.race([delivery.then(() => clearTimeout(timer)), waited]);
  }

  async get(threadId: string, runId: string, auth?: AuthContext, action: ThreadAction = "read"): Promise<RunRow> {
    await this.checkThread(threadId, auth, action);
    const run = await this.deps.runs.find(threadId, runId);
    if (!run) throw new NotFoundError(`Run "${runId}" not found`);
    return run;
  }

  async list(
    threadId: string,
    query: { limit?: number; offset?: number; status?: RunStatus },
    auth?: AuthContext,
  ): Promise<RunRow[]> {
    const { filters } = await this.authorize(auth, "threads:read", { thread_id: threadId });
    if (!(await this.deps.threads.find(threadId, filters))) throw new NotFoundError(`Thread "${threadId}" not found`);
    return this.deps.runs.list(threadId, { limit: query.limit ?? 10, offset: query.offset ?? 0, status: query.status });
  }

  async delete(threadId: string, runId: string, auth?: AuthContext): Promise<void> {
    const run = await this.get(threadId, runId, auth, "delete");
    if (ACTIVE.includes(run.status)) throw new ConflictError(`Run "${runId}" is ${run.status}; cancel it first`);
    await this.deps.runs.delete(threadId, runId);
    await this.deps.events.remove(runId);
  }

  /**
   * The run's events from after `lastEventId` until it ends (`signal` stops early). A run that
   * has already ended yields nothing more than what its log still holds.
   */
  async *events(
    run: Pick<RunRow, "run_id" | "status">,
    options: { lastEventId?: string; signal?: AbortSignal; modes?: string[] } = {},
  ): AsyncIterable<RunEvent> {
    const ended = !ACTIVE.includes(run.status);
    const modes = options.modes?.length
      ? new Set(options.modes.map((mode) => (mode === "messages-tuple" ? "messages" : mode)))
      : undefined;
    const wanted = (event: string) =>
      !modes || event === "metadata" || event === "error" || modes.has(event.split(/[|/]/)[0]);
    if (ended) {
      // Replays what is left without waiting: an ended run's log may have expired.
      const controller = new AbortController();
      options.signal?.addEventListener("abort", () => controller.abort());
      const timer = setTimeout(() => controller.abort(), 250);
      try {
        for await (const event of this.deps.events.read(run.run_id, {
          after: options.lastEventId,
          signal: controller.signal,
        })) {
          if (wanted(event.event)) yield event;
        }
      } finally {
        clearTimeout(timer);
      }
      return;
    }
    for await (const event of this.deps.events.read(run.run_id, {
      after: options.lastEventId,
      signal: options.signal,
    })) {
      if (wanted(event.event)) yield event;
    }
  }

  /**
   * A run by its id alone, for its events (an idempotent repeat joining it): a run whose row went
   * with its thread (a stateless run's, deleted once the run ended) stands as ended, and its events
   * are what its log still holds.
   */
  async eventSource(runId: string): Promise<Pick<RunRow, "run_id" | "status">> {
    return (await this.deps.runs.findById(runId)) ?? { run_id: runId, status: "success" };
  }

  /** Waits for a run to end; answers the thread's values then (and the run's error, if any). */
  async join(threadId: string, runId: string, signal?: AbortSignal, auth?: AuthContext): Promise<RunOutcome> {
    const run = await this.get(threadId, runId, auth);
    let error: RunOutcome["error"];
    if (ACTIVE.includes(run.status)) {
      for await (const event of this.deps.events.read(runId, { signal })) {
        if (event.event === "error") error = JSON.parse(event.data) as RunOutcome["error"];
      }
    }
    const thread = await this.deps.threads.find(threadId);
    return { values: thread?.values ?? {}, error };
  }

  /** GET /threads/{id}/stream: 404 for a thread that does not exist, checked before streaming. */
  async assertThread(threadId: string, auth?: AuthContext): Promise<void> {
    const { filters } = await this.authorize(auth, "threads:read", { thread_id: threadId });
    if (!(await this.deps.threads.find(threadId, filters))) throw new NotFoundError(`Thread "${threadId}" not found`);
  }

  /** Every run of the thread, in turn, from its active one on (see thread-stream.ts). */
  threadEvents(
    threadId: string,
    options: { modes: ThreadStreamMode[]; lastEventId?: string; signal?: AbortSignal },
  ): AsyncIterable<RunEvent> {
    return threadEvents({ runs: this.deps.runs, threads: this.deps.threads, service: this }, threadId, options);
  }

  async cancel(
    threadId: string,
    runId: string,
    options: { wait?: boolean; action?: "interrupt" | "rollback"; signal?: AbortSignal; auth?: AuthContext } = {},
  ): Promise<void> {
    const run = await this.get(threadId, runId, options.auth, "update");
    await this.cancelRow(run, options.action ?? "interrupt");
    // Waits for the run's log to end (its row may be gone: rollback deletes it as it ends).
    if (options.wait && ACTIVE.includes(run.status)) {
      for await (const _event of this.deps.events.read(runId, { signal: options.signal })) {
        // drained
      }
    }
  }

  async cancelMany(
    query: { thread_id?: string; run_ids?: string[]; status?: string },
    action: "interrupt" | "rollback",
    auth?: AuthContext,
  ): Promise<void> {
    const rows: RunRow[] = [];
    if (query.run_ids?.length) {
      for (const runId of query.run_ids) {
        const run = await this.deps.runs.findById(runId);
        if (!run || (query.thread_id && run.thread_id !== query.thread_id))
          throw new NotFoundError(`Run "${runId}" not found`);
        rows.push(run);
      }
    } else if (query.thread_id) {
      rows.push(...(await this.deps.runs.activeRuns(query.thread_id)));
    }
    // Nothing is cancelled unless the caller may update every thread involved.
    for (const threadId of new Set(rows.map((run) => run.thread_id))) {
      try {
        await this.checkThread(threadId, auth, "update");
      } catch (error) {
        const runId = rows.find((run) => run.thread_id === threadId)?.run_id;
        throw error instanceof NotFoundError && query.run_ids?.length
          ? new NotFoundError(`Run "${runId}" not found`)
          : error;
      }
    }
    for (const run of rows) {
      if (query.status && query.status !== "all" && run.status !== query.status) continue;
      await this.cancelRow(run, action);
    }
  }

  /** Pending: never starts (ends now). Running: its worker is told to stop. Ended: nothing to do. */
  private async cancelRow(run: RunRow, action: "interrupt" | "rollback"): Promise<void> {
    const { runs, events, queue, control } = this.deps;
    if (run.status === "pending" && (await runs.setStatus(run.run_id, "interrupted", ["pending"]))) {
      const thread = await this.deps.threads.find(run.thread_id);
      const status = thread && Object.keys(thread.interrupts ?? {}).length ? "interrupted" : "idle";
      const next = await runs.finish(
        { runId: run.run_id, threadId: run.thread_id, status: "interrupted" },
        status,
        null,
        action === "rollback",
      );
      if (next) await queue.enqueue({ runId: next, threadId: run.thread_id });
      await events.end(run.run_id);
      // It never ran, but it has ended: webhooks fire and a stateless run's thread goes.
      this.deps.finished.emit({
        run: { ...run, status: "interrupted" },
        status: "interrupted",
        values: thread?.values ?? null,
      });
      return;
    }
    const current = await runs.findById(run.run_id);
    if (current?.status === "running") await control.publish({ kind: "cancel", runId: run.run_id, action });
  }
}
