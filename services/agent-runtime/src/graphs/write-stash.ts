// Tasks' writes waiting, for no longer than the checkpoint save under way on their thread (or one
// turn of the event loop when none is), to be stored by the statement that saves the thread's next
// checkpoint. LangGraph stores a superstep's task writes and then the checkpoint that applies them;
// when the second comes right after the first, as it does for every step of one task, one
// statement stores both instead of two. If that statement fails, the writes it carried are stored
// alone after all: the run resumes from its last checkpoint, and finds its finished tasks there.

/** One row of `checkpoint_writes`, as the saver dumped it. */
export interface WriteRow {
  taskId: string;
  idx: number;
  channel: string;
  type: string;
  blob: Uint8Array | undefined;
}

/** The writes waiting for one checkpoint (thread, namespace, id), from any number of tasks. */
export interface WriteBatch {
  threadId: string;
  ns: string;
  checkpointId: string;
  /** The run that wrote them (the saver's statements are tracked by run). */
  runId: unknown;
  rows: WriteRow[];
  /** Settles each writer once the rows are stored, or their statement failed. */
  settle(error?: unknown): void;
}

interface Waiting extends WriteBatch {
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
  scheduled: boolean;
}

const keyOf = (threadId: string, ns: string, checkpointId?: string) =>
  checkpointId === undefined ? `${threadId}\u0000${ns}` : `${threadId}\u0000${ns}\u0000${checkpointId}`;

export class WriteStash {
  private readonly waiting = new Map<string, Waiting>();
  /** Checkpoint saves under way, by thread and namespace. */
  private readonly saving = new Map<string, number>();

  /** `store` writes a batch alone, when no checkpoint save took it. */
  constructor(private readonly store: (batch: WriteBatch) => Promise<void>) {}

  /** Queues rows for their checkpoint; resolves once they are stored, with a checkpoint or alone. */
  add(
    address: { threadId: string; ns: string; checkpointId: string },
    runId: unknown,
    rows: WriteRow[],
  ): Promise<void> {
    const key = keyOf(address.threadId, address.ns, address.checkpointId);
    let batch = this.waiting.get(key);
    if (!batch) {
      const waiters: Waiting["waiters"] = [];
      batch = {
        ...address,
        runId,
        rows: [],
        waiters,
        scheduled: false,
        settle: (error) => {
          for (const waiter of waiters) {
            if (error === undefined) waiter.resolve();
            else waiter.reject(error);
          }
        },
      };
      this.waiting.set(key, batch);
    }
    batch.rows.push(...rows);
    const stored = new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    this.schedule(key, batch);
    return stored;
  }

  /** Whether writes of the run wait here. */
  holds(runId: unknown): boolean {
    for (const batch of this.waiting.values()) if (batch.runId === runId) return true;
    return false;
  }

  /** A checkpoint save starts on the thread: writes waiting there wait for it (it may take them). */
  saveStarted(threadId: string, ns: string): void {
    const key = keyOf(threadId, ns);
    this.saving.set(key, (this.saving.get(key) ?? 0) + 1);
  }

  /** The writes of `checkpointId` (the parent of the checkpoint being saved), taken to store with it. */
  take(threadId: string, ns: string, checkpointId: string | undefined): WriteBatch | undefined {
    if (checkpointId === undefined) return undefined;
    const key = keyOf(threadId, ns, checkpointId);
    const batch = this.waiting.get(key);
    this.waiting.delete(key);
    return batch;
  }

  /**
   * A checkpoint save ended: writes still waiting on the thread go alone after this turn, unless
   * the next save (LangGraph starts it as the previous one resolves) takes them first.
   */
  saveEnded(threadId: string, ns: string): void {
    const key = keyOf(threadId, ns);
    const left = (this.saving.get(key) ?? 1) - 1;
    if (left > 0) {
      this.saving.set(key, left);
      return;
    }
    this.saving.delete(key);
    for (const [batchKey, batch] of this.waiting) {
      if (batch.threadId === threadId && batch.ns === ns) this.schedule(batchKey, batch);
    }
  }

  private schedule(key: string, batch: Waiting): void {
    if (batch.scheduled || this.saving.has(keyOf(batch.threadId, batch.ns))) return;
    batch.scheduled = true;
    setImmediate(() => {
      // Taken by a checkpoint save meanwhile, or one started (it reschedules when it ends).
      if (this.waiting.get(key) !== batch || this.saving.has(keyOf(batch.threadId, batch.ns))) {
        batch.scheduled = false;
        return;
      }
      this.waiting.delete(key);
      void this.storeAlone(batch);
    });
  }

  /** Stores a batch alone and settles its writers with the outcome. */
  storeAlone(batch: WriteBatch): Promise<void> {
    return this.store(batch).then(
      () => batch.settle(),
      (error) => batch.settle(error ?? new Error("storing a task's writes failed")),
    );
  }
}
