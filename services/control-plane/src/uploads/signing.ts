// Upload URLs carry their own authority: the deployment, the upload's id and an expiry, signed
// (secrets/signed-token.ts). Nothing is stored until the upload arrives.
import { purposeKey, purposeKeys, signClaims, verifyClaims, type PurposeKeys } from "../secrets/signed-token";

export interface UploadGrant {
  deploymentId: string;
  uploadId: string;
  /** Unix milliseconds after which the URL is refused. */
  expiresAt: number;
}

const PURPOSE = "lgp-upload-url-v1";

export function uploadSigningKey(secretsKey: string): Buffer {
  return purposeKey(secretsKey, PURPOSE);
}

/** Upload URLs signed under SECRETS_ENCRYPTION_OLD_KEYS still work until they expire (UPLOAD_URL_TTL_SECONDS). */
export function uploadSigningKeys(config: Parameters<typeof purposeKeys>[0]): PurposeKeys {
  return purposeKeys(config, PURPOSE);
}

export function signUpload(grant: UploadGrant, key: Buffer): string {
  return signClaims({ d: grant.deploymentId, u: grant.uploadId, e: grant.expiresAt }, key);
}

/** The grant of a token, or why it is refused: a bad signature, or an expired URL. */
export function verifyUpload(
  token: string,
  keys: Buffer | readonly Buffer[],
  now = Date.now(),
): UploadGrant | "invalid" | "expired" {
  const claims = verifyClaims(token, keys);
  if (!claims) return "invalid";
  const { d, u, e } = claims;
  if (typeof d !== "string" || typeof u !== "string" || typeof e !== "number") return "invalid";
  if (e < now) return "expired";
  return { deploymentId: d, uploadId: u, expiresAt: e };
}
