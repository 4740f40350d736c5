import type { Logger } from "@lgp/server-kit";
import type { RevisionLog } from "../deployers/deployer";
import type { LogKind, LogLevel, LogLine, RevisionRepository } from "../revisions/repository";

/** Longest line kept in a revision log; command output can be arbitrarily long. */
const MAX_LINE = 4000;

function clipLine(message: string): string {
  return message.length > MAX_LINE ? `${message.slice(0, MAX_LINE)}…` : message;
}

/**
 * A revision's build or deploy log. Deployers write synchronously; lines are buffered and written
 * in batches (`flush` at the end of each step), so a chatty build does not cost a query per line.
 */
export class RevisionLogWriter implements RevisionLog {
  private buffer: LogLine[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly revisions: RevisionRepository,
    private readonly revisionId: string,
    private readonly kind: LogKind,
    private readonly logger: Logger,
  ) {}

  info(message: string): void {
    this.add("info", message);
  }
  warn(message: string): void {
    this.add("warn", message);
  }
  error(message: string): void {
    this.add("error", message);
  }

  /**
   * A line of this log for a statement of its own to store (a transition's, with the status it
   * moves), clipped as the buffered ones are.
   */
  line(level: LogLevel, message: string): Omit<LogLine, "timestamp"> {
    return { kind: this.kind, level, message: clipLine(message) };
  }

  private add(level: LogLevel, message: string): void {
    this.buffer.push({ kind: this.kind, level, message: clipLine(message), timestamp: new Date() });
    this.timer ??= setTimeout(() => void this.flush(), 250);
  }

  /** Writes what is buffered; never throws (a log write must not fail a deployment). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const lines = this.buffer;
    this.buffer = [];
    this.writing = this.writing.then(() =>
      this.revisions.appendLogs(this.revisionId, lines).catch((error: unknown) => {
        this.logger.warn({ err: error, revision_id: this.revisionId }, "could not write revision log lines");
      }),
    );
    return this.writing;
  }
}
