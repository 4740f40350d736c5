// Hears API-key changes from PostgreSQL (LISTEN api_key_changes; the trigger of migration
// 20261201000000_api_key_changes announces each one when it commits) and makes the cache forget
// them: every replica, whoever made the change (the API, `npm run tenants`, plain SQL). While the
// connection is down, announcements may be missed: on each reconnect the cache is emptied, and
// until then its TTL bounds what it may answer from before. A connection that died silently (a
// failover behind a load balancer: no error until something is sent) is found by a heartbeat.
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@lgp/server-kit";
import { Client } from "pg";
import type { ApiKeyCache } from "./key-cache";

export const KEY_CHANGES_CHANNEL = "api_key_changes";

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
/** A listening connection sends nothing by itself: this often it is asked a `SELECT 1`. */
const HEARTBEAT_MS = 30_000;

export class KeyChangeListener {
  private client: Client | null = null;
  private closed = false;
  private readonly stopped = new AbortController();
  private reconnecting: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly cache: Pick<ApiKeyCache, "forget" | "clear">,
    private readonly logger: Logger,
    private readonly options: { heartbeatMs?: number } = {},
  ) {}

  /** Listens; resolves once listening, or once the first try failed (it goes on trying). */
  async start(): Promise<void> {
    const every = this.options.heartbeatMs ?? HEARTBEAT_MS;
    this.heartbeat = setInterval(() => void this.beat(), every);
    this.heartbeat.unref();
    if (!(await this.listen())) this.reconnect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.stopped.abort();
    await this.reconnecting;
    await this.client?.end().catch(() => {});
    this.client = null;
  }

  private async listen(): Promise<boolean> {
    // A statement unanswered for a heartbeat's period means the connection is gone.
    const client = new Client({
      connectionString: this.databaseUrl,
      connectionTimeoutMillis: 10_000,
      query_timeout: this.options.heartbeatMs ?? HEARTBEAT_MS,
    });
    // A cut connection ('error' then 'end'): listen again on a new one.
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    client.on("notification", (message) => {
      if (message.channel !== KEY_CHANGES_CHANNEL || !message.payload) return;
      if (message.payload === "*") this.cache.clear();
      else this.cache.forget(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
    } catch (error) {
      this.logger.warn(
        { err: error },
        "cannot listen for API-key changes yet; cached keys expire by their TTL meanwhile",
      );
      client.removeAllListeners("end");
      await client.end().catch(() => {});
      return false;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return true;
    }
    this.client = client;
    // Changes made while nobody listened were not heard: everything is asked again.
    this.cache.clear();
    return true;
  }

  /** No answer within the period: the connection is given up and another one listens. */
  private async beat(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      await client.query("SELECT 1");
    } catch (error) {
      this.lost(client, error as Error);
      client.end().catch(() => {});
    }
  }

  private lost(client: Client, error?: Error): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.logger.warn({ err: error }, "lost the connection that hears API-key changes; listening again");
    this.reconnect();
  }

  private reconnect(): void {
    if (this.reconnecting || this.closed) return;
    this.reconnecting = (async () => {
      for (let delay = FIRST_RETRY_MS; !this.closed; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
        await sleep(delay, undefined, { signal: this.stopped.signal }).catch(() => {});
        if (this.closed || (await this.listen())) break;
      }
    })().finally(() => {
      this.reconnecting = null;
    });
  }
}
