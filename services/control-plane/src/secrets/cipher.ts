import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets at rest (deployment secrets, OAuth client secrets and tokens), with a key
 * ring: the current key (SECRETS_ENCRYPTION_KEY) encrypts, older ones (SECRETS_ENCRYPTION_OLD_KEYS)
 * still decrypt until `secrets:rotate` has re-encrypted everything under the current key.
 *
 * Stored form: `v1:<iv b64>:<tag b64>:<ciphertext b64>`, the same whichever key wrote it, so a
 * release without the ring reads whatever was written with its key. The key that opens a value is
 * found by trying the ring in order (current first): GCM's tag refuses a wrong key, so a value
 * never decrypts to garbage. Only values still under an old key cost more than one attempt.
 */
export class SecretCipher {
  /** The current key first, then the old ones in the order configured. */
  private readonly keys: Buffer[];

  constructor(current: Buffer, old: readonly Buffer[] = []) {
    for (const key of [current, ...old]) if (key.length !== 32) throw new Error("the secrets key must be 32 bytes");
    this.keys = [current, ...old.filter((key) => !key.equals(current))];
  }

  static fromEncodedKey(encoded: string, oldEncoded: readonly string[] = []): SecretCipher {
    return new SecretCipher(decodeKey(encoded), oldEncoded.map(decodeKey));
  }

  /** The ring the configuration names. */
  static fromConfig(config: { SECRETS_ENCRYPTION_KEY: string; SECRETS_ENCRYPTION_OLD_KEYS?: readonly string[] }) {
    return SecretCipher.fromEncodedKey(config.SECRETS_ENCRYPTION_KEY, config.SECRETS_ENCRYPTION_OLD_KEYS ?? []);
  }

  /** How many old keys the ring holds besides the current one. */
  get oldKeyCount(): number {
    return this.keys.length - 1;
  }

  /** Short, non-secret names of the keys (current first), for an operator to tell them apart. */
  fingerprints(): string[] {
    return this.keys.map(keyFingerprint);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.keys[0]!, iv);
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(":");
  }

  decrypt(stored: string): string {
    return this.open(stored).plain;
  }

  /** The plain value and which key opened it: 0 the current key, n the n-th old key. */
  open(stored: string): { plain: string; key: number } {
    const [version, iv, tag, data, extra] = stored.split(":");
    if (version !== "v1" || !iv || !tag || data === undefined || extra !== undefined) {
      throw new UndecryptableSecretError("not an encrypted secret");
    }
    for (let key = 0; key < this.keys.length; key++) {
      const decipher = createDecipheriv("aes-256-gcm", this.keys[key]!, Buffer.from(iv, "base64"));
      decipher.setAuthTag(Buffer.from(tag, "base64"));
      try {
        const plain = Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]);
        return { plain: plain.toString("utf8"), key };
      } catch {
        // Not this key (the tag does not match): the next one.
      }
    }
    throw new UndecryptableSecretError(
      "a stored secret opens with none of the configured keys (SECRETS_ENCRYPTION_KEY, SECRETS_ENCRYPTION_OLD_KEYS)",
    );
  }

  /** `stored` encrypted under the current key, or undefined when it already is. */
  reencrypt(stored: string): string | undefined {
    const { plain, key } = this.open(stored);
    return key === 0 ? undefined : this.encrypt(plain);
  }
}

/** A stored value none of the configured keys opens (or that is not one of ours). */
export class UndecryptableSecretError extends Error {
  override name = "UndecryptableSecretError";
}

/** 12 hex characters naming a key without revealing it (an HMAC under the key, not the key's hash). */
export function keyFingerprint(key: Buffer): string {
  return createHmac("sha256", key).update("lgp-key-fingerprint").digest("hex").slice(0, 12);
}

/** Accepts 32 bytes as 64 hex characters or as base64; anything else is a configuration error. */
export function decodeKey(encoded: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(encoded) ? Buffer.from(encoded, "hex") : Buffer.from(encoded, "base64");
  if (key.length !== 32) throw new Error("must be 32 bytes, as 64 hex characters or base64");
  return key;
}

export function generateKey(): string {
  return randomBytes(32).toString("base64");
}
