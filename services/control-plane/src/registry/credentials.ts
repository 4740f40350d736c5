// What a client presents to the registry's token endpoint as its password: a push token (what
// `langgraph deploy` logs in with; expires) or a pull credential (what a cluster pulls a
// deployment's images with; no expiry, valid while the deployment exists). Both name one
// deployment of one tenant and are signed with a key of their own purpose.
import { purposeKey, purposeKeys, signClaims, verifyClaims, type PurposeKeys } from "../secrets/signed-token";

export type RegistryAction = "pull" | "push";

export interface RegistryCredential {
  tenantId: string;
  deploymentId: string;
  actions: RegistryAction[];
  /** Unix milliseconds; absent for pull credentials. */
  expiresAt?: number;
}

const PURPOSE = "lgp-registry-credential-v1";

export function credentialKey(secretsKey: string): Buffer {
  return purposeKey(secretsKey, PURPOSE);
}

/** Credentials signed under SECRETS_ENCRYPTION_OLD_KEYS still verify while those keys are configured. */
export function credentialKeys(config: Parameters<typeof purposeKeys>[0]): PurposeKeys {
  return purposeKeys(config, PURPOSE);
}

export function signCredential(credential: RegistryCredential, key: Buffer): string {
  return signClaims(
    {
      t: credential.tenantId,
      d: credential.deploymentId,
      a: credential.actions,
      ...(credential.expiresAt === undefined ? {} : { e: credential.expiresAt }),
    },
    key,
  );
}

export function verifyCredential(
  token: string,
  keys: Buffer | readonly Buffer[],
  now = Date.now(),
): RegistryCredential | "invalid" | "expired" {
  const claims = verifyClaims(token, keys);
  if (!claims) return "invalid";
  const { t, d, a, e } = claims;
  if (typeof t !== "string" || typeof d !== "string" || !Array.isArray(a)) return "invalid";
  const actions = a.filter((action): action is RegistryAction => action === "pull" || action === "push");
  if (e !== undefined && typeof e !== "number") return "invalid";
  if (typeof e === "number" && e < now) return "expired";
  return { tenantId: t, deploymentId: d, actions, ...(typeof e === "number" ? { expiresAt: e } : {}) };
}
