// Upload URLs carry their own authority: the deployment, the upload's id and an expiry, signed
// with a key derived from the control plane's secrets key (HMAC-SHA256). Nothing is stored until
// the upload arrives.
import { createHmac, timingSafeEqual } from "node:crypto";

export interface UploadGrant {
  deploymentId: string;
  uploadId: string;
  /** Unix milliseconds after which the URL is refused. */
  expiresAt: number;
}

export function uploadSigningKey(secretsKey: string): Buffer {
  return createHmac("sha256", secretsKey).update("lgp-upload-url-v1").digest();
}

function mac(key: Buffer, body: string): Buffer {
  return createHmac("sha256", key).update(body).digest();
}

export function signUpload(grant: UploadGrant, key: Buffer): string {
  const body = Buffer.from(JSON.stringify({ d: grant.deploymentId, u: grant.uploadId, e: grant.expiresAt })).toString(
    "base64url",
  );
  return `${body}.${mac(key, body).toString("base64url")}`;
}

/** The grant of a token, or why it is refused: a bad signature, or an expired URL. */
export function verifyUpload(token: string, key: Buffer, now = Date.now()): UploadGrant | "invalid" | "expired" {
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) return "invalid";
  const expected = mac(key, body);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
  try {
    const { d, u, e } = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
      d: string;
      u: string;
      e: number;
    };
    if (typeof d !== "string" || typeof u !== "string" || typeof e !== "number") return "invalid";
    if (e < now) return "expired";
    return { deploymentId: d, uploadId: u, expiresAt: e };
  } catch {
    return "invalid";
  }
}
