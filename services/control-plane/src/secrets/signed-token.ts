// Credentials that carry their own authority (upload URLs, registry push and pull tokens): a JSON
// claim set and its HMAC-SHA256 under a key derived from the secrets key, one key per purpose, so
// a token minted for one use is never accepted for another. Nothing is stored to check them.
import { createHmac, timingSafeEqual } from "node:crypto";
import { decodeKey } from "./cipher";

/** The key of one purpose (`lgp-upload-url-v1`...), derived from SECRETS_ENCRYPTION_KEY. */
export function purposeKey(secretsKey: string, purpose: string): Buffer {
  return createHmac("sha256", decodeKey(secretsKey)).update(purpose).digest();
}

/**
 * One purpose's keys under a key ring: new tokens are signed with the current key's; tokens the old
 * keys signed still verify while those keys are configured (their grace: upload URLs and push
 * tokens expire within a day; pull credentials last until their deployment deploys again).
 */
export interface PurposeKeys {
  current: Buffer;
  old: Buffer[];
}

export function purposeKeys(
  config: { SECRETS_ENCRYPTION_KEY: string; SECRETS_ENCRYPTION_OLD_KEYS?: readonly string[] },
  purpose: string,
): PurposeKeys {
  return {
    current: purposeKey(config.SECRETS_ENCRYPTION_KEY, purpose),
    old: (config.SECRETS_ENCRYPTION_OLD_KEYS ?? []).map((key) => purposeKey(key, purpose)),
  };
}

function mac(key: Buffer, body: string): Buffer {
  return createHmac("sha256", key).update(body).digest();
}

/** `<claims as base64url JSON>.<signature>`: URL-safe, no padding. */
export function signClaims(claims: Record<string, unknown>, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${body}.${mac(key, body).toString("base64url")}`;
}

/** The claims of a token signed with `key` (or one of `keys`), or undefined for anything else (constant-time comparison). */
export function verifyClaims(token: string, keys: Buffer | readonly Buffer[]): Record<string, unknown> | undefined {
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) return undefined;
  const given = Buffer.from(signature, "base64url");
  const signedBy = (key: Buffer) => {
    const expected = mac(key, body);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  if (!(Buffer.isBuffer(keys) ? [keys] : keys).some(signedBy)) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    return claims && typeof claims === "object" && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
