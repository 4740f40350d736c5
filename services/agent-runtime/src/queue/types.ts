// The two interfaces runs travel through: a queue of run jobs (BullMQ with Redis, in-process
// without) and a per-run event log that stream readers follow (Redis Streams, or in memory).
import type { Claimed } from "../runs/repository";

export interface RunJob {
  runId: string;
  threadId: string;
  /**
   * The run as its creation claimed it (the in-process queue, with a worker reserved for it): the
   * job starts at once, and its worker executes the run without claiming it again.
   */
  claimed?: Claimed;
  /** The trace context of its hand-over (W3C Trace Context), when tracing is on. */
  traceparent?: string;
  tracestate?: string;
}

/**
 * What a worker did with a job: `done` (executed, or nothing to do), or `parked`: the thread is
 * busy with an earlier run; the run that ends wakes the thread's next run (RunQueue.enqueue again).
 */
export type JobOutcome = "done" | "parked";

export type JobHandler = (job: RunJob, context: { attempt: number; signal: AbortSignal }) => Promise<JobOutcome>;

export interface RunQueue {
  /** Adds a job; a job for a run that already has one waiting is not duplicated. */
  enqueue(job: RunJob, options?: { delayMs?: number }): Promise<void>;
  /** Whether jobs can be added right now (false while Redis is unreachable). */
  reachable(): boolean;
  /**
   * Reserves a free worker of this process for a job about to be added, whose run its creation
   * then claims: that job starts at once when added (false when no worker is free). A queue whose
   * jobs any process may take (Redis) has none.
   */
  reserveWorker?(): boolean;
  /** Gives back a reserved worker that no job took (the creation did not claim its run). */
  releaseWorker?(): void;
  /**
   * Runs whose job some worker holds, in any process (what the stuck-run sweep must leave alone);
   * the in-process queue knows only its own process, whose executor answers for it.
   */
  heldRunIds(): Promise<Set<string>>;
  /** Starts `concurrency` workers in this process executing jobs with `handler`. */
  startWorkers(concurrency: number, handler: JobHandler): void;
  /** Stops taking jobs, lets running ones finish (or hands them back), closes connections. */
  close(): Promise<void>;
}

export interface RunEvent {
  id: string;
  event: string;
  /** The payload, already serialised as JSON. */
  data: string;
}

export interface EventLog {
  /** Whether events can be written right now (false while Redis is unreachable). */
  reachable(): boolean;
  /** Appends an event to a run's log; returns its id (increasing within the run). */
  append(runId: string, event: string, data: string): Promise<string>;
  /**
   * The id the first event of a run's log gets (`appendFirst`), known before it is written, so
   * a stream can send that event while it is being stored.
   */
  readonly firstId: string;
  /** Appends a run's first event (its log must be empty), with id `firstId`. */
  appendFirst(runId: string, event: string, data: string): Promise<void>;
  /** Marks the log complete: readers stop after the last event. */
  end(runId: string): Promise<void>;
  /**
   * Follows a run's log: events after `after` (all when absent), then live ones, until the log
   * ends or `signal` aborts.
   */
  read(runId: string, options: { after?: string; signal?: AbortSignal }): AsyncIterable<RunEvent>;
  /** Removes a run's log (its run was deleted). */
  remove(runId: string): Promise<void>;
  /**
   * A thread's protocol log (the thread-centric protocol): the events of its protocol runs, one
   * after another, numbered 1, 2, ... across runs (`seq`). Written by the worker executing a run,
   * read by any API process; bounded (the oldest go first) and kept a day after the last write.
   */
  readonly threads: ThreadLog;
  close(): Promise<void>;
}

export interface ThreadLogEntry {
  seq: number;
  method: string;
  /** The event's `params`, already serialised as JSON. */
  params: string;
}

export interface ThreadLog {
  /** Appends events in order, numbered consecutively, in one step; returns the last one's `seq`. */
  appendMany(threadId: string, entries: { method: string; params: string }[]): Promise<number>;
  /** Follows the log: entries after `since` (all kept when absent), then live ones, until `signal` aborts. */
  read(threadId: string, options: { since?: number; signal?: AbortSignal }): AsyncIterable<ThreadLogEntry>;
  /** The entries kept with `since < seq <= until`, at once (no waiting for more). */
  range(threadId: string, since: number, until: number): Promise<ThreadLogEntry[]>;
  /** The seq of the thread's latest event (0 when it has none). */
  lastSeq(threadId: string): Promise<number>;
  /** Removes a thread's log (its thread was deleted). */
  remove(threadId: string): Promise<void>;
}

/** Entries a thread's protocol log keeps (the oldest are dropped first). */
export const THREAD_LOG_MAX_ENTRIES = 10_000;

/** Run control messages between API processes and workers. */
export interface ControlBus {
  publish(message: ControlMessage): Promise<void>;
  subscribe(listener: (message: ControlMessage) => void): void;
  close(): Promise<void>;
}

/**
 * `cancel` stops a run; `superseded` says a run was claimed again (attempt `attempt`, after its
 * worker lost its hold on it): an older attempt still executing somewhere stops, without a word.
 */
export type ControlMessage =
  | { kind: "cancel"; runId: string; action: "interrupt" | "rollback" }
  | { kind: "superseded"; runId: string; attempt: number };
