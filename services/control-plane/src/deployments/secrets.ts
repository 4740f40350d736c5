import { invalid } from "@lgp/server-kit";
import type { SecretCipher } from "../secrets/cipher";
import { SECRET_MASK, type Secret, type StoredSecret } from "./model";

/**
 * Deployment secrets: encrypted before they reach the database, masked on the way out, and a
 * PATCH that sends the mask back keeps the stored value. Plain values exist only in memory.
 */

function checkNames(secrets: Secret[]): void {
  const seen = new Set<string>();
  secrets.forEach((secret, index) => {
    if (seen.has(secret.name))
      throw invalid(["body", "secrets", index, "name"], `duplicate secret name ${secret.name}`);
    seen.add(secret.name);
  });
}

/** Encrypts the secrets of a create request. */
export function encryptSecrets(cipher: SecretCipher, secrets: Secret[]): StoredSecret[] {
  checkNames(secrets);
  return secrets.map((secret, index) => {
    if (secret.value === SECRET_MASK) {
      throw invalid(
        ["body", "secrets", index, "value"],
        `secret ${secret.name} has the masked value and no stored value to keep`,
      );
    }
    return { name: secret.name, value: cipher.encrypt(secret.value) };
  });
}

/**
 * The new stored list of a PATCH: the given list replaces the old one; a masked value keeps the
 * value stored under that name.
 */
export function mergeSecrets(cipher: SecretCipher, stored: StoredSecret[], secrets: Secret[]): StoredSecret[] {
  checkNames(secrets);
  const byName = new Map(stored.map((secret) => [secret.name, secret.value]));
  return secrets.map((secret, index) => {
    if (secret.value === SECRET_MASK) {
      const kept = byName.get(secret.name);
      if (kept === undefined) {
        throw invalid(
          ["body", "secrets", index, "value"],
          `secret ${secret.name} has the masked value and no stored value to keep`,
        );
      }
      return { name: secret.name, value: kept };
    }
    return { name: secret.name, value: cipher.encrypt(secret.value) };
  });
}

export function maskSecrets(stored: StoredSecret[]): Secret[] {
  return stored.map((secret) => ({ name: secret.name, value: SECRET_MASK }));
}

export function decryptSecrets(cipher: SecretCipher, stored: StoredSecret[]): { name: string; value: string }[] {
  return stored.map((secret) => ({ name: secret.name, value: cipher.decrypt(secret.value) }));
}
