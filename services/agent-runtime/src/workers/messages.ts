// What crosses between the main thread and the worker threads that execute runs in the embedded
// mode (WORKER_THREADS): jobs and control messages one way; event-log writes, wake-ups, control
// messages, run ends and job outcomes the other. Everything is structured-cloned.
import type { PythonSettings } from "../python/graphs";
import type { VectorSearchSettings } from "../store/vector-lists";
import type { GraphDefaults } from "../graphs/config";
import type { RunFinished } from "../runs/finished";
import type { RunStart } from "../runs/observers";
import type { ControlMessage, JobOutcome, RunJob } from "../queue/types";

/** What a worker thread needs to build its executor (the rest is read from langgraph.json). */
export interface ThreadSettings {
  index: number;
  databaseUrl: string;
  poolSize: number;
  langgraphJson: string;
  graphDefaults?: GraphDefaults;
  strictGraphs: boolean;
  maxAttempts: number;
  logLevel: string;
  /** The runtime's address for SDK clients made in graphs (see http/own-url). */
  apiUrl?: string;
  /** How Python graphs run (each thread has its own Python graph host). */
  python: PythonSettings;
  /** Semantic store search's settings (STORE_SEARCH_*). */
  vectorSearch?: VectorSearchSettings;
}

export type ToThread =
  | { kind: "job"; id: number; job: RunJob; attempt: number }
  | { kind: "control"; message: ControlMessage }
  | { kind: "close" };

export type FromThread =
  | { kind: "ready" }
  | { kind: "start-failed"; message: string }
  | { kind: "outcome"; id: number; outcome: JobOutcome | "failed" }
  | { kind: "append"; runId: string; event: string; data: string }
  | { kind: "end"; runId: string }
  | { kind: "thread-append"; threadId: string; entries: { method: string; params: string }[] }
  | { kind: "enqueue"; job: RunJob; delayMs?: number }
  | { kind: "publish"; message: ControlMessage }
  | { kind: "finished"; event: Omit<RunFinished, "values"> }
  | { kind: "started"; run: RunStart };
