// A run's events on their way to its log. The graph does not wait for each append (a round trip
// to Redis per event, during which a step's held checkpoints went by their timer in a statement of
// their own), but no event goes ahead of the checkpoints saved before it: an event waits until
// they are stored, by their timer's statement or by the run's end, whose statement carries those
// still held (release). So what a client has seen of a run is stored, and a worker that dies
// after a client saw step two start leaves step one to be resumed from, never run again. One
// append of a run is under way at a time: the event log numbers a run's entries itself and
// renumbers them in order should Redis refuse one (see RedisEventLog.append), which appends under
// way together would break. The job does not wait for them (nor for the log's end, behind them).
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
  /** Events not sent yet, in order; the first waits for its landing, or for the append under way. */
  private readonly waiting: Waiting[] = [];
  private inflight = false;
  private released = false;
  private failure: unknown;
  /** The landing the first waiting event waits for (one wake-up per landing). */
  private awaited?: Landing;
  /** Resolved as fewer than MAX_PENDING_EVENTS are pending again (or nothing more can go). */
  private roomWaiters: (() => void)[] = [];
  /** Resolved as nothing more can go: all sent and answered, or the rest waits for a landing. */
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
    this.waiting.push({ event, data, landing: this.released ? undefined : this.landing() });
    this.pump();
    if (this.pending() < MAX_PENDING_EVENTS || this.checkpointFailure()) return undefined;
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /**
   * A graph's event: sent as `append` sends it. Fails, so the graph goes no further, when the
   * checkpoints it saved before it could not be stored (LangGraph would fail the run only at its
   * end); waits while too many are pending.
   */
  async emit(event: string, data: string): Promise<void> {
    const failed = this.checkpointFailure();
    if (failed) throw failed;
    const full = this.append(event, data);
    if (full) await full;
  }

  /** Throws if an append has failed so far. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  /**
   * Why the checkpoints saved so far could not be stored, if they could not: the graph goes no
   * further (none of its later events could be shown, nor its later checkpoints stored).
   */
  checkpointFailure(): unknown {
    if (this.released) return undefined;
    // The first event waiting, or the checkpoints saved since: once one fails, none after it is stored.
    for (const landing of [this.waiting[0]?.landing, this.landing()]) {
      if (landing?.stored === false) return landing.error ?? new Error("the run's checkpoint was not stored");
    }
    return undefined;
  }

  /**
   * The run's end stored its checkpoints (or the run ends without them): every event waiting
   * goes now, in order, and later ones at once.
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
    const kept = this.waiting.findIndex((item) => item.landing && !item.landing.stored);
    if (kept >= 0) this.waiting.length = kept;
    this.pump();
    this.wake();
  }

  /** Settles once every event that can go is sent and answered; fails with the first that failed. */
  async settled(): Promise<void> {
    if (!this.idle()) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    this.check();
  }

  private pending(): number {
    return this.waiting.length + (this.inflight ? 1 : 0);
  }

  /** Nothing more can go for now: all answered, or the first waits for a landing not stored. */
  private idle(): boolean {
    if (this.inflight) return false;
    const head = this.waiting[0];
    return !head || (!this.released && !!head.landing && !head.landing.stored);
  }

  /** Sends the next event if it may go; waits for its landing otherwise. */
  private pump(): void {
    const head = this.waiting[0];
    if (this.inflight || !head) return this.wake();
    if (!this.released && head.landing && !head.landing.stored) {
      if (head.landing.stored === undefined && this.awaited !== head.landing) {
        this.awaited = head.landing;
        head.landing.settled.then(() => this.pump());
      }
      // Failed or dropped: it waits for the run's end (release) or the attempt's (stop); a graph
      // waiting for room goes on, to find the failure at its next event (checkpointFailure).
      return this.wake(head.landing.stored === false);
    }
    this.waiting.shift();
    this.inflight = true;
    this.log.append(this.runId, head.event, head.data).then(
      () => this.sent(),
      (error) => {
        this.failure ??= error;
        this.sent();
      },
    );
  }

  private sent(): void {
    this.inflight = false;
    this.pump();
  }

  private wake(all = false): void {
    if (all || this.pending() < MAX_PENDING_EVENTS) for (const resolve of this.roomWaiters.splice(0)) resolve();
    if (this.idle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
