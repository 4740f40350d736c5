// Stateless runs: each gets a thread of its own, created with the run and, unless the caller
// asks to keep it (`on_completion: "keep"`), deleted with its checkpoints once the run has ended.
import { newId } from "../common/ids";
import { InFlight } from "../common/in-flight";
import type { RunFinishedHooks } from "../runs/finished";
import type { RunRow } from "../runs/repository";
import { requestedModes } from "../runs/stream-modes";
import type { RunCaller, RunCreate, RunService } from "../runs/service";
import type { ThreadService } from "../threads/service";

export interface StatelessOutcome {
  values: unknown;
  error?: { error: string; message: string };
}

export class StatelessRunService {
  constructor(private readonly runs: RunService) {}

  /** Creates the run on a new thread; `/runs/wait` also needs its final values in the event log. */
  async create(body: RunCreate, options: RunCaller & { needValues?: boolean } = {}): Promise<RunRow> {
    const request: RunCreate = { ...body, if_not_exists: "create", multitask_strategy: undefined };
    if (options.needValues) {
      const modes = requestedModes(body.stream_mode);
      if (!modes.includes("values")) request.stream_mode = [...modes, "values"] as RunCreate["stream_mode"];
    }
    return this.runs.create(newId(), request, { temporary: true, auth: options.auth, headers: options.headers });
  }

  /**
   * Waits for the run to end and answers its last state values, read from its event log: the
   * thread itself may already be gone (deleted on completion) when the waiter reads.
   */
  async wait(run: Pick<RunRow, "run_id" | "status">, signal?: AbortSignal): Promise<StatelessOutcome> {
    let values: unknown = {};
    let error: StatelessOutcome["error"];
    for await (const event of this.runs.events(run, { signal })) {
      if (event.event === "values") values = JSON.parse(event.data);
      else if (event.event === "error") error = JSON.parse(event.data) as StatelessOutcome["error"];
    }
    return { values, error };
  }
}

/**
 * Deletes a stateless run's thread after the run, unless it was created with on_completion
 * "keep". `drain()` waits for deletions under way (at shutdown, before the database closes).
 */
export function attachTemporaryThreadCleanup(
  finishedRuns: Pick<RunFinishedHooks, "on">,
  threads: Pick<ThreadService, "delete">,
): { drain(): Promise<void> } {
  const inFlight = new InFlight();
  finishedRuns.on(async ({ run }) => {
    if (!run.kwargs.temporary || run.kwargs.on_completion === "keep") return;
    const deletion = threads.delete(run.thread_id).catch((error: unknown) => {
      // Already gone (deleted by its owner meanwhile) is fine.
      if ((error as { status?: number }).status !== 404) throw error;
    });
    await inFlight.track(deletion);
  });
  return {
    async drain() {
      await inFlight.settled();
    },
  };
}
