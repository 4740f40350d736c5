// Follows many Redis Streams over one connection: every reader of a run's events in this process
// shares one blocking XREAD over all the streams followed, instead of holding a connection each
// (500 idle SSE clients held 519 Redis connections; Redis allows 10,000 clients in all).
import type { Redis } from "ioredis";

export type StreamEntry = [id: string, fields: string[]];

/** Stream ids `ms-seq` in order. */
export function compareIds(a: string, b: string): number {
  const [aMs, aSeq] = a.split("-");
  const [bMs, bSeq] = b.split("-");
  if (aMs.length !== bMs.length) return aMs.length - bMs.length;
  if (aMs !== bMs) return aMs < bMs ? -1 : 1;
  return Number(aSeq ?? 0) - Number(bSeq ?? 0);
}

interface Subscriber {
  /** The last id this subscriber has; later entries only. */
  last: string;
  push(entries: StreamEntry[]): void;
}

/** How long one XREAD blocks; a new key interrupts it sooner (CLIENT UNBLOCK). */
const BLOCK_MS = 2_000;
const COUNT = 200;
/**
 * How long a new key waits for the XREAD under way to return by itself before interrupting it.
 * Under load it does within this time (any followed stream's entry ends it), and the next XREAD
 * takes the new key: no CLIENT UNBLOCK, and no XREAD cut short only to be sent again. A new key's
 * stream has at most its first entries by then, which the next XREAD answers at once.
 */
const UNBLOCK_AFTER_MS = 2;

export class StreamMultiplexer {
  private readonly keys = new Map<string, Set<Subscriber>>();
  private clientId: number | undefined;
  private running = false;
  private closed = false;
  /** An XREAD is under way, and whether keys were added since it was sent. */
  private reading = false;
  private stale = false;
  /** An interruption is scheduled or under way (one at a time). */
  private unblocking = false;
  private wake?: () => void;

  constructor(
    /** Dedicated to the blocking reads (maxRetriesPerRequest: null, so they outlive an outage). */
    private readonly reader: Redis,
    /** Any other connection: it interrupts the reader's XREAD when a key is added. */
    private readonly control: Redis,
    private readonly unblockAfterMs = UNBLOCK_AFTER_MS,
  ) {
    reader.on("ready", () => {
      // A new connection has a new id (after a reconnection).
      this.clientId = undefined;
    });
  }

  /** Follows `key` after `last`: `push` gets each batch of later entries, in order. */
  subscribe(key: string, last: string, push: (entries: StreamEntry[]) => void): () => void {
    const subscriber: Subscriber = { last, push };
    let subscribers = this.keys.get(key);
    if (!subscribers) this.keys.set(key, (subscribers = new Set()));
    subscribers.add(subscriber);
    this.stale = true;
    this.interrupt();
    this.start();
    return () => {
      subscribers.delete(subscriber);
      if (subscribers.size === 0 && this.keys.get(key) === subscribers) this.keys.delete(key);
    };
  }

  /** How many streams are followed (for metrics and tests). */
  get size(): number {
    return this.keys.size;
  }

  private interrupt(): void {
    if (this.wake) {
      const wake = this.wake;
      this.wake = undefined;
      wake();
    } else if (this.reading && !this.unblocking) {
      this.unblocking = true;
      void this.unblock().finally(() => {
        this.unblocking = false;
        // A key added as this interruption ended may have missed the XREAD sent after it.
        if (this.reading && this.stale) this.interrupt();
      });
    }
  }

  /**
   * Ends the XREAD under way so the next one includes the new keys, unless it returns by itself
   * first (UNBLOCK_AFTER_MS). The UNBLOCK can reach Redis before the XREAD it targets (two
   * connections): then it is sent again, briefly.
   */
  private async unblock(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, this.unblockAfterMs));
    for (let attempt = 0; attempt < 40 && this.reading && this.stale; attempt++) {
      if (this.clientId !== undefined) {
        const unblocked = await this.control.client("UNBLOCK", this.clientId).catch(() => 0);
        if (unblocked === 1) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  private start(): void {
    if (this.running || this.closed) return;
    this.running = true;
    void this.loop().finally(() => (this.running = false));
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      if (this.keys.size === 0) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      this.clientId ??= Number(await this.reader.client("ID"));
      const keys = [...this.keys.keys()];
      // Each key from its furthest-behind subscriber; the others skip what they have.
      const ids = keys.map((key) => {
        let min: string | undefined;
        for (const subscriber of this.keys.get(key) ?? []) {
          if (min === undefined || compareIds(subscriber.last, min) < 0) min = subscriber.last;
        }
        return min ?? "0-0";
      });
      let result: [string, StreamEntry[]][] | null;
      this.stale = false;
      this.reading = true;
      try {
        result = (await this.reader.xread("COUNT", COUNT, "BLOCK", BLOCK_MS, "STREAMS", ...keys, ...ids)) as
          [string, StreamEntry[]][] | null;
      } catch {
        if (this.closed) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      } finally {
        this.reading = false;
      }
      for (const [key, entries] of result ?? []) {
        const from = ids[keys.indexOf(key)];
        for (const subscriber of [...(this.keys.get(key) ?? [])]) {
          // One that joined during the read, behind where it started, would get the entries after
          // that start but not its own before them: it waits for the next read, which starts from it.
          if (compareIds(subscriber.last, from) < 0) continue;
          const fresh = entries.filter(([id]) => compareIds(id, subscriber.last) > 0);
          if (!fresh.length) continue;
          subscriber.last = fresh[fresh.length - 1][0];
          subscriber.push(fresh);
        }
      }
    }
  }

  close(): void {
    this.closed = true;
    this.wake?.();
    this.keys.clear();
  }
}
