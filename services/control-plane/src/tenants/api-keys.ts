import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db";

export const DEFAULT_TENANT_NAME = "default";

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** A new random key: `lgp_` and 40 hex characters. Only its hash is stored. */
export function generateApiKey(): string {
  return `lgp_${randomBytes(20).toString("hex")}`;
}

export interface ResolvedKey {
  tenantId: string;
  apiKeyId: string;
}

/** What the key with this hash belongs to; null: no such key. */
export async function findApiKey(db: Db, keyHash: string): Promise<ResolvedKey | null> {
  const row = await db.apiKey.findUnique({ where: { keyHash }, select: { id: true, tenantId: true } });
  return row ? { tenantId: row.tenantId, apiKeyId: row.id } : null;
}

export async function resolveApiKey(db: Db, key: string): Promise<ResolvedKey | null> {
  return findApiKey(db, hashApiKey(key));
}

/** Creates a tenant (or finds it by name) and issues a key for it; the plain key is returned once. */
export async function createTenantKey(
  db: Db,
  tenantName: string,
  keyName = "default",
  key = generateApiKey(),
): Promise<{ tenantId: string; apiKey: string }> {
  const tenant = await db.tenant.upsert({ where: { name: tenantName }, update: {}, create: { name: tenantName } });
  await db.apiKey.upsert({
    where: { keyHash: hashApiKey(key) },
    update: {},
    create: { tenantId: tenant.id, keyHash: hashApiKey(key), prefix: key.slice(0, 8), name: keyName },
  });
  return { tenantId: tenant.id, apiKey: key };
}

/** Makes the bootstrap key (from the environment) resolve to the default tenant. */
export async function ensureBootstrapKey(db: Db, key: string): Promise<string> {
  const { tenantId } = await createTenantKey(db, DEFAULT_TENANT_NAME, "bootstrap", key);
  return tenantId;
}

/** A tenant's keys as the CLI lists them (never the key: it is not stored). */
export function listTenantKeys(db: Db, tenantId: string) {
  return db.apiKey.findMany({
    where: { tenantId },
    orderBy: { createdAt: "asc" },
    select: { prefix: true, name: true, createdAt: true },
  });
}

/**
 * Deletes one of a tenant's keys, named by the whole key or by the prefix `keys` lists; answers
 * how many keys matched (a prefix two keys share deletes neither: say the whole key). Every
 * control plane forgets it at once (the `api_key_changes` trigger).
 */
export async function revokeTenantKey(db: Db, tenantId: string, keyOrPrefix: string): Promise<number> {
  const where =
    keyOrPrefix.length > 8 ? { tenantId, keyHash: hashApiKey(keyOrPrefix) } : { tenantId, prefix: keyOrPrefix };
  const matches = await db.apiKey.findMany({ where, select: { id: true } });
  if (matches.length === 1) await db.apiKey.delete({ where: { id: matches[0].id } });
  return matches.length;
}
