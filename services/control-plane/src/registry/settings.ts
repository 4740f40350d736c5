import { readFileSync } from "node:fs";
import { ConfigError } from "@lgp/server-kit";
import type { ControlPlaneConfig } from "../config";
import { credentialKeys } from "./credentials";
import { tokenSigningKey, type TokenSigningKey } from "./jwt";
import { deploymentRepositoryPrefix } from "./scope";

export interface RegistrySettings {
  /** The registry as clients name it in image references: host[:port][/path], no scheme. */
  url: string;
  /** `auth.token.service` in the registry's configuration. */
  service: string;
  /** `auth.token.issuer` in the registry's configuration. */
  issuer: string;
  signingKey: TokenSigningKey;
  /** The HMAC key of push tokens and pull credentials. */
  credentialKey: Buffer;
  /** Those of SECRETS_ENCRYPTION_OLD_KEYS: credentials they signed still verify (see secrets/signed-token.ts). */
  oldCredentialKeys?: Buffer[];
  pushTokenTtlMs: number;
}

/** `registry.example.com:5000/team` (as REGISTRY_URL is once validated: no scheme, no trailing `/`) → its host and its path below the host. */
export function splitRegistryUrl(url: string): { host: string; path: string } {
  const slash = url.indexOf("/");
  return slash < 0 ? { host: url, path: "" } : { host: url.slice(0, slash), path: url.slice(slash + 1) };
}

/** Where a deployment's images go, as image references name it: `<host>[/<path>]/deployments/<id>`. */
export function deploymentRepository(url: string, deploymentId: string): string {
  const { host, path } = splitRegistryUrl(url);
  return `${host}/${deploymentRepositoryPrefix(deploymentId, path)}`;
}

/** The configured registry, its signing key read and checked at start-up; undefined without REGISTRY_URL. */
export function registrySettingsOf(config: ControlPlaneConfig): RegistrySettings | undefined {
  if (!config.REGISTRY_URL) return undefined;
  const file = config.REGISTRY_TOKEN_KEY_FILE!;
  let pem: Buffer;
  try {
    pem = readFileSync(file);
  } catch (error) {
    throw new ConfigError(`REGISTRY_TOKEN_KEY_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code})`);
  }
  const keys = credentialKeys(config);
  return {
    url: config.REGISTRY_URL,
    service: config.REGISTRY_SERVICE,
    issuer: config.REGISTRY_TOKEN_ISSUER,
    signingKey: tokenSigningKey(pem),
    credentialKey: keys.current,
    oldCredentialKeys: keys.old,
    pushTokenTtlMs: config.REGISTRY_PUSH_TOKEN_TTL_SECONDS * 1000,
  };
}
