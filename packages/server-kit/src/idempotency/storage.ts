// Where idempotency keys are kept: a table per service (`idempotency_keys`, made by each
// service's migrations), reached through whatever driver the service has (pg or Prisma). One row
// per (scope, key): claimed by the first request, then holding what a repeat answers.
import { randomUUID } from "node:crypto";
import type { Logger } from "../logger";

/**
 * `pending`: the first request is working and has nothing to show yet; `started`: it created its
 * resource and is still answering (a stream, a wait), which a repeat can join; `done`: its answer.
 */
export type IdempotencyState = "pending" | "started" | "done";

/** A first answer as it is given again: its status, the headers that describe it, its body. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRecord {
  fingerprint: string;
  state: IdempotencyState;
  /** What a started request created (a run's ids), for a repeat to join. */
  resource: Record<string, string> | null;
  answer: StoredAnswer | null;
}

export type ClaimOutcome = { claimed: true; token: string } | { claimed: false; record: IdempotencyRecord };

/**
 * What the mechanism needs of a service's storage. `token` is the claim's own id: a request whose
 * claim was taken over (it outlived its lease) can no longer write the row.
 */
export interface IdempotencyStorage {
  /**
   * Takes (scope, key) for a request with this fingerprint, unless a live row holds it: then
   * answers that row. An expired row, or a `pending` one older than `leaseSeconds` (its request
   * died with its process), is taken over.
   */
  claim(
    scope: string,
    key: string,
    fingerprint: string,
    ttlSeconds: number,
    leaseSeconds: number,
  ): Promise<ClaimOutcome>;
  read(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  started(scope: string, key: string, token: string, resource: Record<string, string>): Promise<void>;
  complete(scope: string, key: string, token: string, answer: StoredAnswer): Promise<void>;
  /** The first request failed before it made anything: the key is free again. */
  release(scope: string, key: string, token: string): Promise<void>;
  /** Deletes expired rows, a batch at a time; answers how many went. */
  sweep(): Promise<number>;
}

/** One parameterised statement ($1, $2, ...) and its rows: `pool.query` or Prisma's `$queryRawUnsafe`. */
export type SqlQuery = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

export interface PostgresIdempotencyOptions {
  /** Defaults to `idempotency_keys`. */
  table?: string;
  /**
   * Stored answers sealed at rest (the control plane's: a new deployment's answer carries its API
   * key). Identity when not given.
   */
  seal?: (plain: string) => string;
  open?: (sealed: string) => string;
}

const SWEEP_BATCH = 1_000;

export class PostgresIdempotencyStorage implements IdempotencyStorage {
  private readonly table: string;
  private readonly seal: (plain: string) => string;
  private readonly open: (sealed: string) => string;

  constructor(
    private readonly query: SqlQuery,
    options: PostgresIdempotencyOptions = {},
  ) {
    this.table = `"${(options.table ?? "idempotency_keys").replace(/"/g, "")}"`;
    this.seal = options.seal ?? ((plain) => plain);
    this.open = options.open ?? ((sealed) => sealed);
  }

  async claim(
    scope: string,
    key: string,
    fingerprint: string,
    ttlSeconds: number,
    leaseSeconds: number,
    attempt = 1,
  ): Promise<ClaimOutcome> {
    const token = randomUUID();
    // Database time throughout: replicas' clocks never decide whether a key has expired.
    const rows = await this.query(
      `INSERT INTO ${this.table} AS k (scope, key, fingerprint, token, state, expires_at)
       VALUES ($1, $2, $3, $4::uuid, 'pending', now() + $5::integer * interval '1 second')
       ON CONFLICT (scope, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, token = EXCLUDED.token, state = 'pending', resource = NULL,
             status = NULL, headers = NULL, body = NULL, created_at = now(), updated_at = now(),
             expires_at = EXCLUDED.expires_at
         WHERE k.expires_at <= now() OR (k.state = 'pending' AND k.updated_at < now() - $6::integer * interval '1 second')
       RETURNING token::text AS token`,
      [scope, key, fingerprint, token, ttlSeconds, leaseSeconds],
    );
    if (rows.length) return { claimed: true, token };
    const record = await this.read(scope, key);
    // Released (or expired) between the two statements: claimed again.
    if (!record && attempt < 5) return this.claim(scope, key, fingerprint, ttlSeconds, leaseSeconds, attempt + 1);
    if (!record) throw new Error("the idempotency key kept changing hands");
    return { claimed: false, record };
  }

  async read(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const [row] = await this.query(
      `SELECT fingerprint, state, resource::text AS resource, status, headers::text AS headers, body
       FROM ${this.table} WHERE scope = $1 AND key = $2 AND expires_at > now()`,
      [scope, key],
    );
    if (!row) return undefined;
    const answer =
      row.state === "done"
        ? {
            status: Number(row.status),
            headers: JSON.parse(String(row.headers ?? "{}")) as Record<string, string>,
            body: row.body == null ? "" : this.open(String(row.body)),
          }
        : null;
    return {
      fingerprint: String(row.fingerprint),
      state: row.state as IdempotencyState,
      resource: row.resource == null ? null : (JSON.parse(String(row.resource)) as Record<string, string>),
      answer,
    };
  }

  async started(scope: string, key: string, token: string, resource: Record<string, string>): Promise<void> {
    await this.query(
      `UPDATE ${this.table} SET state = 'started', resource = $4::jsonb, updated_at = now()
       WHERE scope = $1 AND key = $2 AND token = $3::uuid`,
      [scope, key, token, JSON.stringify(resource)],
    );
  }

  async complete(scope: string, key: string, token: string, answer: StoredAnswer): Promise<void> {
    await this.query(
      `UPDATE ${this.table} SET state = 'done', status = $4::integer, headers = $5::jsonb, body = $6, updated_at = now()
       WHERE scope = $1 AND key = $2 AND token = $3::uuid`,
      [scope, key, token, answer.status, JSON.stringify(answer.headers), this.seal(answer.body)],
    );
  }

  async release(scope: string, key: string, token: string): Promise<void> {
    await this.query(`DELETE FROM ${this.table} WHERE scope = $1 AND key = $2 AND token = $3::uuid`, [
      scope,
      key,
      token,
    ]);
  }

  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      // Short statements: a backlog goes a batch at a time, never as one long lock.
      const rows = await this.query(
        `DELETE FROM ${this.table} WHERE ctid IN (
           SELECT ctid FROM ${this.table} WHERE expires_at <= now() LIMIT ${SWEEP_BATCH}
         ) RETURNING 1 AS gone`,
        [],
      );
      total += rows.length;
      if (rows.length < SWEEP_BATCH) return total;
    }
  }
}

/** How often expired keys are deleted (they are ignored from their expiry on, swept or not). */
export const IDEMPOTENCY_SWEEP_MS = 10 * 60_000;

/**
 * Deletes expired keys every `intervalMs` (any replica may: a DELETE of expired rows is safe to
 * run twice). Answers the function that stops it.
 */
export function startIdempotencySweep(
  storage: Pick<IdempotencyStorage, "sweep">,
  logger: Logger,
  intervalMs = IDEMPOTENCY_SWEEP_MS,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    storage
      .sweep()
      .then((count) => {
        if (count) logger.debug({ count }, "expired idempotency keys swept");
      })
      .catch((error) => logger.warn({ err: error }, "idempotency key sweep failed"))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
