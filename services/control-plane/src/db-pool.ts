// The control plane's PostgreSQL pool (under Prisma's pg driver adapter). A failover or a pooler
// restart ends every connection at once, but a pooled connection learns of it only when its socket
// is read: until then it looks idle and healthy, and a query sent again would meet the next dead
// one. So each connection remembers the fault generation it was opened in; any connection fault
// starts a new generation, and a checkout discards every connection opened before it.
import pg from "pg";

/** A connection could not be opened (refused, timed out, ended while starting): nothing was sent on it. */
export class ConnectionNotOpenedError extends Error {
  readonly code: unknown;

  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`could not open a database connection: ${reason}`, { cause });
    this.name = "ConnectionNotOpenedError";
    // The same code as the fault (ECONNREFUSED, 57P03...), so it is classed as transient alike.
    this.code = (cause as { code?: unknown } | null)?.code;
  }
}

type Checkout = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: any) => void) => void; // eslint-disable-line @typescript-eslint/no-explicit-any -- as @types/pg declares it

export class FreshPool extends pg.Pool {
  private generation = 0;
  private readonly openedIn = new WeakMap<pg.PoolClient, number>();

  constructor(config: pg.PoolConfig) {
    super(config);
    this.on("connect", (client) => {
      this.openedIn.set(client, this.generation);
      // Always heard: a connection cut while it is between owners must neither go unnoticed nor
      // be an unhandled 'error' event (which would end the process).
      client.on("error", () => this.connectionLost(this.openedIn.get(client)));
    });
    this.on("error", (_error, client) => this.connectionLost(this.openedIn.get(client)));
  }

  /** The current fault generation: pass it to `connectionLost` when a query begun now fails. */
  get faultGeneration(): number {
    return this.generation;
  }

  /**
   * A connection fault was seen by something begun in generation `seen`: every connection opened
   * until now is suspect. A fault of an older generation is already known, and changes nothing.
   */
  connectionLost(seen: number | undefined = this.generation): void {
    if (seen === this.generation) this.generation++;
  }

  // Both forms: Prisma's adapter checks out with a promise (transactions), pg-pool's own
  // `query` with a callback.
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: Checkout): void;
  override connect(callback?: Checkout): Promise<pg.PoolClient> | void {
    const fresh = this.checkout();
    if (!callback) return fresh;
    fresh.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => {}),
    );
  }

  private async checkout(): Promise<pg.PoolClient> {
    for (;;) {
      const seen = this.generation;
      let client: pg.PoolClient;
      try {
        client = await super.connect();
      } catch (error) {
        this.connectionLost(seen);
        throw new ConnectionNotOpenedError(error);
      }
      if ((this.openedIn.get(client) ?? -1) >= this.generation) return client;
      // Opened before the last fault: ended and dropped; the loop ends with a new connection.
      client.release(new Error("connection opened before the last connection fault"));
    }
  }
}

/** pg refuses a statement on a connection that already failed or ended, before sending anything. */
const REFUSED_UNSENT = /^Client (has encountered a connection error|was closed) and is not queryable$/;

/**
 * Whether `error` (or what it wraps) says the statement was never sent: the connection never
 * opened, or pg refused to send on one already lost. Such a write certainly did not commit.
 */
export function neverSent(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  if (error instanceof ConnectionNotOpenedError) return true;
  const { message, cause } = error as { message?: unknown; cause?: unknown };
  if (typeof message === "string" && REFUSED_UNSENT.test(message)) return true;
  return neverSent(cause, depth + 1);
}
