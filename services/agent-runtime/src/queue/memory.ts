// In-process queue, event log and control bus for the embedded mode (no REDIS_URL): the same
// interfaces as the Redis ones, for a single process.
import { EventEmitter } from "node:events";
import {
  THREAD_LOG_MAX_ENTRIES,
  type ControlBus,
  type ControlMessage,
  type EventLog,
  type JobHandler,
  type RunEvent,
  type RunJob,
  type RunQueue,
  type ThreadLog,
  type ThreadLogEntry,
} from "./types";

export class MemoryRunQueue implements RunQueue {
  private readonly ready: RunJob[] = [];
  private readonly queued = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private handler?: JobHandler;
  private concurrency = 0;
  private active = 0;
  /** Workers reserved for jobs about to be added (runs their creation claims). */
  private reserved = 0;
  private closed = false;
  private readonly abort = new AbortController();
  private readonly idle = new EventEmitter();

  async enqueue(job: RunJob, options: { delayMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    if (options.delayMs && options.delayMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.enqueue(job);
      }, options.delayMs);
      this.timers.add(timer);
      return;
    }
    if (this.queued.has(job.runId)) return;
    this.queued.add(job.runId);
    if (job.claimed && this.reserved > 0) {
      // Its worker was reserved when its creation claimed it: it goes first, at once.
      this.reserved -= 1;
      this.ready.unshift(job);
    } else {
      this.ready.push(job);
    }
    this.pump();
  }

  reachable(): boolean {
    return true;
  }

  reserveWorker(): boolean {
    if (!this.handler || this.closed || this.active + this.reserved + this.ready.length >= this.concurrency)
      return false;
    this.reserved += 1;
    return true;
  }

  releaseWorker(): void {
    if (this.reserved > 0) this.reserved -= 1;
    this.pump();
  }

  async heldRunIds(): Promise<Set<string>> {
    return new Set();
  }

  startWorkers(concurrency: number, handler: JobHandler): void {
    this.handler = handler;
    this.concurrency += concurrency;
    this.pump();
  }

  private pump(): void {
    while (this.handler && !this.closed && this.active + this.reserved < this.concurrency && this.ready.length) {
      const job = this.ready.shift()!;
      this.queued.delete(job.runId);
      this.active += 1;
      void this.handler(job, { attempt: 1, signal: this.abort.signal })
        .catch(() => undefined)
        .finally(() => {
          this.active -= 1;
          if (this.active === 0) this.idle.emit("idle");
          this.pump();
        });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.abort.abort();
    if (this.active > 0) await new Promise((resolve) => this.idle.once("idle", resolve));
  }
}

/** Resolves at a log's next `change`, or when `signal` aborts. */
function nextChange(emitter: EventEmitter, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      emitter.off("change", done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    emitter.on("change", done);
    signal?.addEventListener("abort", done);
  });
}

interface Log {
  events: RunEvent[];
  ended: boolean;
  emitter: EventEmitter;
}

export class MemoryEventLog implements EventLog {
  private readonly logs = new Map<string, Log>();
  readonly threads = new MemoryThreadLog();

  reachable(): boolean {
    return true;
  }

  private log(runId: string): Log {
    let log = this.logs.get(runId);
    if (!log) {
      log = { events: [], ended: false, emitter: new EventEmitter() };
      log.emitter.setMaxListeners(0);
      this.logs.set(runId, log);
    }
    return log;
  }

  // Ids count from 0 as on the official in-memory server (its suite compares them).
  readonly firstId = "0";

  async appendFirst(runId: string, event: string, data: string): Promise<void> {
    await this.append(runId, event, data);
  }

  async append(runId: string, event: string, data: string): Promise<string> {
    const log = this.log(runId);
    const id = String(log.events.length);
    log.events.push({ id, event, data });
    log.emitter.emit("change");
    return id;
  }

  async end(runId: string): Promise<void> {
    const log = this.log(runId);
    log.ended = true;
    log.emitter.emit("change");
    // Finished logs stay readable for a while (late joiners, Last-Event-ID), then go.
    setTimeout(() => this.logs.delete(runId), 10 * 60_000).unref();
  }

  async *read(runId: string, options: { after?: string; signal?: AbortSignal }): AsyncIterable<RunEvent> {
    const log = this.log(runId);
    // Ids are 0, 1, ...; anything else ("-1", "-", "0-0": "from the start" to other clients) replays all.
    const after = options.after === undefined || options.after === "" ? NaN : Number(options.after);
    let next = Number.isInteger(after) && after >= 0 ? after + 1 : 0;
    while (!options.signal?.aborted) {
      while (next < log.events.length) {
        yield log.events[next];
        next += 1;
      }
      if (log.ended) return;
      await nextChange(log.emitter, options.signal);
    }
  }

  async remove(runId: string): Promise<void> {
    this.logs.delete(runId);
  }

  async close(): Promise<void> {
    for (const log of this.logs.values()) {
      log.ended = true;
      log.emitter.emit("change");
    }
    this.threads.close();
  }
}

interface ThreadEntries {
  entries: ThreadLogEntry[];
  next: number;
  emitter: EventEmitter;
  touched: number;
}

/** How long a thread's log nobody writes is kept in memory. */
const THREAD_LOG_IDLE_MS = 60 * 60_000;

export class MemoryThreadLog implements ThreadLog {
  private readonly logs = new Map<string, ThreadEntries>();
  private lastSweep = Date.now();
  private closed = false;

  private log(threadId: string): ThreadEntries {
    let log = this.logs.get(threadId);
    if (!log) {
      log = { entries: [], next: 1, emitter: new EventEmitter(), touched: Date.now() };
      log.emitter.setMaxListeners(0);
      this.logs.set(threadId, log);
    }
    return log;
  }

  async appendMany(threadId: string, entries: { method: string; params: string }[]): Promise<number> {
    this.sweep();
    const log = this.log(threadId);
    for (const { method, params } of entries) log.entries.push({ seq: log.next++, method, params });
    if (log.entries.length > THREAD_LOG_MAX_ENTRIES) log.entries.splice(0, log.entries.length - THREAD_LOG_MAX_ENTRIES);
    log.touched = Date.now();
    log.emitter.emit("change");
    return log.next - 1;
  }

  /** Drops the logs of threads idle for an hour (checked at most once a minute). */
  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [threadId, log] of this.logs) {
      if (now - log.touched > THREAD_LOG_IDLE_MS && log.emitter.listenerCount("change") === 0)
        this.logs.delete(threadId);
    }
  }

  async *read(threadId: string, options: { since?: number; signal?: AbortSignal }): AsyncIterable<ThreadLogEntry> {
    let after = options.since ?? 0;
    while (!options.signal?.aborted && !this.closed) {
      // The log may be replaced (removed, then written again): look it up each time.
      const log = this.log(threadId);
      // Entries hold consecutive seqs: the next one is found by position.
      const first = log.entries.length ? log.entries[0].seq : log.next;
      const entry = log.entries[Math.max(0, after + 1 - first)];
      if (entry) {
        after = entry.seq;
        yield entry;
        continue;
      }
      await nextChange(log.emitter, options.signal);
    }
  }

  async range(threadId: string, since: number, until: number): Promise<ThreadLogEntry[]> {
    return (this.logs.get(threadId)?.entries ?? []).filter((entry) => entry.seq > since && entry.seq <= until);
  }

  async lastSeq(threadId: string): Promise<number> {
    return (this.logs.get(threadId)?.next ?? 1) - 1;
  }

  async remove(threadId: string): Promise<void> {
    const log = this.logs.get(threadId);
    this.logs.delete(threadId);
    log?.emitter.emit("change");
  }

  close(): void {
    this.closed = true;
    for (const log of this.logs.values()) log.emitter.emit("change");
  }
}

export class MemoryControlBus implements ControlBus {
  private readonly emitter = new EventEmitter();

  async publish(message: ControlMessage): Promise<void> {
    this.emitter.emit("message", message);
  }

  subscribe(listener: (message: ControlMessage) => void): void {
    this.emitter.on("message", listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
