/**
 * Work under way that a close waits for (runs' log ends, webhook deliveries, BullMQ jobs, temporary
 * threads' deletions): each promise is tracked until it settles.
 */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** Tracks `work` until it settles; answers it, unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const done = () => this.running.delete(work);
    work.then(done, done);
    return work;
  }

  /** Settles once everything tracked has settled, work tracked meanwhile included. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}
