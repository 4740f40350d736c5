import { runtimeKeyHash } from "@lgp/server-kit";
import { generateApiKey } from "../tenants/api-keys";

/**
 * The API key of a deployment's agent runtime. The control plane keeps only its hash, in the form
 * the runtime's API_KEY_HASHES takes (`sha256:<hex>`), so the hash is what every deployer passes
 * on: the plain key exists in one answer and nowhere else.
 */
export interface RuntimeKey {
  key: string;
  hash: string;
  /** Enough of the key to tell two apart in a listing. */
  prefix: string;
}

export function runtimeKeyOf(key: string): RuntimeKey {
  return { key, hash: runtimeKeyHash(key), prefix: key.slice(0, 12) };
}

export function mintRuntimeKey(): RuntimeKey {
  return runtimeKeyOf(generateApiKey());
}
