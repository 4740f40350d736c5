// What the run path tells whoever watches it (the metrics), without knowing who that is.
import type { RunRow } from "./repository";

/** Told of each run stored. */
export interface RunCreatedObserver {
  created(graphId: string): void;
}

/** Told of each attempt of a run starting (in a worker thread: posted to the main thread). */
export interface RunStartObserver {
  started(run: RunStart): void;
}

/** What an attempt's start is known by. */
export type RunStart = Pick<RunRow, "attempt" | "created_at" | "started_at"> & {
  kwargs: Pick<RunRow["kwargs"], "graph_id" | "after_seconds">;
};
