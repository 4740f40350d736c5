// Deployment API keys: a runtime started with key hashes answers 401 to any request that does not
// carry one of its keys (`x-api-key`, or `Authorization: Bearer <key>`). The runtime holds only
// SHA-256 hashes: keys are long random strings, so a fast hash is as good as a slow one here.
import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "@lgp/server-kit";

/** What anyone may read without a key: liveness and readiness probes, server info, the docs. */
const OPEN_PATHS = /^\/(ok|ready|info|openapi\.json|docs)(\/|$)/;

/** The hash a key is kept as: `sha256:<hex>`. */
export function hashApiKey(key: string): string {
  return `sha256:${createHash("sha256").update(key, "utf8").digest("hex")}`;
}

/** Parses `sha256:<64 hex>` entries; anything else is a start-up error naming the entry. */
export function parseKeyHashes(value: string): Buffer[] | string {
  const hashes: Buffer[] = [];
  for (const entry of value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^sha256:([0-9a-f]{64})$/i.exec(entry);
    if (!match) return `entries must be sha256:<64 hex digits> (the hash of a key, never the key itself)`;
    hashes.push(Buffer.from(match[1], "hex"));
  }
  return hashes;
}

function presentedKey(header: string | undefined, authorization: string | undefined): string | undefined {
  if (header) return header;
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization ?? "");
  return bearer?.[1];
}

/** Refuses requests without a valid key (preflights pass: CORS answers them before this runs). */
export function requireApiKey(hashes: Buffer[], logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (req.method === "OPTIONS" || (["GET", "HEAD"].includes(req.method) && OPEN_PATHS.test(req.path))) return next();
    const key = presentedKey(req.get("x-api-key"), req.get("authorization"));
    if (key) {
      const digest = createHash("sha256").update(key, "utf8").digest();
      if (hashes.some((hash) => timingSafeEqual(hash, digest))) return next();
    }
    // Never the credential itself in the log.
    logger.warn({ path: req.path, method: req.method, presented: !!key }, "request refused: no valid API key");
    res.setHeader("WWW-Authenticate", 'ApiKey header="x-api-key", Bearer');
    res.status(401).json({ detail: key ? "Invalid API key" : "Missing API key: send it in the x-api-key header" });
  };
}
