// Builds the runtime's domain: database, checkpointer, graphs, queue, event log, services and
// (optionally) in-process workers. Shared by the API process (main.ts), worker processes
// (worker.ts) and tests, so all three run the same code.
import { checkpointerTtlOf, storeTtlOf, type StoreTtlSettings } from "./ttl/settings";
import { withSweepLock } from "./ttl/sweep-lock";
import { runtimeIdempotencyStorage } from "./idempotency";
import { loadSemanticIndex, logSearchMethod, type SemanticIndex } from "./store/semantic-index";
import { loadCustomRoutes, type CustomRoutes } from "./http/custom-routes";
import { httpSettingsOf, type HttpSettings } from "./http/settings";
import { RuntimeCheckpointer } from "./graphs/checkpointer";
import { setupCheckpointer } from "./graphs/checkpointer-setup";
import { outboundFetch, startIdempotencySweep, type IdempotencyStorage, type Logger } from "@lgp/server-kit";
import pg from "pg";
import { AssistantRepository } from "./assistants/repository";
import { AssistantService } from "./assistants/service";
import { CustomAuth, authorizerOf, type Authorize } from "./auth";
import { readGraphProject } from "./graphs/config";
import type { AgentRuntimeConfig } from "./config";
import { createDb, type Db } from "./db";
import { GraphRegistry } from "./graphs/registry";
import { SourceSchemaReader } from "./graphs/source-schemas/reader";
import { ProtocolService } from "./protocol/service";
import { bundleUi, type UiBundles } from "./ui/bundle";
import { ProtocolSockets } from "./protocol/websocket";
import { MemoryControlBus, MemoryEventLog, MemoryRunQueue } from "./queue/memory";
import { pythonSettingsOf } from "./python/graphs";
import { RedisControlBus, RedisEventLog, RedisRunQueue } from "./queue/redis";
import type { ControlBus, EventLog, RunQueue } from "./queue/types";
import { RunExecutor } from "./runs/executor";
import { openEventStreams } from "./runs/sse";
import { RunMetrics } from "./metrics/run-metrics";
import { MonitoringRepository } from "./monitoring/repository";
import { Registry } from "prom-client";
import { RunThreads } from "./workers/threads";
import { ownUrl } from "./http/own-url";
import { RunFinishedHooks } from "./runs/finished";
import { RunRepository } from "./runs/repository";
import { RunService } from "./runs/service";
import { CHECKPOINT_SCHEMA, CheckpointTables } from "./threads/checkpoints";
import { ThreadRepository } from "./threads/repository";
import { ThreadService } from "./threads/service";
import { CronRepository, CronService, MemoryCronScheduler, RedisCronScheduler, type CronScheduler } from "./crons";
import { StatelessRunService, attachTemporaryThreadCleanup } from "./stateless";
import { poolErrorFields } from "./common/pool-errors";
import { StoreRepository, createGraphStore } from "./store";
import { InProcessWebhookDispatcher, RedisWebhookDispatcher, attachWebhooks, type WebhookDispatcher } from "./webhooks";

export interface Runtime {
  config: AgentRuntimeConfig;
  db: Db;
  checkpointer: RuntimeCheckpointer;
  graphs: GraphRegistry;
  queue: RunQueue;
  events: EventLog;
  control: ControlBus;
  assistants: AssistantService;
  threads: ThreadService;
  threadRepository: ThreadRepository;
  runRepository: RunRepository;
  runs: RunService;
  executor: RunExecutor;
  stateless: StatelessRunService;
  crons: CronService;
  webhooks: WebhookDispatcher;
  /** Generative UI: each graph's bundled components (langgraph.json's `ui`). */
  ui: UiBundles;
  /** The thread-centric protocol (commands and thread event streams), and its WebSockets. */
  protocol: ProtocolService;
  sockets: ProtocolSockets;
  /** langgraph.json's `auth.path` handler, when it declares one. */
  customAuth?: CustomAuth;
  /** langgraph.json's `http` section: route groups switched off, configurable headers. */
  http: HttpSettings;
  /** langgraph.json's `http.app`, when it declares one. */
  customRoutes?: CustomRoutes;
  /** langgraph.json's `store.index`: the store's semantic index, when it declares one. */
  storeIndex?: SemanticIndex;
  /** langgraph.json's `store.ttl`. */
  storeTtl: StoreTtlSettings;
  /** What every service asks before touching a resource (allows everything without a handler). */
  authorize: Authorize;
  /** Idempotency keys of creates (the `idempotency_keys` table; see idempotency/). */
  idempotency: IdempotencyStorage;
  /** Starts `n` queue workers in this process. */
  startWorkers(n: number): void;
  close(): Promise<void>;
}

/** Creates the checkpointer's tables once, even when several processes start together. */
/** Pending runs nothing would wake (a process died between two steps) are re-queued this often. */
const ORPHAN_SWEEP_MS = 30_000;
/** Expired store items are deleted this often (they are invisible from their expiry on). */
const STORE_SWEEP_MS = 60_000;

export interface RuntimeOptions {
  /** The registry /metrics serves: the runs' metrics join it (a registry of their own otherwise). */
  registry?: Registry;
  /** A worker process leaves the deployment-wide gauges (runs pending and running) to the API processes. */
  role?: "api" | "worker";
}

export async function createRuntime(
  config: AgentRuntimeConfig,
  logger: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const db = createDb(config.DATABASE_URL);
  const pool = new pg.Pool({
    connectionString: config.DATABASE_URL,
    max: config.CHECKPOINT_POOL_SIZE,
  });
  pool.on("error", (error) => logger.error(poolErrorFields(error), "checkpointer pool error"));
  const checkpointer = new RuntimeCheckpointer(pool, undefined, {
    schema: CHECKPOINT_SCHEMA,
  });
  const closers: (() => Promise<unknown>)[] = [() => pool.end(), () => db.$disconnect()];
  try {
    await setupCheckpointer(pool, checkpointer);
    const graphs = await GraphRegistry.load(config.LANGGRAPH_JSON, checkpointer, {
      logger,
      defaults: config.LANGGRAPH_CONFIG,
      strict: config.LANGGRAPH_STRICT_GRAPHS,
      python: pythonSettingsOf(config),
    });
    closers.unshift(() => graphs.close());
    // After the graphs: langgraph.json's `env` is applied, and the handler may read it.
    const project = readGraphProject(config.LANGGRAPH_JSON);
    const customAuth = await CustomAuth.load(project, (spec) => graphs.hostedAuth(spec));
    const http = httpSettingsOf(project);
    const storeIndex = await loadSemanticIndex(project, (spec) => graphs.hostedEmbedder(spec), {
      nprobe: config.STORE_SEARCH_NPROBE,
      exactBelow: config.STORE_SEARCH_EXACT_BELOW,
    });
    const storeTtl = storeTtlOf(project);
    const checkpointerTtl = checkpointerTtlOf(project);
    graphs.setStore(createGraphStore(db, storeIndex, storeTtl));
    if (storeIndex) await logSearchMethod(db, storeIndex, logger);
    const customRoutes = await loadCustomRoutes(project, http.app, (spec) => graphs.hostedApp(spec));
    if (customRoutes)
      logger.info({ app: customRoutes.source, kind: customRoutes.kind }, "custom routes mounted (http.app)");
    const ui = await bundleUi(project, logger);
    const authorize = authorizerOf(customAuth);

    let queue: RunQueue;
    let events: EventLog;
    let control: ControlBus;
    if (config.REDIS_URL) {
      queue = new RedisRunQueue(config.REDIS_URL, config.REDIS_PREFIX, logger, {
        lockMs: config.RUN_LOCK_MS,
        maxStalls: config.RUN_MAX_ATTEMPTS,
      });
      events = new RedisEventLog(config.REDIS_URL, config.REDIS_PREFIX);
      control = new RedisControlBus(config.REDIS_URL, config.REDIS_PREFIX);
    } else {
      queue = new MemoryRunQueue();
      events = new MemoryEventLog();
      control = new MemoryControlBus();
    }
    const closeQueue = () => queue.close();
    closers.unshift(
      closeQueue,
      () => events.close(),
      () => control.close(),
    );

    const checkpoints = new CheckpointTables(db);
    const assistantRepository = new AssistantRepository(db);
    const threadRepository = new ThreadRepository(db, checkpointerTtl);
    const runRepository = new RunRepository(pool, checkpointer);
    const assistants = new AssistantService(
      assistantRepository,
      graphs,
      new SourceSchemaReader({ timeoutMs: config.LANGGRAPH_SCHEMA_RESOLVE_TIMEOUT_MS, logger }),
      authorize,
    );
    const threads = new ThreadService(threadRepository, graphs, checkpoints, authorize);
    const finished = new RunFinishedHooks(logger);
    // Its gauges read the executor, threads and sockets made below, when scraped.
    const monitoring = new MonitoringRepository(db);
    const metrics: RunMetrics = new RunMetrics(options.registry ?? new Registry(), {
      runCounts: options.role === "worker" ? undefined : () => monitoring.active(),
      executing: () => executor.activeRunIds().size + (runThreads?.activeRunIds().size ?? 0),
      subscribers: () => ({ sse: openEventStreams(), websocket: sockets.connections }),
    });
    finished.on((event) => metrics.finished(event));
    const runs = new RunService({
      metrics,
      finished,
      graphs,
      runs: runRepository,
      threads: threadRepository,
      assistants,
      queue,
      events,
      control,
      authorize,
      logger,
    });
    threads.onDeleting((threadId) => runs.cancelMany({ thread_id: threadId }, "interrupt"));
    threads.onDeleted((threadId) => {
      runs.forgetThread(threadId);
      void events.threads.remove(threadId).catch(() => undefined);
    });
    const protocol = new ProtocolService({ runs, threads, log: events.threads });
    const sockets = new ProtocolSockets(protocol, logger);
    const executor = new RunExecutor({
      finished,
      runs: runRepository,
      graphs,
      events,
      queue,
      control,
      checkpoints,
      logger,
      maxAttempts: config.RUN_MAX_ATTEMPTS,
      observer: metrics,
    });
    await assistants.ensureDefaults();

    // Beside the runs: webhooks and temporary-thread cleanup when a run ends, stateless runs, crons.
    const webhookOptions = {
      attempts: config.WEBHOOK_ATTEMPTS,
      baseDelayMs: config.WEBHOOK_RETRY_DELAY_MS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      outbound: outboundFetch(config.OUTBOUND_ALLOW),
      onSettled: ({ delivered }: { delivered: boolean }) => metrics.webhookSettled(delivered),
    };
    const webhooks: WebhookDispatcher = config.REDIS_URL
      ? new RedisWebhookDispatcher(config.REDIS_URL, config.REDIS_PREFIX, webhookOptions, logger)
      : new InProcessWebhookDispatcher(webhookOptions, logger);
    attachWebhooks(finished, webhooks);
    const temporaryThreads = attachTemporaryThreadCleanup(finished, threads);
    const stateless = new StatelessRunService(runs);
    const cronScheduler: CronScheduler = config.REDIS_URL
      ? new RedisCronScheduler(config.REDIS_URL, config.REDIS_PREFIX, logger)
      : new MemoryCronScheduler(logger);
    const crons = new CronService({
      repository: new CronRepository(db),
      scheduler: cronScheduler,
      assistants,
      threads: threadRepository,
      runs,
      stateless,
      logger,
      authorize,
    });
    const storeRepository = new StoreRepository(db, undefined, storeTtl);
    const idempotency = runtimeIdempotencyStorage(pool);
    let stopIdempotencySweep: (() => void) | undefined;
    let storeSweeper: NodeJS.Timeout | undefined;
    let storeIndexKeeper: NodeJS.Timeout | undefined;
    let threadSweeper: NodeJS.Timeout | undefined;
    let threadSweep: Promise<void> | undefined;
    closers.unshift(
      () => cronScheduler.close(),
      () => webhooks.close(),
      async () => clearInterval(storeSweeper),
      async () => clearInterval(storeIndexKeeper),
      async () => stopIdempotencySweep?.(),
      async () => {
        clearInterval(threadSweeper);
        await threadSweep; // a sweep under way finishes before the pools close
      },
    );
    // After the queue has let its last runs finish, before the database closes (the last two).
    closers.splice(closers.length - 2, 0, () => temporaryThreads.drain());

    /**
     * The safety net under the queue: pending runs nothing will wake (their job was never added,
     * or was lost) are queued again, and runs left `running` that no worker holds (their worker
     * died and BullMQ gave up on the job, or this process restarted) are handed back, to resume
     * from their last checkpoint or, out of attempts, to end as `error`.
     */
    async function sweepRuns(ageMs: number): Promise<void> {
      const orphans = await runRepository.orphans(ageMs);
      await Promise.all(orphans.map((run) => queue.enqueue({ runId: run.run_id, threadId: run.thread_id })));
      const running = await runRepository.runningSince(2 * config.RUN_LOCK_MS);
      if (!running.length) return;
      const held = await queue.heldRunIds();
      for (const id of executor.activeRunIds()) held.add(id);
      for (const id of runThreads?.activeRunIds() ?? []) held.add(id);
      for (const run of running) {
        if (!held.has(run.run_id)) await executor.handBack(run, new Error("no worker holds it (its worker stopped)"));
      }
    }

    // The embedded mode's run threads (WORKER_THREADS), started with the workers.
    let runThreads: RunThreads | undefined;
    if (config.WORKER_THREADS > 0 && config.REDIS_URL)
      logger.warn(
        { WORKER_THREADS: config.WORKER_THREADS },
        "WORKER_THREADS is for the in-process queue; with REDIS_URL runs execute on this thread (run worker processes to use more cores)",
      );

    /**
     * A run whose thread died after finishing it in the database and before announcing it: its
     * event log is ended (readers stop waiting) and its hooks run, with the thread's values.
     */
    async function settleLostRun(runId: string): Promise<void> {
      const run = await runRepository.findById(runId);
      if (!run || run.status === "pending" || run.status === "running") return;
      await events.end(runId);
      if (!finished.listened) return;
      const thread = await threadRepository.find(run.thread_id);
      finished.emit({ run, status: run.status, values: thread?.values ?? null });
    }

    let sweeper: NodeJS.Timeout | undefined;
    const runtime: Runtime = {
      config,
      db,
      checkpointer,
      graphs,
      queue,
      events,
      control,
      assistants,
      threads,
      threadRepository,
      runRepository,
      runs,
      executor,
      stateless,
      crons,
      webhooks,
      protocol,
      sockets,
      ui,
      customAuth,
      http,
      customRoutes,
      storeIndex,
      storeTtl,
      authorize,
      idempotency,
      startWorkers(n: number) {
        if (n <= 0) return;
        if (config.WORKER_THREADS > 0 && !config.REDIS_URL && !runThreads) {
          runThreads = new RunThreads(
            {
              databaseUrl: config.DATABASE_URL,
              // Each thread has its own pools besides the main thread's: a share of
              // CHECKPOINT_POOL_SIZE for the checkpointer and run statements (and 3 for the rest).
              poolSize: Math.max(2, Math.ceil(config.CHECKPOINT_POOL_SIZE / config.WORKER_THREADS)),
              langgraphJson: config.LANGGRAPH_JSON,
              graphDefaults: config.LANGGRAPH_CONFIG,
              strictGraphs: config.LANGGRAPH_STRICT_GRAPHS,
              maxAttempts: config.RUN_MAX_ATTEMPTS,
              logLevel: config.LOG_LEVEL,
              // Threads start before the API listens: its configured port (0 picks one later).
              apiUrl: ownUrl({ host: config.HOST, port: config.PORT }, config.LANGGRAPH_API_URL),
              python: pythonSettingsOf(config),
              vectorSearch: { nprobe: config.STORE_SEARCH_NPROBE, exactBelow: config.STORE_SEARCH_EXACT_BELOW },
            },
            config.WORKER_THREADS,
            {
              events,
              queue,
              control,
              finished,
              logger,
              fallback: executor.handle,
              lost: (job) => settleLostRun(job.runId),
              observer: metrics,
            },
          );
          // After the queue has let the threads' jobs end, before the logs and pools close.
          const started = runThreads;
          closers.splice(closers.indexOf(closeQueue) + 1, 0, () => started.close());
        }
        // After the queue has let its jobs end, the ends of their runs' logs, before the logs close.
        closers.splice(closers.indexOf(closeQueue) + 1, 0, () => executor.settled());
        queue.startWorkers(n, runThreads ? runThreads.handle : executor.handle);
        webhooks.startWorker(n);
        void crons.start().catch((error) => logger.error({ err: error }, "cannot start the cron scheduler"));
        // One sweeper per deployment at a time, whichever process takes the lock.
        storeSweeper ??= setInterval(() => {
          void withSweepLock(pool, "store", () => storeRepository.sweepExpired()).catch((error) =>
            logger.warn({ err: error }, "store sweep failed"),
          );
        }, storeTtl.sweepIntervalMs ?? STORE_SWEEP_MS);
        storeSweeper.unref();
        // The semantic index's lists: trained when the vectors have doubled, new vectors put in
        // them (one process at a time; a training takes seconds of CPU at 100k vectors).
        let keeping = false;
        if (storeIndex)
          storeIndexKeeper ??= setInterval(() => {
            if (keeping) return;
            keeping = true;
            void withSweepLock(pool, "store-index", async () => {
              const { trained, assigned } = await storeIndex.lists.maintain(db);
              if (trained) logger.info({ assigned }, "store.index: lists trained again");
            })
              .catch((error) => logger.warn({ err: error }, "store.index upkeep failed"))
              .finally(() => (keeping = false));
          }, config.STORE_SEARCH_TRAIN_CHECK_MS);
        storeIndexKeeper?.unref();
        stopIdempotencySweep ??= startIdempotencySweep(
          { sweep: () => withSweepLock(pool, "idempotency-keys", () => idempotency.sweep()).then(() => 0) },
          logger,
        );
        // Expired threads go through ThreadService, as DELETE does: their active runs stop first.
        threadSweeper ??= setInterval(() => {
          if (threadSweep) return; // one sweep at a time, however short the interval
          threadSweep = withSweepLock(pool, "threads", () =>
            threads.sweepExpired(100, (threadId, error) =>
              logger.warn({ err: error, threadId }, "thread TTL sweep: cannot sweep this thread"),
            ),
          )
            .then(() => undefined)
            .catch((error) => logger.warn({ err: error }, "thread TTL sweep failed"))
            .finally(() => (threadSweep = undefined));
        }, checkpointerTtl.sweepIntervalMs ?? config.THREAD_TTL_SWEEP_MS);
        threadSweeper.unref();
        // Shorter locks (tests, drills) sweep sooner; the default lock sweeps every 30 s.
        const sweepMs = Math.min(ORPHAN_SWEEP_MS, config.RUN_LOCK_MS);
        let sweeping = false;
        sweeper ??= setInterval(() => {
          if (sweeping) return;
          sweeping = true;
          void sweepRuns(sweepMs)
            .catch((error) => logger.warn({ err: error }, "run sweep failed"))
            .finally(() => (sweeping = false));
        }, sweepMs);
        sweeper.unref();
      },
      async close() {
        if (sweeper) clearInterval(sweeper);
        sockets.close();
        for (const close of closers) {
          try {
            await close();
          } catch (error) {
            logger.error({ err: error }, "error while closing the runtime");
          }
        }
      },
    };
    return runtime;
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}
