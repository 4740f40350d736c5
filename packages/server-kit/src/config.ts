import express from "express";
import { z } from "zod";
import { OutboundPolicy } from "./outbound/policy";

export class ConfigError extends Error {}

/** Variables holding secrets (SECRETS_ENCRYPTION_KEY, SECRETS_ENCRYPTION_OLD_KEYS, BOOTSTRAP_API_KEY...). */
const SECRET_VARIABLE = /(^|_)(KEYS?|SECRET|PASSWORD|TOKEN)$/;

/**
 * Validates the environment against a zod object schema whose keys are variable names.
 * Fails with one line naming the first bad variable, so start-up never ends in a stack trace.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    input[key] = value === "" ? undefined : value;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? "environment");
    const got = input[name];
    // A key or password given wrong is still a secret: the line names the variable, not its value.
    const shown = got === undefined || SECRET_VARIABLE.test(name) ? "" : ` (got ${JSON.stringify(got)})`;
    throw new ConfigError(`invalid ${name}: ${issue.message}${shown}`);
  }
  return parsed.data;
}

/** Reusable variable shapes. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  postgresUrl: () =>
    z
      .string()
      .refine((value) => /^postgres(ql)?:\/\/.+/.test(value) && URL.canParse(value), "must be a postgres:// URL"),
  redisUrl: () =>
    z.string().refine((value) => /^rediss?:\/\/.+/.test(value) && URL.canParse(value), "must be a redis:// URL"),
  logLevel: () => z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  boolean: (fallback: boolean) =>
    z
      .enum(["true", "false", "1", "0"], { message: "must be true or false" })
      .default(fallback ? "true" : "false")
      .transform((value) => value === "true" || value === "1"),
  /** OUTBOUND_ALLOW: what calls to URLs from input may reach besides the internet (see outbound/). */
  outboundPolicy: () =>
    z
      .string()
      .default("")
      .transform((value, context) => {
        try {
          return OutboundPolicy.fromSetting(value);
        } catch (error) {
          context.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      }),
  /**
   * TRUST_PROXY: the reverse proxies whose X-Forwarded-For is believed for the client's address
   * (Express's `trust proxy`): a hop count (`1`), or addresses, CIDR ranges and the names
   * `loopback`, `linklocal`, `uniquelocal`, comma-separated. Unset: the socket's address.
   */
  trustProxy: () =>
    z
      .string()
      .optional()
      .transform((value, context) => {
        if (value === undefined || value.trim() === "") return undefined;
        const setting = /^\d+$/.test(value.trim()) ? Number(value) : value;
        if (typeof setting === "string" && /^(true|false)$/i.test(setting.trim())) {
          context.addIssue({
            code: "custom",
            message:
              "must be a hop count or the proxies' addresses (trusting every address would let any client choose its own)",
          });
          return z.NEVER;
        }
        try {
          // Express compiles the setting at once: a bad address throws here, not on a request.
          express().set("trust proxy", setting);
        } catch (error) {
          context.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
        return setting;
      }),
};

/** Runs a service entry point: a ConfigError prints one line and exits 1; anything else is logged. */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError || (error as Error)?.name === "MigrationError") {
      process.stderr.write(`${(error as Error).message}\n`);
    } else {
      process.stderr.write(`fatal: ${(error as Error)?.stack ?? String(error)}\n`);
    }
    process.exit(1);
  });
}
