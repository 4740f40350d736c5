// How the auth middleware resolves X-Api-Key: through the cache, kept true by the change listener
// (main.ts and the test harness start it), or straight from the database (TTLs of 0, or an app
// built without it).
import type { Logger } from "@lgp/server-kit";
import type { ControlPlaneConfig } from "../config";
import type { Db } from "../db";
import { findApiKey, resolveApiKey } from "./api-keys";
import { ApiKeyCache, type ApiKeyResolver } from "./key-cache";
import { KeyChangeListener } from "./key-changes";

export interface ApiKeys extends ApiKeyResolver {
  close(): Promise<void>;
}

type CacheConfig = Pick<
  ControlPlaneConfig,
  | "CONTROL_PLANE_DATABASE_URL"
  | "API_KEY_CACHE_TTL_SECONDS"
  | "API_KEY_CACHE_NEGATIVE_TTL_SECONDS"
  | "API_KEY_CACHE_MAX_ENTRIES"
>;

export function uncachedApiKeys(db: Db): ApiKeyResolver {
  return { resolve: (key) => resolveApiKey(db, key) };
}

export async function startApiKeys(config: CacheConfig, db: Db, logger: Logger): Promise<ApiKeys> {
  if (config.API_KEY_CACHE_TTL_SECONDS === 0 && config.API_KEY_CACHE_NEGATIVE_TTL_SECONDS === 0) {
    return { ...uncachedApiKeys(db), close: async () => {} };
  }
  const cache = new ApiKeyCache((keyHash) => findApiKey(db, keyHash), {
    maxEntries: config.API_KEY_CACHE_MAX_ENTRIES,
    ttlMs: config.API_KEY_CACHE_TTL_SECONDS * 1000,
    negativeTtlMs: config.API_KEY_CACHE_NEGATIVE_TTL_SECONDS * 1000,
  });
  const listener = new KeyChangeListener(config.CONTROL_PLANE_DATABASE_URL, cache, logger);
  await listener.start();
  return { resolve: (key) => cache.resolve(key), close: () => listener.close() };
}
