// Deployment API keys: a runtime started with key hashes answers 401 to any request that does not
// carry one of its keys (`x-api-key`, or `Authorization: Bearer <key>`). The runtime holds only
// SHA-256 hashes (server-kit's runtimeKeyHash writes them).
import { createHash, timingSafeEqual } from "node:crypto";

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

/** The key a request carries: `x-api-key`, or `Authorization: Bearer <key>` when `bearer` allows. */
export function presentedKey(
  header: string | undefined,
  authorization: string | undefined,
  bearer = true,
): string | undefined {
  if (header) return header;
  if (!bearer) return undefined;
  return /^Bearer\s+(.+)$/i.exec(authorization ?? "")?.[1];
}

/** Whether `key` hashes to one of `hashes` (compared in constant time). */
export function isDeploymentKey(hashes: Buffer[], key: string | undefined): boolean {
  return matchingKeyHash(hashes, key) !== undefined;
}

/** The hash of `hashes` that `key` hashes to (compared in constant time, every one of them). */
export function matchingKeyHash(hashes: Buffer[], key: string | undefined): Buffer | undefined {
  if (!key) return undefined;
  const digest = createHash("sha256").update(key, "utf8").digest();
  let match: Buffer | undefined;
  for (const hash of hashes) if (timingSafeEqual(hash, digest)) match = hash;
  return match;
}

/** Names a deployment key where it is counted (rate limits): the start of its hash, never the key. */
export function keyIdOf(hash: Buffer): string {
  return hash.subarray(0, 12).toString("hex");
}
