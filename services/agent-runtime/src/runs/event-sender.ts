// A run's events on their way to its log. The graph does not wait for each append (a round trip
// to Redis per event, during which a step's held checkpoints went by their timer in a statement of
// their own), but no event goes ahead of the checkpoints saved before it: an event waits until
// they are stored, by their timer's statement or by the run's end, whose statement carries those
// still held (release). So what a client has seen of a run is stored, and a worker that dies
// after a client saw step two start leaves step one to be resumed from, never run again.
import type { Landing } from "../graphs/held-checkpoints";
import type { EventLog } from "../queue/types";

/** Appends under way and waiting beyond which the graph waits (an outage must pause a run, not fill memory). */
export const MAX_PENDING_EVENTS = 256;

interface Waiting {
  event: string;
  data: string;
  landing?: Landing;
}

export class RunEventSender {
  private readonly waiting: Waiting[] = [];
  private inflight = 0;
  private released = false;
  private failure: unknown;
  /** The landing the first waiting event waits for (one wake-up per landing). */
  private awaited?: Landing;
  /** Resolved as fewer than MAX_PENDING_EVENTS are pending again. */
  private roomWaiters: (() => void)[] = [];
  /** Resolved as no append is under way. */
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly log: Pick<EventLog, "append">,
    private readonly runId: string,
    /** Whether the checkpoints the run saved so far are stored (none: nothing to wait for). */
    private readonly landing: () => Landing | undefined = () => undefined,
  ) {}

  /**
   * Sends an event after those before it, once the checkpoints saved before it are stored. Throws
   * when an earlier append failed; answers a promise to wait for when too many are pending.
   */
  append(event: string, data: string): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    const landing = this.released ? undefined : this.landing();
    if (!this.waiting.length && (!landing || landing.stored)) this.write(event, data);
    else {
      this.waiting.push({ event, data, landing });
      this.pump();
    }
    if (this.inflight + this.waiting.length < MAX_PENDING_EVENTS) return undefined;
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Throws if an append has failed so far. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  /**
   * The run's end stored its checkpoints (or the run ends without them): every event waiting
   * goes now, in order, and later ones at once. Sent in order before anything the caller writes
   * next to the log (`end`), on the same connection.
   */
  release(): void {
    this.released = true;
    this.pump();
  }

  /**
   * The attempt stops without ending its run (handed back or superseded): the events of stored
   * checkpoints go, the others are dropped (the next attempt runs their steps again).
   */
  stop(): void {
    this.pump();
    this.waiting.length = 0;
    this.wakeRoom();
  }

  /** Settles once every append sent so far is answered; fails with the first that failed. */
  async settled(): Promise<void> {
    if (this.inflight) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    this.check();
  }

  /** Sends what may go now, in order; waits for the first landing that is not settled. */
  private pump(): void {
    while (this.waiting.length) {
      const head = this.waiting[0];
      if (!this.released && head.landing && !head.landing.stored) {
        // Failed or dropped: it waits for the run's end (release) or for the attempt's (stop).
        if (head.landing.stored === undefined && this.awaited !== head.landing) {
          this.awaited = head.landing;
          head.landing.settled.then(() => this.pump());
        }
        return;
      }
      this.waiting.shift();
      this.write(head.event, head.data);
    }
  }

  private write(event: string, data: string): void {
    this.inflight++;
    this.log.append(this.runId, event, data).then(
      () => this.written(),
      (error) => {
        this.failure ??= error;
        this.written();
      },
    );
  }

  private written(): void {
    this.inflight--;
    this.wakeRoom();
    if (!this.inflight) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private wakeRoom(): void {
    if (this.inflight + this.waiting.length < MAX_PENDING_EVENTS)
      for (const resolve of this.roomWaiters.splice(0)) resolve();
  }
}
