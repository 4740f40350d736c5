import { createHash } from "node:crypto";

/**
 * How an agent runtime's API key is kept: `sha256:<hex>`, the form of `API_KEY_HASHES` entries.
 * The runtime, the control plane that mints deployment keys and `npm start` all write it; one
 * definition keeps them in step. Keys are long random strings, so a fast hash is as good as a slow one.
 */
export function runtimeKeyHash(key: string): string {
  return `sha256:${createHash("sha256").update(key, "utf8").digest("hex")}`;
}
