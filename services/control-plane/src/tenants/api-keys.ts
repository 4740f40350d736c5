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

export async function resolveApiKey(db: Db, key: string): Promise<ResolvedKey | null> {
  const row = await db.apiKey.findUnique({ where: { keyHash: hashApiKey(key) }, select: { id: true, tenantId: true } });
  return row ? { tenantId: row.tenantId, apiKeyId: row.id } : null;
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
