import pino, { type Logger } from "pino";

export type { Logger };

/**
 * The one logger. JSON lines; secrets never reach it because the redaction list covers the places
 * they travel (headers, bodies of secret-bearing requests).
 */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({
    name: service,
    level,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        "req.headers.authorization",
        "req.headers.cookie",
        "*.secrets",
        "*.client_secret",
        "*.access_token",
        "*.refresh_token",
        "*.password",
      ],
      censor: "[redacted]",
    },
  });
}
