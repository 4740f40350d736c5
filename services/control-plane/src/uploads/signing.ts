// Upload URLs carry their own authority: the deployment, the upload's id and an expiry, signed
// (secrets/signed-token.ts). Nothing is stored until the upload arrives.
import { purposeKey, signClaims, verifyClaims } from "../secrets/signed-token";

export interface UploadGrant {
  deploymentId: string;
  uploadId: string;
  /** Unix milliseconds after which the URL is refused. */
  expiresAt: number;
}

export function uploadSigningKey(secretsKey: string): Buffer {
  return purposeKey(secretsKey, "lgp-upload-url-v1");
}

export function signUpload(grant: UploadGrant, key: Buffer): string {
  return signClaims({ d: grant.deploymentId, u: grant.uploadId, e: grant.expiresAt }, key);
}

/** The grant of a token, or why it is refused: a bad signature, or an expired URL. */
export function verifyUpload(token: string, key: Buffer, now = Date.now()): UploadGrant | "invalid" | "expired" {
  const claims = verifyClaims(token, key);
  if (!claims) return "invalid";
  const { d, u, e } = claims;
  if (typeof d !== "string" || typeof u !== "string" || typeof e !== "number") return "invalid";
  if (e < now) return "expired";
  return { deploymentId: d, uploadId: u, expiresAt: e };
}
