import type { Server } from "node:http";
import type { Logger } from "./logger";

type Closer = () => Promise<unknown> | unknown;

export interface Lifecycle {
  /**
   * Registers work to do on shutdown; closers run in reverse order of registration. `name` says
   * what it closes, in the log line of a shutdown that did not finish in time.
   */
  onShutdown(closer: Closer, name?: string): void;
  /** Stops accepting, drains in-flight requests (up to `drainMs`), then runs the closers. */
  shutdown(reason: string): Promise<void>;
  /**
   * Installs SIGTERM/SIGINT handlers that shut down and exit: 0 once every closer is done, 1 when
   * `deadlineMs` passes first (what is still closing then is logged).
   */
  handleSignals(): void;
}

export function createLifecycle(
  logger: Logger,
  options: {
    server?: Server;
    drainMs?: number;
    /**
     * How long a shutdown a signal started may take before the process exits anyway (none: as long
     * as its closers take). A closer that waits for something that never comes (a run that needs
     * an unreachable store) would otherwise hold the process until an orchestrator kills it, with
     * nothing logged of why.
     */
    deadlineMs?: number;
  } = {},
): Lifecycle {
  const closers: { close: Closer; name?: string }[] = [];
  let shuttingDown: Promise<void> | undefined;
  const drainMs = options.drainMs ?? 10_000;
  /** What the shutdown is doing now, for the deadline's log line. */
  let phase = "not started";

  async function closeServer(server: Server): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections become idle as their last response ends: close them as they do.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), drainMs);
    timer.unref();
    await closed;
    clearInterval(idle);
    clearTimeout(timer);
  }

  const lifecycle: Lifecycle = {
    onShutdown(close, name) {
      closers.push({ close, name });
    },
    shutdown(reason) {
      shuttingDown ??= (async () => {
        logger.info({ reason }, "shutting down");
        phase = "draining HTTP requests";
        if (options.server) await closeServer(options.server);
        const ordered = closers.reverse();
        for (const [index, closer] of ordered.entries()) {
          phase = `closing ${closer.name ?? `${index + 1} of ${ordered.length}`}`;
          try {
            await closer.close();
          } catch (error) {
            logger.error({ err: error }, "error during shutdown");
          }
        }
        phase = "done";
        logger.info("shut down");
      })();
      return shuttingDown;
    },
    handleSignals() {
      for (const signal of ["SIGTERM", "SIGINT"] as const) {
        process.once(signal, () => {
          if (options.deadlineMs !== undefined) {
            const deadlineMs = options.deadlineMs;
            setTimeout(() => {
              logger.error({ reason: signal, deadlineMs, phase }, "shutdown did not finish in time: exiting");
              process.exit(1);
            }, deadlineMs).unref();
          }
          void lifecycle.shutdown(signal).finally(() => process.exit(0));
        });
      }
    },
  };
  return lifecycle;
}
