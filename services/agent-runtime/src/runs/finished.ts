// What happens after a run has ended (webhooks, temporary-thread cleanup). Both ways a run ends
// announce it here: its worker finishing it, and a cancel while it was still pending.
import { EventEmitter } from "node:events";
import type { Logger } from "@lgp/server-kit";
import type { RunRow, RunStatus } from "./repository";

/** A run that ended, after its thread was updated. */
export interface RunFinished {
  run: RunRow;
  status: RunStatus;
  values: unknown;
  /** The values as JSON, when that is how they came (they cross to another thread as such). */
  valuesJson?: string;
  error?: { error: string; message: string };
}

/**
 * A run's end with its thread's values as JSON, parsed only if a listener reads them (a webhook
 * does; the temporary-thread cleanup does not): they are the thread's whole state, which grows
 * with its history.
 */
export function finishedWithJson(event: Omit<RunFinished, "values" | "valuesJson">, json?: string): RunFinished {
  let values: unknown;
  return {
    ...event,
    valuesJson: json,
    get values() {
      return (values ??= json === undefined ? null : JSON.parse(json));
    },
  };
}

export class RunFinishedHooks {
  private readonly emitter = new EventEmitter();

  constructor(private readonly logger: Logger) {}

  /** Calls `listener` for every run that ends in this process; its failures are logged. */
  on(listener: (event: RunFinished) => void | Promise<void>): void {
    this.emitter.on("finished", (event: RunFinished) => {
      void Promise.resolve(listener(event)).catch((error) =>
        this.logger.error({ err: error }, "run-finished listener failed"),
      );
    });
  }

  /** Whether anything listens (so callers can skip building the event). */
  get listened(): boolean {
    return this.emitter.listenerCount("finished") > 0;
  }

  emit(event: RunFinished): void {
    this.emitter.emit("finished", event);
  }
}
