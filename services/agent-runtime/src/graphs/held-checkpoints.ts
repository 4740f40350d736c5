// A run's latest root checkpoint, held back so that the statement ending the run can store it: a
// round trip fewer per run. LangGraph saves a checkpoint after each step without waiting for it
// (its default `async` durability) and waits for every save only as the run ends; the runtime then
// ends the run with a statement of its own. A held checkpoint is stored by whichever comes first:
// the next checkpoint's save (which stores it first, and answers for it), the end of the turn of
// the event loop in which its save resolved (alone: a step that runs on starts from a stored
// checkpoint), or the run's end (carried by its statement). Held checkpoints are stored in the
// order they were saved, one after another; once one fails, none after it is, and the run's next
// save, or its end, fails with it: as when a save fails, the run resumes from the last one stored.
import { Prisma } from "../generated/prisma/client";
import type { WriteBatch } from "./write-stash";

/** A checkpoint's statement (as `WITH` parts) held back, and the task writes it carries. */
export interface HeldCheckpoint {
  ctes: Prisma.Sql;
  /** Settled already: they count as stored with the checkpoint. */
  writes: WriteBatch | undefined;
}

/** One attempt of a run holding its checkpoints back: what the executor keeps to end it. */
export interface RunHold {
  readonly runId: string;
  readonly key: string;
  /** Its graph still runs: its next save may come. */
  open: boolean;
  held?: HeldCheckpoint;
  /** Stores `held` alone at the end of the turn its save resolved in, unless something took it. */
  timer?: NodeJS.Immediate;
  /** The held checkpoints sent so far, in order; rejected from the first that failed, with its error. */
  storing: Promise<void>;
}

export class HeldCheckpoints {
  /** The holds of runs' attempts (by run and attempt: an older attempt's late saves stay its own). */
  private readonly runs = new Map<string, RunHold>();

  constructor(
    /** Stores a checkpoint's statement alone. */
    private readonly store: (runId: string, ctes: Prisma.Sql) => Promise<void>,
    /** Stores task writes alone (those of a checkpoint that failed, or that a failure stopped). */
    private readonly storeWrites: (batch: WriteBatch) => Promise<void>,
  ) {}

  start(runId: string, attempt: unknown): RunHold {
    const key = `${runId}\u0000${attempt}`;
    const state: RunHold = { runId, key, open: true, storing: Promise.resolve() };
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
    return state.open ? this.hold(state, entry) : this.send(state, entry);
  }

  /**
   * Holds a checkpoint just saved; resolves once the one held before it (if any) is stored, and
   * fails if that, or any held checkpoint of the run before it, failed.
   */
  private async hold(state: RunHold, entry: HeldCheckpoint): Promise<void> {
    const previous = state.held;
    state.held = entry;
    this.clearTimer(state);
    try {
      await (previous ? this.send(state, previous) : state.storing);
    } catch (error) {
      // Nothing after a checkpoint that failed is stored: it would have no parent.
      if (state.held === entry) state.held = undefined;
      await this.writesAlone(entry);
      throw error;
    }
    // The turn counts from when the graph goes on, as this save resolves.
    if (state.held === entry && state.open) {
      state.timer = setImmediate(() => {
        state.timer = undefined;
        if (state.held !== entry) return;
        state.held = undefined;
        this.send(state, entry).catch(() => undefined);
      });
    }
  }

  /** The graph is done: nothing more is held, and the held checkpoint waits for the run's end. */
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
   * The graph is done: stores the held checkpoint now, after those under way (before reading the
   * thread's state); fails if it, or one before it, failed.
   */
  async flush(state: RunHold): Promise<void> {
    this.stop(state);
    const entry = state.held;
    state.held = undefined;
    await (entry ? this.send(state, entry) : state.storing);
  }

  /**
   * The held checkpoint as `WITH` parts, for the run's end to store (once those under way are
   * stored); the run's hold is over.
   */
  async take(state: RunHold): Promise<Prisma.Sql | undefined> {
    this.stop(state);
    await state.storing.catch(() => undefined);
    const entry = state.held;
    state.held = undefined;
    this.forget(state);
    return entry?.ctes;
  }

  /** Drops the held checkpoint (a rollback, or an attempt that stops without ending its run). */
  drop(state: RunHold): void {
    this.stop(state);
    state.held = undefined;
    this.forget(state);
  }

  private forget(state: RunHold): void {
    if (this.runs.get(state.key) === state) this.runs.delete(state.key);
  }

  private clearTimer(state: RunHold): void {
    if (state.timer) clearImmediate(state.timer);
    state.timer = undefined;
  }

  /** Stores a held checkpoint after those sent before it; none once one has failed. */
  private send(state: RunHold, entry: HeldCheckpoint): Promise<void> {
    state.storing = state.storing
      .then(() => this.store(state.runId, entry.ctes))
      .catch(async (error) => {
        // The first failure, this one's or (the store skipped) one before it.
        await this.writesAlone(entry);
        throw error;
      });
    // Whoever waits for it sees the failure; the chain itself must not be an unhandled rejection.
    state.storing.catch(() => undefined);
    return state.storing;
  }

  /** A held checkpoint's writes, alone: its step's finished tasks are not lost with it. */
  private async writesAlone(entry: HeldCheckpoint): Promise<void> {
    if (entry.writes) await this.storeWrites(entry.writes).catch(() => undefined);
  }
}
