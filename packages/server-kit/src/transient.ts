// Faults that pass: a database or Redis connection that was cut, refused or timed out. A request
// that meets one answers 503 with Retry-After (never a 500), and a run that meets one is handed
// back to the queue instead of failing.

/** SQLSTATEs of a lost or refused connection: class 08, admin/crash shutdown, too many clients. */
const SQLSTATE = /^(08\d\d\d|57P0[123]|53300)$/;
const NODE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTCONN",
  "EAI_AGAIN",
]);
/** Prisma driver-adapter error kinds of the same faults. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
// "is not queryable": pg refusing a statement on a connection already lost or closing.
const MESSAGES =
  /Connection terminated|connection error|Connection is closed|is not queryable|timeout exceeded when trying to connect|Can't reach database server|Reached the max retries per request limit/i;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
}

/**
 * Whether `error` is a connection fault rather than a fault of the request. `causes: false` looks
 * at the error itself (and a Prisma driver error's own cause), not at what it wraps: a graph's
 * `fetch` to a service that refuses it wraps ECONNREFUSED too, and that is the graph's error.
 */
export function isTransientError(error: unknown, options: { causes?: boolean } = {}, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const e = error as ErrorLike;
  if (typeof e.code === "string" && (SQLSTATE.test(e.code) || NODE_CODES.has(e.code))) return true;
  if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return true;
  if (e.name === "MaxRetriesPerRequestError") return true;
  if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  return (
    isTransientError(e.meta?.driverAdapterError?.cause, options, depth + 1) ||
    (options.causes !== false && isTransientError(e.cause, options, depth + 1))
  );
}

/**
 * Runs `task`, again after a growing pause while it fails with a transient fault (at most
 * `attempts` times in all); any other error, or the last transient one, is thrown.
 */
export async function retryTransient<T>(
  task: () => Promise<T>,
  options: { attempts?: number; firstDelayMs?: number; maxDelayMs?: number; onRetry?: (error: unknown) => void } = {},
): Promise<T> {
  const attempts = options.attempts ?? 8;
  let delay = options.firstDelayMs ?? 200;
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= attempts || !isTransientError(error)) throw error;
      options.onRetry?.(error);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, options.maxDelayMs ?? 5_000);
    }
  }
}
