// The embedded mode's worker threads (WORKER_THREADS): the in-process queue hands each job to
// the thread with the fewest jobs, so runs execute beside the main thread's HTTP, SSE and queue
// work instead of on the same core. The main thread keeps everything readers and hooks use: the
// event logs (filled from the threads' messages, in order), the queue, the control bus and the
// run-finished hooks. A thread that dies is replaced; its runs are left `running`, and the run
// sweep hands them back to resume from their last checkpoint, as after a worker process's death.
// A thread that dies again soon after it started is replaced later each time (a graph that ends
// its thread on every run would otherwise keep the process reloading graphs); meanwhile its jobs
// wait for it rather than run on the main thread, where such a graph would end the whole process.
import type { Worker } from "node:worker_threads";
import path from "node:path";
import type { Logger } from "@lgp/server-kit";
import { startTypeScriptWorker } from "../common/typescript-worker";
import type { ControlBus, EventLog, JobHandler, JobOutcome, RunJob, RunQueue } from "../queue/types";
import { finishedWithJson, type RunFinishedHooks } from "../runs/finished";
import type { RunStartObserver } from "../runs/observers";
import type { FromThread, ThreadSettings, ToThread } from "./messages";

/** How long a thread has to close its connections once its jobs have ended. */
const CLOSE_MS = 10_000;
/** A thread that dies sooner than this after it started counts as dying again soon. */
const SHORT_LIFE_MS = 60_000;
/** The wait before replacing a thread that died again soon: doubled each time, up to the most. */
const RESPAWN_FIRST_DELAY_MS = 1_000;
const RESPAWN_MAX_DELAY_MS = 30_000;

/** How long to wait before replacing a thread, its slot having died `deaths` times in a row soon after starting. */
export function respawnDelayMs(deaths: number): number {
  return deaths <= 1 ? 0 : Math.min(RESPAWN_MAX_DELAY_MS, RESPAWN_FIRST_DELAY_MS * 2 ** (deaths - 2));
}

interface Pending {
  job: RunJob;
  resolve(outcome: JobOutcome): void;
  /** Whether the run's event log was ended (the thread finished the run). */
  ended?: boolean;
}

interface RunThread {
  worker: Worker;
  ready: Promise<void>;
  /** Whether it has loaded its graphs (one that never did is not started again). */
  started: boolean;
  /** Whether it could not start: its jobs execute on the main thread. */
  failed: boolean;
  /** When it said it was ready. */
  readyAt?: number;
  /** Whether it exited after starting: its replacement may be waiting (see respawnDelayMs). */
  dead: boolean;
  /** Settles when the thread has exited. */
  exited: Promise<void>;
  /** Jobs sent to it, by id. */
  pending: Map<number, Pending>;
  /** Jobs given to it, those still waiting for it to start included. */
  load: number;
}

export interface RunThreadsDeps {
  events: EventLog;
  queue: Pick<RunQueue, "enqueue">;
  control: ControlBus;
  finished: RunFinishedHooks;
  logger: Logger;
  /** Executes a job on the main thread when its thread could not start. */
  fallback: JobHandler;
  /**
   * Called for each run a thread was executing when it died before ending the run's event log:
   * a run it had already finished in the database still needs its log ended and its hooks run.
   * (One still `running` is handed back by the run sweep.)
   */
  lost(job: RunJob): Promise<void>;
  /** Told of each attempt a thread starts (the metrics). */
  observer?: RunStartObserver;
}

export class RunThreads {
  private readonly threads: RunThread[] = [];
  private nextId = 1;
  /** Runs whose job waits for its thread to start (held all the same: see activeRunIds). */
  private readonly waiting = new Set<string>();
  private closing = false;
  /** Deaths soon after starting in a row, by slot. */
  private readonly shortLives: number[] = [];
  /** Replacements waiting for their delay. */
  private readonly respawns = new Set<NodeJS.Timeout>();
  /** Jobs waiting for a thread to be replaced (every thread being dead). */
  private replaced: (() => void)[] = [];

  constructor(
    private readonly settings: Omit<ThreadSettings, "index">,
    count: number,
    private readonly deps: RunThreadsDeps,
  ) {
    for (let index = 0; index < count; index += 1) this.threads.push(this.spawn(index));
    // Cancels (and a newer attempt's word) reach the runs wherever they execute.
    deps.control.subscribe((message) => this.broadcast({ kind: "control", message }));
  }

  private spawn(index: number): RunThread {
    const worker = startTypeScriptWorker(path.join(__dirname, "thread.ts"), {
      settings: { ...this.settings, index } satisfies ThreadSettings,
    });
    const pending = new Map<number, Pending>();
    let ready!: { resolve(): void; reject(error: Error): void };
    let exited!: () => void;
    const thread: RunThread = {
      worker,
      pending,
      started: false,
      failed: false,
      dead: false,
      load: 0,
      ready: new Promise<void>((resolve, reject) => (ready = { resolve, reject })),
      exited: new Promise<void>((resolve) => (exited = resolve)),
    };
    thread.ready.catch((error) => {
      thread.failed = true;
      this.deps.logger.error(
        { err: error, thread: index },
        "a run thread cannot start; its jobs execute on the main thread",
      );
    });
    worker.on("message", (message: FromThread) => this.receive(thread, message, ready));
    worker.on("error", (error) => this.deps.logger.error({ err: error, thread: index }, "run thread failed"));
    worker.on("exit", (code) => {
      exited();
      ready.reject(new Error(`run thread ${index} exited (code ${code}) before it was ready`));
      // Its runs still `running` are handed back by the sweep (nothing here holds them any more);
      // those it had finished but not announced are announced here.
      for (const job of pending.values()) {
        if (!job.ended)
          void this.deps
            .lost(job.job)
            .catch((error) =>
              this.deps.logger.error({ err: error, runId: job.job.runId }, "cannot settle a lost thread's run"),
            );
        job.resolve("done");
      }
      pending.clear();
      // One that never started is not started again (its jobs execute on the main thread).
      if (this.closing || !thread.started) return;
      thread.dead = true;
      const lived = Date.now() - (thread.readyAt ?? Date.now());
      const deaths = lived < SHORT_LIFE_MS ? (this.shortLives[index] ?? 0) + 1 : 1;
      this.shortLives[index] = deaths;
      const inMs = respawnDelayMs(deaths);
      this.deps.logger.error(
        { thread: index, code, inMs },
        inMs
          ? "run thread exited again soon after it started; starting another later"
          : "run thread exited; starting another",
      );
      const replace = () => {
        if (this.closing) return;
        this.threads[this.threads.indexOf(thread)] = this.spawn(index);
        for (const wake of this.replaced.splice(0)) wake();
      };
      if (!inMs) return replace();
      const timer = setTimeout(() => {
        this.respawns.delete(timer);
        replace();
      }, inMs);
      this.respawns.add(timer);
    });
    return thread;
  }

  private receive(
    thread: RunThread,
    message: FromThread,
    ready: { resolve(): void; reject(error: Error): void },
  ): void {
    const { events, queue, control, finished, logger } = this.deps;
    const failed = (error: unknown) =>
      logger.error({ err: error, kind: message.kind }, "cannot apply a run thread's message");
    switch (message.kind) {
      case "append":
        events.append(message.runId, message.event, message.data).catch(failed);
        break;
      case "end":
        for (const job of thread.pending.values()) if (job.job.runId === message.runId) job.ended = true;
        events.end(message.runId).catch(failed);
        break;
      case "thread-append":
        events.threads.appendMany(message.threadId, message.entries).catch(failed);
        break;
      case "enqueue":
        queue.enqueue(message.job, { delayMs: message.delayMs }).catch(failed);
        break;
      case "publish":
        control.publish(message.message).catch(failed);
        break;
      case "finished":
        finished.emit(finishedWithJson(message.event, message.event.valuesJson));
        break;
      case "started":
        this.deps.observer?.started(message.run);
        break;
      case "outcome": {
        const job = thread.pending.get(message.id);
        thread.pending.delete(message.id);
        job?.resolve(message.outcome === "failed" ? "done" : message.outcome);
        break;
      }
      case "ready":
        thread.started = true;
        thread.readyAt = Date.now();
        ready.resolve();
        break;
      case "start-failed":
        ready.reject(new Error(`a run thread cannot start: ${message.message}`));
        break;
    }
  }

  private broadcast(message: ToThread): void {
    for (const thread of this.threads) thread.worker.postMessage(message);
  }

  /** The queue's job handler: the job goes to the thread with the fewest jobs. */
  readonly handle: JobHandler = async (job, { attempt, signal }) => {
    let thread = this.leastLoaded();
    if (!thread && this.replacing()) {
      // Every thread died and waits to be replaced: the job waits too (see the top of this file),
      // its run held meanwhile (the sweep would hand a claimed run back: a second job).
      this.waiting.add(job.runId);
      try {
        while (!thread && this.replacing()) {
          await new Promise<void>((resolve) => this.replaced.push(resolve));
          thread = this.leastLoaded();
        }
      } finally {
        this.waiting.delete(job.runId);
      }
    }
    // Closing: the run is left for the sweep, as a dying thread leaves its runs.
    if (!thread && this.closing) return "done";
    if (!thread) return this.deps.fallback(job, { attempt, signal });
    const chosen = thread;
    chosen.load += 1;
    // Held from now on (a run its creation claimed is `running` already), not only once posted.
    this.waiting.add(job.runId);
    try {
      try {
        await chosen.ready;
      } catch {
        return await this.deps.fallback(job, { attempt, signal });
      } finally {
        this.waiting.delete(job.runId);
      }
      const id = this.nextId++;
      return await new Promise<JobOutcome>((resolve) => {
        chosen.pending.set(id, { job, resolve });
        chosen.worker.postMessage({ kind: "job", id, job, attempt } satisfies ToThread);
      });
    } finally {
      chosen.load -= 1;
    }
  };

  /** Whether a thread that died waits for its replacement (none comes once closing). */
  private replacing(): boolean {
    return !this.closing && this.threads.some((candidate) => candidate.dead);
  }

  /** The live thread with the fewest jobs (none when every thread failed to start or died). */
  private leastLoaded(): RunThread | undefined {
    let thread: RunThread | undefined;
    for (const candidate of this.threads)
      if (!candidate.failed && !candidate.dead && (!thread || candidate.load < thread.load)) thread = candidate;
    return thread;
  }

  /** Runs the threads are executing (the run sweep leaves them alone). */
  activeRunIds(): Set<string> {
    const ids = new Set<string>(this.waiting);
    for (const thread of this.threads) for (const job of thread.pending.values()) ids.add(job.job.runId);
    return ids;
  }

  /** Ends the threads; call once the queue has let their jobs end. */
  async close(): Promise<void> {
    this.closing = true;
    for (const timer of this.respawns) clearTimeout(timer);
    this.respawns.clear();
    for (const wake of this.replaced.splice(0)) wake();
    await Promise.all(
      this.threads.map(async ({ worker, exited }) => {
        worker.postMessage({ kind: "close" } satisfies ToThread); // nothing happens if it has exited
        const timer = setTimeout(() => void worker.terminate(), CLOSE_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}
