import type { Server } from "node:http";
import type { Logger } from "./logger";

type Closer = () => Promise<unknown> | unknown;

export interface Lifecycle {
  /** Registers work to do on shutdown; closers run in reverse order of registration. */
  onShutdown(closer: Closer): void;
  /** Stops accepting, drains in-flight requests (up to `drainMs`), then runs the closers. */
  shutdown(reason: string): Promise<void>;
  /** Installs SIGTERM/SIGINT handlers that shut down and exit. */
  handleSignals(): void;
}

export function createLifecycle(logger: Logger, options: { server?: Server; drainMs?: number } = {}): Lifecycle {
  const closers: Closer[] = [];
  let shuttingDown: Promise<void> | undefined;
  const drainMs = options.drainMs ?? 10_000;

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
    onShutdown(closer) {
      closers.push(closer);
    },
    shutdown(reason) {
      shuttingDown ??= (async () => {
        logger.info({ reason }, "shutting down");
        if (options.server) await closeServer(options.server);
        for (const closer of closers.reverse()) {
          try {
            await closer();
          } catch (error) {
            logger.error({ err: error }, "error during shutdown");
          }
        }
        logger.info("shut down");
      })();
      return shuttingDown;
    },
    handleSignals() {
      for (const signal of ["SIGTERM", "SIGINT"] as const) {
        process.once(signal, () => {
          void lifecycle.shutdown(signal).finally(() => process.exit(0));
        });
      }
    },
  };
  return lifecycle;
}
