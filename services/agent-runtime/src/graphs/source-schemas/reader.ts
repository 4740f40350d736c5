// Schemas read from a graph's TypeScript source, on demand: the first request for a graph whose
// schemas need its types starts one worker thread (the compiler's seconds of CPU stay off the event
// loop), bounded in time, one graph at a time; the answer, or the failure, is kept for the process's
// life. A failure is logged once as a warning, and callers keep the run-time schemas.
import path from "node:path";
import type { Logger } from "@lgp/server-kit";
import { startTypeScriptWorker } from "../../common/typescript-worker";
import type { SourceGraphSpec, SourceSchemas } from "./extract";

export type { SourceGraphSchema, SourceSchemas } from "./extract";

/** The default time limit of one extraction (the official server's default too). */
export const DEFAULT_SCHEMA_TIMEOUT_MS = 30_000;

export interface SourceSchemaReaderOptions {
  timeoutMs?: number;
  logger?: Logger;
  /** Heap limit of the worker: a type too large to walk fails alone instead of taking the process. */
  maxHeapMb?: number;
}

export class SourceSchemaReader {
  private readonly results = new Map<string, Promise<SourceSchemas | undefined>>();
  /** One extraction at a time: each holds a whole TypeScript program (hundreds of MB, a core busy). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SourceSchemaReaderOptions = {}) {}

  /** The source schemas of a graph by namespace ("" for the graph itself), or undefined when they cannot be read. */
  read(graphId: string, spec: SourceGraphSpec): Promise<SourceSchemas | undefined> {
    let result = this.results.get(graphId);
    if (!result) {
      let started = 0;
      const extraction = this.queue.then(() => {
        started = Date.now();
        return this.extract(spec);
      });
      this.queue = extraction.catch(() => undefined);
      result = extraction.then(
        (schemas) => {
          this.options.logger?.info(
            { graph_id: graphId, ms: Date.now() - started },
            "graph schemas read from its TypeScript source",
          );
          return schemas;
        },
        (error: unknown) => {
          this.options.logger?.warn(
            { graph_id: graphId, file: spec.file, err: error },
            `cannot read the types of graph "${graphId}" from its source (${(error as Error)?.message ?? error}); ` +
              "its schemas stay those read from the running graph",
          );
          return undefined;
        },
      );
      this.results.set(graphId, result);
    }
    return result;
  }

  /** One worker, ended when it answers, fails or runs out of time (the limit counts from its start). */
  private extract(spec: SourceGraphSpec): Promise<SourceSchemas> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_SCHEMA_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const worker = startTypeScriptWorker(
        path.join(__dirname, "worker.ts"),
        { spec },
        {
          resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 2048 },
          stdout: true,
          stderr: true,
        },
      );
      // What the compiler or the generator print is not the server's log.
      worker.stdout.resume();
      worker.stderr.resume();
      let settled = false;
      const settle = (action: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        action();
        void worker.terminate();
      };
      const timer = setTimeout(() => settle(() => reject(new Error(`timed out after ${timeoutMs} ms`))), timeoutMs);
      worker.once("message", (schemas: SourceSchemas) => settle(() => resolve(schemas)));
      worker.once("error", (error) => settle(() => reject(error)));
      worker.once("exit", (code) => settle(() => reject(new Error(`the worker stopped (exit code ${code})`))));
    });
  }
}
