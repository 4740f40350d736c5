import { z } from "zod";
import { env, loadConfig } from "@lgp/server-kit";
import { decodeKey } from "./secrets/cipher";

/** Every variable the control plane reads, validated at start-up (see the README's table). */
export const controlPlaneEnv = z.object({
  PORT: env.port(8100),
  HOST: z.string().default("0.0.0.0"),
  CONTROL_PLANE_DATABASE_URL: env.postgresUrl(),
  REDIS_URL: env.redisUrl().optional(),
  LOG_LEVEL: env.logLevel(),
  /** A key that always resolves to the `default` tenant (the embedded start sets and prints one). */
  BOOTSTRAP_API_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  /** Where this control plane is reachable from a browser (OAuth redirect URIs). */
  PUBLIC_URL: z.url().optional(),
  /** 32 bytes (base64 or hex) encrypting secrets at rest; the embedded start generates one under .data/. */
  SECRETS_ENCRYPTION_KEY: z
    .string()
    .refine((value) => {
      try {
        decodeKey(value);
        return true;
      } catch {
        return false;
      }
    }, "must be 32 bytes, as 64 hex characters or base64"),
});

export type ControlPlaneConfig = z.infer<typeof controlPlaneEnv> & { PUBLIC_URL: string };

export function loadControlPlaneConfig(source: NodeJS.ProcessEnv = process.env): ControlPlaneConfig {
  const config = loadConfig(controlPlaneEnv, source);
  return { ...config, PUBLIC_URL: config.PUBLIC_URL ?? `http://localhost:${config.PORT}` };
}
