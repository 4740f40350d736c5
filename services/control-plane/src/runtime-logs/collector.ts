// A deployed revision's runtime output, kept in its deploy log (what `langgraph deploy logs` and
// the console read): each line parsed (parse.ts), the deployment's secret values masked, written
// in batches. At most MAX_PENDING lines wait for the database; past that the oldest are dropped
// and a line says how many, so a runtime that logs faster than the database takes costs bounded
// memory.
import type { Logger } from "@lgp/server-kit";
import type { LineOrigin, RuntimeLogSink } from "../deployers/deployer";
import type { LogLine, RevisionRepository } from "../revisions/repository";
import { parseRuntimeLine } from "./parse";

const FLUSH_MS = 500;
const BATCH = 200;
const MAX_PENDING = 5000;
/** Longest message kept (as the build and deploy logs clip theirs). */
const MAX_MESSAGE = 4000;
/** Secret values shorter than this are not masked (they would mask ordinary words). */
const MIN_SECRET = 6;
const MASK = "****";

export class RuntimeLogCollector implements RuntimeLogSink {
  private pending: LogLine[] = [];
  private dropped = 0;
  private timer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  /** When the last line came (or the collector was made). */
  lastLineMs = Date.now();
  private readonly secrets: string[];

  constructor(
    private readonly revisions: Pick<RevisionRepository, "appendLogs">,
    private readonly revisionId: string,
    secretValues: string[],
    private readonly logger: Logger,
  ) {
    // The longest first, so a secret that contains another is masked whole.
    this.secrets = secretValues.filter((value) => value.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
  }

  private mask(text: string): string {
    let masked = text;
    for (const secret of this.secrets) if (masked.includes(secret)) masked = masked.split(secret).join(MASK);
    return masked;
  }

  line(stream: "stdout" | "stderr", text: string, origin?: LineOrigin): void {
    this.lastLineMs = Date.now();
    const parsed = parseRuntimeLine(text, stream);
    if (origin?.timestamp) parsed.timestamp = origin.timestamp;
    if (origin?.fields) parsed.fields = { ...parsed.fields, ...origin.fields };
    let message = this.mask(parsed.message);
    if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE)}…`;
    const fields =
      parsed.fields && this.secrets.length
        ? (JSON.parse(this.mask(JSON.stringify(parsed.fields))) as Record<string, unknown>)
        : parsed.fields;
    this.pending.push({ kind: "deploy", level: parsed.level, message, timestamp: parsed.timestamp, fields });
    if (this.pending.length > MAX_PENDING) {
      this.dropped += this.pending.length - MAX_PENDING;
      this.pending.splice(0, this.pending.length - MAX_PENDING);
    }
    // While a write is under way, lines wait here (bounded); the write takes them next.
    if (this.draining) return;
    if (this.pending.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes what is pending, a batch at a time, one write after the other; never throws. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private async drain(): Promise<void> {
    while (this.pending.length || this.dropped) {
      if (this.dropped) {
        this.pending.unshift({
          kind: "deploy",
          level: "warn",
          message: `${this.dropped} runtime log line(s) dropped: the runtime wrote faster than they could be stored`,
          timestamp: new Date(),
        });
        this.dropped = 0;
      }
      const batch = this.pending.splice(0, BATCH);
      await this.revisions.appendLogs(this.revisionId, batch).catch((error: unknown) => {
        this.logger.warn({ err: error, revision_id: this.revisionId }, "could not store runtime log lines");
      });
    }
  }

  close(): Promise<void> {
    return this.flush();
  }
}
