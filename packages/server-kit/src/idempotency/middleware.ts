// Idempotent creates: a request that carries an `Idempotency-Key` is done once per key. The first
// claims the key and its answer is kept; a repeat with the same key and the same request gets
// that answer again (waiting for it while the first is in flight, up to a bound), or joins what
// the first created when its answer is a stream or a long wait; the same key on another request
// is a 422. Without the header a create goes straight on: one header lookup, nothing stored.
import type { Request, RequestHandler, Response } from "express";
import { HttpError, invalid } from "../http/errors";
import type { Logger } from "../logger";
import { KEY_LOC, parseIdempotencyKey, REPLAYED_HEADER, requestFingerprint } from "./key";
import type { IdempotencyRecord, IdempotencyStorage, StoredAnswer } from "./storage";

/** How long a repeat waits for the first request's answer before a 409 that says to retry. */
const DEFAULT_WAIT_MS = 30_000;
/**
 * A claim that has shown nothing for this long (no answer, no resource) belonged to a request
 * whose process died: the next request with the key takes it over and does the work.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 300;

/** The headers kept with an answer: what describes its body and what it created. */
const KEPT_HEADERS = ["content-type", "content-location", "location"];

export interface IdempotencyOptions {
  storage: IdempotencyStorage;
  /** How long a key is kept (IDEMPOTENCY_KEY_TTL_SECONDS). */
  ttlSeconds: number;
  /** Whose keys these are (a tenant, a user, an API key): keys of two scopes never meet. */
  scopeOf(req: Request, res: Response): string;
  logger: Logger;
  /** How long a repeat waits for the first request's answer (IDEMPOTENCY_WAIT_MS; 30 s unless set). */
  waitMs?: number;
  leaseSeconds?: number;
}

export interface IdempotentRoute {
  /**
   * For answers that are a stream or a long wait: a repeat that arrives once the first has
   * created its resource (see `idempotencyStarted`) answers by joining it, as the first does,
   * instead of waiting for the first to finish. Without it a repeat waits for the stored answer.
   */
  resume?(resource: Record<string, string>, req: Request, res: Response): Promise<void>;
}

/** What the first request holds while it works: its claim on the key. */
interface Claim {
  storage: IdempotencyStorage;
  scope: string;
  key: string;
  token: string;
  started: boolean;
  /** Set by `idempotencyKeep`: a failure answer is kept for repeats instead of freeing the key. */
  keep?: boolean;
  logger: Logger;
}

const CLAIM = "idempotencyClaim";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function bodyText(chunk: unknown): string {
  if (chunk == null || typeof chunk === "function") return "";
  if (Buffer.isBuffer(chunk)) return chunk.toString("utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk).toString("utf8");
  return String(chunk);
}

function replay(res: Response, answer: StoredAnswer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader("Content-Length", Buffer.byteLength(answer.body));
  res.end(answer.body);
}

/**
 * Keeps the first request's answer: a 2xx answer given in one piece is stored before it leaves
 * (whoever saw it, a repeat sees it too); a failure frees the key (it made nothing, so a retry may
 * do the work) unless its handler said it made part of it (`idempotencyKeep`); a stream or wait
 * that marked its resource started keeps it for repeats to join.
 */
function keepAnswer(res: Response, claim: Claim): void {
  res.locals[CLAIM] = claim;
  const end = res.end;
  let settled = false;
  res.end = function (this: Response, ...args: unknown[]) {
    const send = () => (end as (...a: unknown[]) => Response).apply(this, args);
    if (settled) return send();
    settled = true;
    const { storage, scope, key, token, logger } = claim;
    if (!res.headersSent && ((res.statusCode >= 200 && res.statusCode < 300) || claim.keep)) {
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      storage
        .complete(scope, key, token, { status: res.statusCode, headers, body: bodyText(args[0]) })
        .catch((error: unknown) => logger.warn({ err: error }, "cannot keep the answer of an idempotent request"))
        .finally(send);
      return this;
    }
    if (!claim.started) {
      storage
        .release(scope, key, token)
        .catch((error: unknown) => logger.warn({ err: error }, "cannot free an idempotency key"));
    }
    return send();
  } as Response["end"];
}

/**
 * Called by a handler whose failure comes after it made part of its work (a batch that created
 * some of its runs): the failure answer is kept as this key's answer, so a repeat is answered it
 * again rather than doing that part twice. Nothing to do on a request without a key.
 */
export function idempotencyKeep(res: Response): void {
  const claim = res.locals[CLAIM] as Claim | undefined;
  if (claim) claim.keep = true;
}

/**
 * Called by a handler once its resource exists while its answer is still to come (a run created
 * for a stream or a wait): from now on a repeat joins `resource` (its route's `resume`), and the
 * key stays taken whatever the answer. Nothing to do on a request without a key.
 */
export async function idempotencyStarted(res: Response, resource: Record<string, string>): Promise<void> {
  const claim = res.locals[CLAIM] as Claim | undefined;
  if (!claim || claim.started) return;
  claim.started = true;
  try {
    await claim.storage.started(claim.scope, claim.key, claim.token, resource);
  } catch (error) {
    // The resource exists: the request goes on; a repeat waits for the stored answer instead.
    claim.logger.warn({ err: error }, "cannot mark an idempotent request started");
  }
}

/**
 * The guard of a service's create routes: `idempotent()` on a create whose answer is JSON,
 * `idempotent({resume})` on one that streams or waits. Mounted after authentication and the
 * contract validator (the fingerprint is taken of the validated body).
 */
export function idempotentCreates(options: IdempotencyOptions): (route?: IdempotentRoute) => RequestHandler {
  const { storage, ttlSeconds, logger } = options;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const leaseSeconds = options.leaseSeconds ?? IDEMPOTENCY_LEASE_SECONDS;

  return (route = {}) =>
    async (req, res, next) => {
      const header = req.headers["idempotency-key"];
      if (header === undefined) return next();
      const key = parseIdempotencyKey(header);
      const scope = options.scopeOf(req, res);
      const fingerprint = requestFingerprint({
        method: req.method,
        path: req.originalUrl.split("?")[0]!,
        query: req.query,
        body: req.body,
      });
      let left = false;
      res.on("close", () => (left = true));
      const deadline = Date.now() + waitMs;
      // Whose turn it is: this request's (it claims the key), or the first's (its answer).
      const inFlight = (record: IdempotencyRecord) =>
        record.fingerprint === fingerprint &&
        (record.state === "pending" || (record.state === "started" && !route.resume));
      for (;;) {
        const outcome = await storage.claim(scope, key, fingerprint, ttlSeconds, leaseSeconds);
        if (outcome.claimed) {
          keepAnswer(res, { storage, scope, key, token: outcome.token, started: false, logger });
          return next();
        }
        let record: IdempotencyRecord | undefined = outcome.record;
        for (let delay = 25; record && inFlight(record); delay = Math.min(delay * 2, 500)) {
          if (left) return;
          if (Date.now() >= deadline)
            throw new HttpError(409, "A request with this Idempotency-Key is still in progress; retry shortly", {
              "Retry-After": "1",
            });
          await sleep(delay);
          record = await storage.read(scope, key);
        }
        // The first request failed and freed the key: this one does the work.
        if (!record) continue;
        if (record.fingerprint !== fingerprint)
          throw invalid(
            KEY_LOC,
            "this key was already used for a different request (another path or body); use a new key",
            "idempotency_key_reused",
          );
        res.setHeader(REPLAYED_HEADER, "true");
        req.log?.debug({ state: record.state }, "idempotent repeat answered from its first request");
        if (record.state === "done" && record.answer) return replay(res, record.answer);
        return route.resume!(record.resource ?? {}, req, res);
      }
    };
}
