// The `Idempotency-Key` request header (IETF httpapi draft "The Idempotency-Key HTTP Header
// Field"): what a key may be, and what makes two requests "the same request".
import { createHash } from "node:crypto";
import { z } from "zod";
import { invalid } from "../http/errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Set on an answer given again (or a joined stream) to a repeated key, as several APIs name it. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** Where a bad key is reported: the header, by name. */
export const KEY_LOC = ["header", IDEMPOTENCY_HEADER];

/** IDEMPOTENCY_KEY_TTL_SECONDS of both services: how long a key is kept (24 h unless set). */
export const idempotencyKeyTtlSeconds = () =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .default(86_400);

/**
 * IDEMPOTENCY_WAIT_MS of both services: how long a repeat waits for its first request's answer
 * before a 409 with Retry-After (keep it under the timeouts of the proxies in front).
 */
export const idempotencyWaitMs = () => z.coerce.number().int().min(100).max(600_000).default(30_000);

/**
 * The key a header value carries. The draft makes it a structured-field string (`"8e03..."`);
 * clients send it bare as often (Stripe's convention), so both are read. 1 to 255 visible ASCII
 * characters; anything else is a 422 naming the header.
 */
export function parseIdempotencyKey(value: string | string[]): string {
  if (Array.isArray(value)) throw invalid(KEY_LOC, "send one Idempotency-Key, not several", "idempotency_key");
  let key = value.trim();
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(key);
  if (quoted) key = quoted[1]!.replace(/\\(["\\])/g, "$1");
  if (!/^[\x20-\x7e]{1,255}$/.test(key))
    throw invalid(KEY_LOC, "must be 1 to 255 printable ASCII characters", "idempotency_key");
  return key;
}

/** JSON with object keys in a fixed order: two bodies that differ only in key order are one body. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * What a key is bound to: the method, path, query and (parsed, validated) body. The same key with
 * another fingerprint is another request, a 422. Only a hash is kept (bodies carry secrets).
 */
export function requestFingerprint(request: { method: string; path: string; query: unknown; body: unknown }): string {
  const text = JSON.stringify([
    request.method,
    request.path,
    canonical(request.query ?? {}),
    canonical(request.body ?? null),
  ]);
  return createHash("sha256").update(text).digest("hex");
}
