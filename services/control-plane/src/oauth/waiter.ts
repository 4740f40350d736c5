import { EventEmitter } from "node:events";

/**
 * Wakes long-polls in this process as soon as an authorization they wait on finishes. Long-polls
 * also re-read the database every POLL_MS, so a callback served by another replica is seen too.
 */
export class CompletionSignal {
  private readonly events = new EventEmitter();

  constructor() {
    this.events.setMaxListeners(0);
  }

  notify(authId: string): void {
    this.events.emit(authId);
  }

  /** Resolves after `ms`, on a notification for `authId`, or when `signal` aborts. */
  sleep(authId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.events.off(authId, done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.events.once(authId, done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }
}
