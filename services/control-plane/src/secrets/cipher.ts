import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets at rest (deployment secrets, OAuth client secrets and tokens).
 * Stored form: `v1:<iv b64>:<tag b64>:<ciphertext b64>`; the version prefix leaves room for key
 * rotation. The key comes from SECRETS_ENCRYPTION_KEY (32 bytes, base64 or hex).
 */
export class SecretCipher {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("the secrets key must be 32 bytes");
    this.key = key;
  }

  static fromEncodedKey(encoded: string): SecretCipher {
    return new SecretCipher(decodeKey(encoded));
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(":");
  }

  decrypt(stored: string): string {
    const [version, iv, tag, data] = stored.split(":");
    if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("not an encrypted secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
  }
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
