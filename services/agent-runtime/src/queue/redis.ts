// Redis implementations: BullMQ for run jobs (one queue per deployment, one job per run), Redis
// Streams for run events (XADD per event, so readers on any replica replay from any id), and
// Pub/Sub for run control messages.
import { Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import type { Logger } from "@lgp/server-kit";
import { InFlight } from "../common/in-flight";
import { closeBullmq } from "./bullmq-close";
import { StreamMultiplexer } from "./redis-stream-reader";
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

const END = "__end__";
/** How long a finished run's events stay readable. */
const FINISHED_TTL_SECONDS = 3600;
/** How long a thread's protocol log is kept, at least, after its last event. */
const THREAD_LOG_TTL_SECONDS = 24 * 3600;
/** Its expiry is pushed back only once this much of it has passed (not on each of a run's events). */
const THREAD_LOG_TTL_SLACK_SECONDS = 3600;

/**
 * Numbers and appends thread log entries in one step (one round trip, and no two writers get the
 * same numbers): an entry's stream id is `0-<seq>`, so readers resume from a seq with XRANGE/XREAD.
 * Both keys expire between TTL and TTL + slack after the last entry: the expiry is set to TTL +
 * slack, and set again only when less than TTL is left (a TTL read instead of two EXPIREs per call).
 * ARGV: max entries, TTL, slack, then each entry's method and params.
 */
const APPEND_THREAD_ENTRIES = `
local count = (#ARGV - 3) / 2
local last = redis.call('INCRBY', KEYS[2], count)
for i = 1, count do
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '0-' .. (last - count + i), 'm', ARGV[2 + 2 * i], 'p', ARGV[3 + 2 * i])
end
if redis.call('TTL', KEYS[2]) < tonumber(ARGV[2]) then
  redis.call('EXPIRE', KEYS[1], ARGV[2] + ARGV[3])
  redis.call('EXPIRE', KEYS[2], ARGV[2] + ARGV[3])
end
return last`;

/**
 * A run's last entry and its stream's expiry, in one step: both or neither (a stream left without
 * an expiry would stay forever), in one command rather than MULTI, XADD, EXPIRE, EXEC.
 * ARGV: the entry's id, the TTL in seconds.
 */
const END_RUN_STREAM = `
redis.call('XADD', KEYS[1], ARGV[1], 'event', '${END}', 'data', 'null')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`;

type EndRunStream = (key: string, id: string, ttlSeconds: number) => Promise<number>;

export function redisConnection(url: string): Redis {
  // BullMQ requires maxRetriesPerRequest: null on its connections.
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}

export class RedisRunQueue implements RunQueue {
  private readonly queue: Queue;
  private readonly workers: Worker[] = [];
  // BullMQ leaves connections it is given open when it closes: ours to end.
  private readonly connections: Redis[] = [];
  private readonly abort = new AbortController();
  private readonly jobs = new InFlight();
  private readonly name: string;
  private readonly producer: Redis;

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly options: { lockMs?: number; name?: string; maxStalls?: number } = {},
  ) {
    this.name = options.name ?? "runs";
    this.producer = this.connect();
    this.queue = new Queue(this.name, { connection: this.producer, prefix });
    this.queue.on("error", (error) => logger.error({ err: error }, "run queue error"));
  }

  async enqueue(job: RunJob, options: { delayMs?: number } = {}): Promise<void> {
    await this.queue.add("run", job, {
      delay: options.delayMs,
      removeOnComplete: true,
      removeOnFail: 1000,
      // A worker that dies mid-run leaves a stalled job; BullMQ hands it to another worker.
      attempts: 1,
    });
  }

  reachable(): boolean {
    return this.producer.status === "ready";
  }

  async heldRunIds(): Promise<Set<string>> {
    const jobs = await this.queue.getJobs(["active"]);
    return new Set(jobs.filter(Boolean).map((job) => (job.data as RunJob).runId));
  }

  startWorkers(concurrency: number, handler: JobHandler): void {
    if (concurrency <= 0) return;
    const worker = new Worker<RunJob>(
      this.name,
      async (job: Job<RunJob>) => {
        await this.jobs.track(handler(job.data, { attempt: job.attemptsStarted || 1, signal: this.abort.signal }));
      },
      {
        connection: this.connect(),
        prefix: this.prefix,
        concurrency,
        // A dead worker stops renewing its lock; the stalled-job check hands the job to another
        // worker, which resumes the run from its last checkpoint.
        lockDuration: this.options.lockMs ?? 30_000,
        stalledInterval: Math.max(500, Math.floor((this.options.lockMs ?? 30_000) / 2)),
        // The executor ends a run that used up RUN_MAX_ATTEMPTS; a job BullMQ fails for stalling
        // is found by the stuck-run sweep (its run is `running` with no job held), which does the same.
        maxStalledCount: this.options.maxStalls ?? 5,
      },
    );
    worker.on("error", (error) => this.logger.error({ err: error }, "run worker error"));
    this.workers.push(worker);
  }

  private connect(): Redis {
    const connection = redisConnection(this.url);
    this.connections.push(connection);
    return connection;
  }

  async close(): Promise<void> {
    await closeBullmq({
      workers: this.workers,
      queue: this.queue,
      connections: this.connections,
      jobs: this.jobs,
      logger: this.logger,
      what: "run queue",
    });
  }
}

function eventKey(prefix: string, runId: string): string {
  return `${prefix}:run:${runId}:events`;
}

function toEvent(entry: [string, string[]]): RunEvent {
  const [id, fields] = entry;
  let event = "";
  let data = "null";
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === "event") event = fields[i + 1];
    else if (fields[i] === "data") data = fields[i + 1];
  }
  return { id, event, data };
}

export class RedisEventLog implements EventLog {
  private readonly writer: Redis;
  /** One blocking connection follows every stream read in this process (created on first use). */
  private reader?: Redis;
  private multiplexer?: StreamMultiplexer;
  /** Readers waiting for entries, woken on close. */
  private readonly waiting = new Set<() => void>();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly prefix: string,
  ) {
    // Concurrent runs' XADDs share round trips. During an outage writes wait for the reconnection
    // (no retry limit): a run pauses rather than failing, and goes on when Redis is back.
    this.writer = new Redis(url, { maxRetriesPerRequest: null, enableAutoPipelining: true });
    this.writer.defineCommand("endRunStream", { numberOfKeys: 1, lua: END_RUN_STREAM });
    this.threads = new RedisThreadLog(this, this.writer, prefix);
  }

  readonly threads: RedisThreadLog;

  /** The lowest id a stream entry can have: later automatic ids (time-based) are all above it. */
  readonly firstId = "0-1";

  reachable(): boolean {
    return this.writer.status === "ready";
  }

  async appendFirst(runId: string, event: string, data: string): Promise<void> {
    try {
      await this.writer.xadd(eventKey(this.prefix, runId), this.firstId, "event", event, "data", data);
    } catch (error) {
      // Written already (a retried hand-off): the first event is there, which is all that matters.
      if (!/equal or smaller/.test((error as Error).message)) throw error;
    }
  }

  /**
   * Appends with an id this process chooses (`<ms>-<n>`, rising), not `*`: when Redis goes away
   * between applying an XADD and answering it, the client sends it again on reconnection, and the
   * same id is then refused ("equal or smaller") instead of written twice.
   */
  async append(runId: string, event: string, data: string): Promise<string> {
    const key = eventKey(this.prefix, runId);
    return this.appendWith(key, runId, (id) => this.writer.xadd(key, id, "event", event, "data", data));
  }

  async end(runId: string): Promise<void> {
    const key = eventKey(this.prefix, runId);
    const writer = this.writer as Redis & { endRunStream: EndRunStream };
    await this.appendWith(key, runId, (id) => writer.endRunStream(key, id, FINISHED_TTL_SECONDS));
    this.nextIds.delete(runId);
  }

  /** The next id of each run's stream in this process (ms part and sequence). */
  private readonly nextIds = new Map<string, { ms: number; seq: number }>();

  private async appendWith(
    key: string,
    runId: string,
    write: (id: string) => Promise<unknown>,
    attempts = 3,
  ): Promise<string> {
    let next = this.nextIds.get(runId);
    if (!next) {
      // Bounded: entries of runs this process stopped writing without an end (superseded) go first.
      if (this.nextIds.size >= 10_000) this.nextIds.delete(this.nextIds.keys().next().value!);
      next = { ms: Date.now(), seq: 0 };
      this.nextIds.set(runId, next);
    }
    const id = `${next.ms}-${++next.seq}`;
    try {
      await write(id);
      return id;
    } catch (error) {
      if (!/equal or smaller/.test((error as Error).message) || attempts <= 1) throw error;
      // The resent copy of a write Redis had applied: it is there once.
      if (((await this.writer.xrange(key, id, id)) as unknown[]).length > 0) return id;
      // Later ids are there (another attempt of the run, or a clock behind the one that wrote
      // them): continue after them.
      const [last] = (await this.writer.xrevrange(key, "+", "-", "COUNT", 1)) as [string, string[]][];
      next.ms = Math.max(Date.now(), Number(last?.[0].split("-")[0] ?? 0) + 1);
      next.seq = 0;
      return this.appendWith(key, runId, write, attempts - 1);
    }
  }

  private streams(): StreamMultiplexer {
    if (!this.multiplexer) {
      this.reader = new Redis(this.url, { maxRetriesPerRequest: null });
      this.multiplexer = new StreamMultiplexer(this.reader, this.writer);
    }
    return this.multiplexer;
  }

  /** Streams followed by this process's readers (each over the one shared connection). */
  get followed(): number {
    return this.multiplexer?.size ?? 0;
  }

  async *read(runId: string, options: { after?: string; signal?: AbortSignal }): AsyncIterable<RunEvent> {
    const after = options.after && /^\d+-\d+$/.test(options.after) ? options.after : "0-0";
    // A reader that has only the first event (the stream of the run its request just created)
    // skips the catch-up read: its run has at most just started (one command fewer per streamed run).
    const catchUp = after !== this.firstId;
    for await (const entry of this.follow(eventKey(this.prefix, runId), after, options.signal, catchUp)) {
      const event = toEvent(entry);
      if (event.event === END) return;
      yield event;
    }
  }

  /**
   * A stream's entries after `last`: the backlog, then live ones (on the shared connection).
   * Without `catchUp` the shared XREAD, which starts after `last` too, answers the backlog as well
   * (at once, in pages of its COUNT): for a stream expected to have little or none yet.
   */
  async *follow(key: string, last: string, signal?: AbortSignal, catchUp = true): AsyncIterable<[string, string[]]> {
    // Catch up without blocking, then follow on the shared connection.
    if (catchUp) {
      const backlog = (await this.writer.xrange(key, `(${last}`, "+")) as [string, string[]][];
      for (const entry of backlog) {
        last = entry[0];
        yield entry;
      }
    }
    if (this.closed || signal?.aborted) return;
    const batches: [string, string[]][][] = [];
    let wake: (() => void) | undefined;
    const notify = () => {
      const resolve = wake;
      wake = undefined;
      resolve?.();
    };
    const unsubscribe = this.streams().subscribe(key, last, (entries) => {
      batches.push(entries);
      notify();
    });
    signal?.addEventListener("abort", notify);
    this.waiting.add(notify);
    try {
      while (!signal?.aborted && !this.closed) {
        const batch = batches.shift();
        if (!batch) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        yield* batch;
      }
    } finally {
      unsubscribe();
      signal?.removeEventListener("abort", notify);
      this.waiting.delete(notify);
    }
  }

  async remove(runId: string): Promise<void> {
    await this.writer.del(eventKey(this.prefix, runId));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.multiplexer?.close();
    for (const notify of this.waiting) notify();
    this.reader?.disconnect();
    this.writer.disconnect();
  }
}

function toThreadEntry([id, fields]: [string, string[]]): ThreadLogEntry {
  const entry: ThreadLogEntry = { seq: Number(id.slice(2)), method: "", params: "null" };
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === "m") entry.method = fields[i + 1];
    else if (fields[i] === "p") entry.params = fields[i + 1];
  }
  return entry;
}

type AppendThreadEntries = (
  key: string,
  seqKey: string,
  maxEntries: number,
  ttlSeconds: number,
  slackSeconds: number,
  ...methodsAndParams: string[]
) => Promise<number>;

class RedisThreadLog implements ThreadLog {
  constructor(
    private readonly log: RedisEventLog,
    private readonly writer: Redis,
    private readonly prefix: string,
  ) {
    writer.defineCommand("appendThreadEntries", { numberOfKeys: 2, lua: APPEND_THREAD_ENTRIES });
  }

  private key(threadId: string): string {
    return `${this.prefix}:thread:${threadId}:protocol`;
  }

  async appendMany(threadId: string, entries: { method: string; params: string }[]): Promise<number> {
    const key = this.key(threadId);
    // EVAL on a connection the first time, EVALSHA after (ioredis keeps track).
    const seq = await (this.writer as Redis & { appendThreadEntries: AppendThreadEntries }).appendThreadEntries(
      key,
      `${key}:seq`,
      THREAD_LOG_MAX_ENTRIES,
      THREAD_LOG_TTL_SECONDS,
      THREAD_LOG_TTL_SLACK_SECONDS,
      ...entries.flatMap(({ method, params }) => [method, params]),
    );
    return Number(seq);
  }

  async *read(threadId: string, options: { since?: number; signal?: AbortSignal }): AsyncIterable<ThreadLogEntry> {
    for await (const entry of this.log.follow(this.key(threadId), `0-${options.since ?? 0}`, options.signal))
      yield toThreadEntry(entry);
  }

  async range(threadId: string, since: number, until: number): Promise<ThreadLogEntry[]> {
    if (until <= since) return [];
    const entries = (await this.writer.xrange(this.key(threadId), `(0-${since}`, `0-${until}`)) as [string, string[]][];
    return entries.map(toThreadEntry);
  }

  async lastSeq(threadId: string): Promise<number> {
    return Number((await this.writer.get(`${this.key(threadId)}:seq`)) ?? 0);
  }

  async remove(threadId: string): Promise<void> {
    const key = this.key(threadId);
    await this.writer.del(key, `${key}:seq`);
  }
}

export class RedisControlBus implements ControlBus {
  private readonly publisher: Redis;
  private subscriber?: Redis;
  private readonly channel: string;

  constructor(
    private readonly url: string,
    prefix: string,
  ) {
    this.publisher = new Redis(url, { maxRetriesPerRequest: 3 });
    this.channel = `${prefix}:control`;
  }

  async publish(message: ControlMessage): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify(message));
  }

  subscribe(listener: (message: ControlMessage) => void): void {
    if (!this.subscriber) {
      this.subscriber = new Redis(this.url, { maxRetriesPerRequest: null });
      void this.subscriber.subscribe(this.channel);
    }
    this.subscriber.on("message", (_channel: string, text: string) => {
      try {
        listener(JSON.parse(text) as ControlMessage);
      } catch {
        // A malformed control message is ignored.
      }
    });
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    this.publisher.disconnect();
  }
}
