// A line an agent runtime wrote, as a log line: its pino JSON read into time, level, message and
// fields; anything else (a graph's `console.log`, a library's output) kept as the text it is, at
// INFO from stdout and ERROR from stderr.
import type { LogLevel } from "../revisions/repository";

export interface ParsedLine {
  level: LogLevel;
  message: string;
  timestamp: Date;
  fields: Record<string, unknown> | null;
}

/** pino's numeric levels (trace 10 ... fatal 60) as the log's four. */
function levelOf(value: unknown): LogLevel {
  const level = typeof value === "number" ? value : 30;
  if (level >= 50) return "error";
  if (level >= 40) return "warn";
  if (level >= 30) return "info";
  return "debug";
}

/** What every line of a process carries (its process, host and logger name): not the line's own. */
const OMITTED = new Set(["level", "time", "msg", "pid", "hostname", "name"]);

export function parseRuntimeLine(text: string, stream: "stdout" | "stderr", now = new Date()): ParsedLine {
  if (text.startsWith("{")) {
    try {
      const record = JSON.parse(text) as Record<string, unknown>;
      if (record && typeof record === "object" && ("msg" in record || typeof record.level === "number")) {
        const fields = Object.fromEntries(Object.entries(record).filter(([key]) => !OMITTED.has(key)));
        const time = typeof record.time === "number" ? new Date(record.time) : now;
        const err = record.err as { message?: unknown } | undefined;
        const message =
          typeof record.msg === "string" && record.msg
            ? record.msg
            : typeof err?.message === "string"
              ? err.message
              : "";
        return {
          level: levelOf(record.level),
          message,
          timestamp: Number.isNaN(time.getTime()) ? now : time,
          fields: Object.keys(fields).length ? fields : null,
        };
      }
    } catch {
      // Not JSON after all: the text as it is.
    }
  }
  return { level: stream === "stderr" ? "error" : "info", message: text, timestamp: now, fields: null };
}
