// `getLogger()` of `@langchain/langgraph-sdk/logging` returns the logger the server put at a
// well-known global symbol (the official server puts its winston logger there). Graphs call it with
// winston's signatures, so ours is wrapped: `(message, ...meta)`, `(object)` or `(error)`.
import type { Logger } from "@lgp/server-kit";

const SDK_LOGGER = Symbol.for("langgraph.api.sdk-logger");

type Level = "error" | "warn" | "info" | "debug" | "trace";

/** winston's level names (npm and cli sets) on pino's. */
const LEVELS: Record<string, Level> = {
  error: "error",
  warn: "warn",
  help: "info",
  data: "info",
  info: "info",
  prompt: "info",
  input: "info",
  http: "debug",
  verbose: "debug",
  debug: "debug",
  silly: "trace",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export type SdkLogger = Record<keyof typeof LEVELS, (message: unknown, ...meta: unknown[]) => SdkLogger>;

/**
 * The winston-shaped view that graphs get from `getLogger()`. It writes to whichever logger is
 * current when it is called: a graph module keeps what `getLogger()` gave it at import, and a
 * process may load its graphs before its real logger exists (start-up checks load them first).
 */
export function sdkLogger(current: () => Logger): SdkLogger {
  const facade = {} as SdkLogger;
  for (const [name, level] of Object.entries(LEVELS)) {
    facade[name] = (message: unknown, ...meta: unknown[]) => {
      const logger = current();
      const fields: Record<string, unknown> = {};
      for (const item of meta) {
        if (item instanceof Error) fields.err = item;
        else if (isRecord(item)) Object.assign(fields, item);
      }
      if (message instanceof Error) logger[level]({ ...fields, err: message }, message.message);
      else if (isRecord(message)) {
        const { message: text, ...rest } = message;
        logger[level]({ ...rest, ...fields }, typeof text === "string" ? text : "");
      } else logger[level](fields, typeof message === "string" ? message : JSON.stringify(message));
      return facade;
    };
  }
  return facade;
}

let currentLogger: Logger | undefined;

/** Makes `getLogger()` work inside graphs loaded by this process, writing to `logger` from now on. */
export function registerSdkLogger(logger: Logger): void {
  currentLogger = logger.child({ component: "graph" });
  const global = globalThis as Record<symbol, unknown>;
  global[SDK_LOGGER] ??= sdkLogger(() => currentLogger!);
}
