// A run's latest root checkpoints, held back so that one statement stores several of them, and the
// statement ending the run its last ones: round trips fewer per run. LangGraph saves a checkpoint
// after each step without waiting for it (its default `async` durability) and waits for every save
// only as the run ends; the runtime then ends the run with a statement of its own. Checkpoints held
// are stored together by whichever comes first: a 0 ms timer started as the first of them resolves
// (about a millisecond: a step that waits, a model call, has the checkpoint it started from stored
// while it waits; a worker that dies within that millisecond leaves its run to resume from the
// checkpoint before, as one dying while a save's round trip is under way does), or the run's end
// (carried by its statement). A timer rather than the end of the event loop's turn: LangGraph ends
// a run that has a store (every run here) by waiting for its store's own 0 ms timer, started
// before; the run's end comes first. So a graph whose steps do not wait for anything has its run's
// end store all its checkpoints (up to MAX_HELD: a hundredth held goes with the others at once, so
// a statement stays of a bounded size). Held checkpoints are stored in the order they were saved
// (one statement is atomic; should one of several fail, they are stored one by one, as many as can
// be); once one fails, none after it is, and the run's next save, or its end, fails with it: as
// when a save fails, the run resumes from the last one stored.
import type { CheckpointRows } from "./checkpoint-statement";
import type { WriteBatch } from "./write-stash";

/** At most this many checkpoints are held: the save that brings them to it sends them all at once. */
export const MAX_HELD = 100;

/** A checkpoint held back, and the task writes it carries. */
export interface HeldCheckpoint {
  rows: CheckpointRows;
  /** Settled already: they count as stored with the checkpoint. */
  writes: WriteBatch | undefined;
}

/** One attempt of a run holding its checkpoints back: what the executor keeps to end it. */
export interface RunHold {
  readonly runId: string;
  readonly key: string;
  /** Its graph still runs: its next save may come. */
  open: boolean;
  /** Held, not sent yet, in the order they were saved. */
  held: HeldCheckpoint[];
  /** Stores `held` once a save resolved a 0 ms timer ago, unless something took them. */
  timer?: NodeJS.Timeout;
  /** The held checkpoints sent so far, in order; rejected from the first that failed, with its error. */
  storing: Promise<void>;
  /** The landing of what is held now (made when asked for: see landing). */
  heldLanding?: Landing;
  /** The landing of the last checkpoints sent. */
  sentLanding?: Landing;
}

/**
 * Whether checkpoints saved so far are stored: `stored` is set (true, or false when one of them
 * failed or was dropped) before `settled` resolves, and before anyone awaiting their statement
 * goes on. What the graph emits after a save waits for it (see RunEventSender).
 */
export interface Landing {
  stored?: boolean;
  /** Why they were not stored (a failed statement). */
  error?: unknown;
  settled: Promise<void>;
  /** Sets `stored` (and `error`) and resolves `settled` (once). */
  settle(stored: boolean, error?: unknown): void;
}

function newLanding(): Landing {
  let resolve!: () => void;
  const landing: Landing = {
    settled: new Promise<void>((done) => (resolve = done)),
    settle(stored, error) {
      if (landing.stored !== undefined) return;
      landing.stored = stored;
      landing.error = error;
      resolve();
    },
  };
  return landing;
}

export class HeldCheckpoints {
  /** The holds of runs' attempts (by run and attempt: an older attempt's late saves stay its own). */
  private readonly runs = new Map<string, RunHold>();

  constructor(
    /** Stores checkpoints (of one run, in order) with one statement. */
    private readonly store: (runId: string, checkpoints: CheckpointRows[]) => Promise<void>,
    /** Stores task writes alone (those of a checkpoint that failed, or that a failure stopped). */
    private readonly storeWrites: (batch: WriteBatch) => Promise<void>,
  ) {}

  start(runId: string, attempt: unknown): RunHold {
    const key = `${runId}\u0000${attempt}`;
    const state: RunHold = { runId, key, open: true, held: [], storing: Promise.resolve() };
    this.runs.set(key, state);
    return state;
  }

  /** The hold of a run's attempt, until the run's end takes it (or it is dropped). */
  of(runId: string, attempt: unknown): RunHold | undefined {
    return this.runs.get(`${runId}\u0000${attempt}`);
  }

  /**
   * A checkpoint just saved: held while the graph runs (see hold); once it is done (a cancelled
   * graph's last saves), stored at once after those under way, as part of the same chain.
   */
  async save(state: RunHold, entry: HeldCheckpoint): Promise<void> {
    return state.open ? this.hold(state, entry) : this.send(state, [entry]);
  }

  /**
   * Holds a checkpoint just saved; resolves once those sent before it (if any) are stored, and
   * fails if one of them failed.
   */
  private async hold(state: RunHold, entry: HeldCheckpoint): Promise<void> {
    state.held.push(entry);
    if (state.held.length >= MAX_HELD) {
      // A graph of many steps that wait for nothing: its statements stay of a bounded size.
      this.clearTimer(state);
      this.sendHeld(state).catch(() => undefined);
    }
    try {
      await state.storing;
    } catch (error) {
      // Nothing after a checkpoint that failed is stored: it would have no parent.
      state.held = state.held.filter((held) => held !== entry);
      await this.writesAlone([entry]);
      throw error;
    }
    // The timer counts from when the graph goes on, as the first save held resolves; later saves
    // do not push it back (steps that each wait less would).
    if (state.open && state.held.length && !state.timer) {
      state.timer = setTimeout(() => {
        state.timer = undefined;
        this.sendHeld(state).catch(() => undefined);
      }, 0);
    }
  }

  /**
   * Whether every checkpoint saved so far is stored: none when all are. Those the run's end takes
   * stay unsettled (the end's statement stores them; see RunEventSender); after one that failed,
   * none is stored (its landing says so).
   */
  landing(state: RunHold): Landing | undefined {
    if (state.held.length) return (state.heldLanding ??= newLanding());
    return state.sentLanding?.stored === true ? undefined : state.sentLanding;
  }

  /** The graph is done: nothing more is held, and the held checkpoints wait for the run's end. */
  stop(state: RunHold): void {
    state.open = false;
    this.clearTimer(state);
  }

  /** Stops, then waits for the held checkpoints under way; fails if one of them failed. */
  async settle(state: RunHold): Promise<void> {
    this.stop(state);
    await state.storing;
  }

  /**
   * The graph is done: stores the held checkpoints now, after those under way (before reading the
   * thread's state); fails if one of them, or one before them, failed.
   */
  async flush(state: RunHold): Promise<void> {
    this.stop(state);
    await this.sendHeld(state);
  }

  /**
   * The held checkpoints, in order, for the run's end to store (once those under way are stored);
   * the run's hold is over. None: nothing is held.
   */
  async take(state: RunHold): Promise<HeldCheckpoint[] | undefined> {
    this.stop(state);
    await state.storing.catch(() => undefined);
    const entries = state.held;
    state.held = [];
    this.forget(state);
    return entries.length ? entries : undefined;
  }

  /** Drops the held checkpoints (a rollback, or an attempt that stops without ending its run). */
  drop(state: RunHold): void {
    this.stop(state);
    state.heldLanding?.settle(false);
    state.held = [];
    this.forget(state);
  }

  /**
   * Stores checkpoints in order: with one statement, or, should it fail, one by one, as many as
   * can be (the writes of those that cannot go alone); fails with the first that failed.
   */
  async storeInOrder(runId: string, entries: HeldCheckpoint[]): Promise<void> {
    if (entries.length > 1) {
      try {
        await this.store(
          runId,
          entries.map((entry) => entry.rows),
        );
        return;
      } catch {
        // One of them may be at fault: the others before it are stored without it, below.
      }
    }
    for (let index = 0; index < entries.length; index++) {
      try {
        await this.store(runId, [entries[index].rows]);
      } catch (error) {
        await this.writesAlone(entries.slice(index));
        throw error;
      }
    }
  }

  private forget(state: RunHold): void {
    if (this.runs.get(state.key) === state) this.runs.delete(state.key);
  }

  private clearTimer(state: RunHold): void {
    if (state.timer) clearTimeout(state.timer);
    state.timer = undefined;
  }

  /** Sends what is held (if anything); settles as the checkpoints sent so far are stored. */
  private sendHeld(state: RunHold): Promise<void> {
    const entries = state.held;
    const landing = state.heldLanding;
    state.held = [];
    state.heldLanding = undefined;
    return entries.length ? this.send(state, entries, landing) : state.storing;
  }

  /** Stores held checkpoints after those sent before them; none once one has failed. */
  private send(state: RunHold, entries: HeldCheckpoint[], landing = newLanding()): Promise<void> {
    state.storing = state.storing.then(
      () => this.storeInOrder(state.runId, entries),
      async (error) => {
        // One before them failed: they are not stored, their writes are.
        await this.writesAlone(entries);
        throw error;
      },
    );
    // Settled first of all that wait for the statement: whoever goes on after it sees `stored`.
    state.storing.then(
      () => landing.settle(true),
      (error) => landing.settle(false, error),
    );
    state.sentLanding = landing;
    // Whoever waits for it sees the failure; the chain itself must not be an unhandled rejection.
    state.storing.catch(() => undefined);
    return state.storing;
  }

  /** Held checkpoints' writes, alone: their steps' finished tasks are not lost with them. */
  private async writesAlone(entries: HeldCheckpoint[]): Promise<void> {
    for (const entry of entries) {
      if (entry.writes) await this.storeWrites(entry.writes).catch(() => undefined);
    }
  }
}
