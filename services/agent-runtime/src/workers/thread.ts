// A worker thread executing runs for the main thread's in-process queue (WORKER_THREADS): it owns
// its database pools, checkpointer and graphs, and runs the same executor as the main thread
// would. What the executor writes of the event logs, the runs it wakes, its control messages and
// its runs' ends go to the main thread, which owns the logs readers follow, the queue and the
// hooks (webhooks, temporary threads).
import "../tracing/start-api";
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { createLogger, shutdownTracing } from "@lgp/server-kit";
import { createDb } from "../db";
import { RuntimeCheckpointer } from "../graphs/checkpointer";
import { readGraphProject } from "../graphs/config";
import { GraphRegistry } from "../graphs/registry";
import { publishOwnUrl } from "../http/own-url";
import type { ControlBus, ControlMessage } from "../queue/types";
import { RunExecutor, type RunEventWriter } from "../runs/executor";
import { RunFinishedHooks } from "../runs/finished";
import { RunRepository } from "../runs/repository";
import { createGraphStore } from "../store";
import { loadSemanticIndex } from "../store/semantic-index";
import { CHECKPOINT_SCHEMA, CheckpointTables } from "../threads/checkpoints";
import { poolErrorFields } from "../common/pool-errors";
import { storeTtlOf } from "../ttl/settings";
import type { FromThread, ThreadSettings, ToThread } from "./messages";

const port = parentPort!;
const settings = workerData.settings as ThreadSettings;
const send = (message: FromThread) => port.postMessage(message);

async function start(): Promise<() => Promise<void>> {
  const logger = createLogger(`agent-runtime-thread-${settings.index}`, settings.logLevel);
  publishOwnUrl(settings.apiUrl);
  // Store and checkpoint-table reads only: the run path goes through the pg pool below.
  const db = createDb(settings.databaseUrl, 3);
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: settings.poolSize });
  pool.on("error", (error) => logger.error(poolErrorFields(error), "checkpointer pool error"));
  let graphs: GraphRegistry | undefined;
  const closeAll = async () => {
    await graphs?.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await db.$disconnect().catch(() => undefined);
  };
  try {
    const checkpointer = new RuntimeCheckpointer(pool, undefined, { schema: CHECKPOINT_SCHEMA });
    // The main thread has loaded these already and said what it found: only errors are told again.
    const loaded = await GraphRegistry.load(settings.langgraphJson, checkpointer, {
      logger: logger.child({}, { level: "error" }),
      defaults: settings.graphDefaults,
      strict: settings.strictGraphs,
      python: settings.python,
    });
    graphs = loaded;
    const project = readGraphProject(settings.langgraphJson);
    const storeIndex = await loadSemanticIndex(project, (spec) => loaded.hostedEmbedder(spec), settings.vectorSearch);
    loaded.setStore(createGraphStore(db, storeIndex, storeTtlOf(project)));

    const events: RunEventWriter = {
      async append(runId, event, data) {
        send({ kind: "append", runId, event, data });
        return ""; // the main thread numbers the log; the executor does not read ids back
      },
      async end(runId) {
        send({ kind: "end", runId });
      },
      threads: {
        async appendMany(threadId, entries) {
          send({ kind: "thread-append", threadId, entries });
          return 0; // numbered by the main thread; the executor does not read seqs back
        },
      },
    };
    const listeners: ((message: ControlMessage) => void)[] = [];
    const control: ControlBus = {
      async publish(message) {
        send({ kind: "publish", message });
      },
      subscribe(listener) {
        listeners.push(listener);
      },
      async close() {},
    };
    const finished = new RunFinishedHooks(logger);
    // The values go as the JSON they came as (never parsed here).
    finished.on(({ run, status, error, valuesJson }) =>
      send({ kind: "finished", event: { run, status, error, valuesJson } }),
    );
    const executor = new RunExecutor({
      finished,
      runs: new RunRepository(pool, checkpointer),
      graphs: loaded,
      events,
      queue: {
        async enqueue(job, options) {
          send({ kind: "enqueue", job, delayMs: options?.delayMs });
        },
      },
      control,
      checkpoints: new CheckpointTables(db),
      logger,
      maxAttempts: settings.maxAttempts,
      observer: {
        started: ({ attempt, created_at, started_at, kwargs }) =>
          send({
            kind: "started",
            run: {
              attempt,
              created_at,
              started_at,
              kwargs: { graph_id: kwargs.graph_id, after_seconds: kwargs.after_seconds },
            },
          }),
      },
    });
    const abort = new AbortController();
    port.on("message", (message: ToThread) => {
      if (message.kind === "control") for (const listener of listeners) listener(message.message);
      else if (message.kind === "job") {
        executor.handle(message.job, { attempt: message.attempt, signal: abort.signal }).then(
          (outcome) => send({ kind: "outcome", id: message.id, outcome }),
          (error) => {
            logger.error({ err: error, runId: message.job.runId }, "run job failed");
            send({ kind: "outcome", id: message.id, outcome: "failed" });
          },
        );
      }
    });
    return closeAll;
  } catch (error) {
    await closeAll();
    throw error;
  }
}

start().then(
  (close) => {
    port.on("message", (message: ToThread) => {
      // The main thread's queue has let every job end: nothing runs here any more.
      if (message.kind === "close") void close().finally(() => shutdownTracing().finally(() => port.close()));
    });
    send({ kind: "ready" });
  },
  (error: Error) => send({ kind: "start-failed", message: error?.stack ?? String(error) }),
);
