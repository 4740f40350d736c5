// GET /threads/{id}/stream: every run of a thread, one after another, for as long as the client
// stays (runs started after it connected included). Thread stream modes: `run_modes` (each run's
// events, then `run_done`), `lifecycle` (each run's first event, `metadata`, and `run_done`),
// `state_update` (the thread's values after each run, as `state_update`).
import { NotFoundError } from "@lgp/server-kit";
import { serialize } from "../common/serde";
import type { RunEvent } from "../queue/types";
import type { ThreadRepository } from "../threads/repository";
import type { RunRepository, RunRow } from "./repository";

export const THREAD_STREAM_MODES = ["run_modes", "lifecycle", "state_update"] as const;
export type ThreadStreamMode = (typeof THREAD_STREAM_MODES)[number];

/** How often a thread with no run to follow is checked for a new one. */
const NEW_RUN_POLL_MS = 250;

/**
 * How long a run's creation may take from its id (made first, time-ordered) to its commit. Two
 * creations on one thread can commit in the other order than their ids, so a stream cannot take
 * "after the last run it followed" by id alone: within this window it also remembers which runs
 * it has dealt with.
 */
const CREATION_WINDOW_MS = 60_000;

/** Below every run id. */
const NIL_ID = "00000000-0000-0000-0000-000000000000";

/** The lowest run id (a UUIDv7) made at `ms`: every id made then or later sorts above it. */
function lowestIdAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8)}-0000-0000-000000000000`;
}

/** The runs a stream is done with: all up to `floor`, and those in `ids` above it. */
class Behind {
  private readonly ids: Set<string>;
  constructor(
    private floor: string,
    ids: string[],
    private readonly windowMs: number,
    /** When the run being followed was picked: any run stored later has an id made after it, less the window. */
    private pickedAt = Date.now(),
  ) {
    this.ids = new Set(ids);
  }

  next(runs: RunRepository, threadId: string): Promise<RunRow | undefined> {
    this.pickedAt = Date.now();
    return runs.nextRun(threadId, this.floor, [...this.ids]);
  }

  /** A run followed to its end; the runs settled when it was picked fold into the floor. */
  add(runId: string): void {
    this.ids.add(runId);
    const settled = lowestIdAt(this.pickedAt - this.windowMs);
    // Never past the run just followed: runs after it may still be waiting their turn.
    const floor = settled < runId ? settled : runId;
    if (floor <= this.floor) return;
    this.floor = floor;
    for (const id of this.ids) if (id <= floor) this.ids.delete(id);
  }
}

export interface ThreadStreamDeps {
  runs: RunRepository;
  threads: ThreadRepository;
  /** Reads a run's log (bounded for a run that has ended). */
  service: { events(run: RunRow, options: { lastEventId?: string; signal?: AbortSignal }): AsyncIterable<RunEvent> };
}

/** Event ids are `<run id>:<the run's event id>`, so `Last-Event-ID` resumes within a run. */
function parseLastEventId(value: string | undefined): { runId: string; eventId: string } | undefined {
  const match = value?.match(/^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(.+)$/i);
  return match ? { runId: match[1].toLowerCase(), eventId: match[2] } : undefined;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done);
  });

export async function* threadEvents(
  deps: ThreadStreamDeps,
  threadId: string,
  options: {
    modes: ThreadStreamMode[];
    lastEventId?: string;
    signal?: AbortSignal;
    /** How long a creation may take between its run's id and its commit (tests shorten it). */
    creationWindowMs?: number;
  },
): AsyncIterable<RunEvent> {
  const windowMs = options.creationWindowMs ?? CREATION_WINDOW_MS;
  const { runs, threads, service } = deps;
  if (!(await threads.find(threadId))) throw new NotFoundError(`Thread "${threadId}" not found`);
  const modes = new Set(options.modes.length ? options.modes : ["run_modes"]);
  const resume = parseLastEventId(options.lastEventId);
  // Where to start: the run being resumed, else the thread's active run, else its next new run.
  const resumeRun = resume && !resume.eventId.startsWith("done") ? resume.runId : undefined;
  let run: RunRow | undefined;
  let behind: Behind;
  if (resume) {
    run = resumeRun ? await runs.find(threadId, resumeRun) : undefined;
    behind = new Behind(resume.runId, [], windowMs);
  } else {
    // The runs there when it connects are behind it, but for the first active one (and those
    // after it, waiting their turn).
    const now = Date.now();
    const since = lowestIdAt(now - windowMs);
    const start = await runs.streamStart(threadId, since);
    run = start.active;
    // Below `since` only if the runs there are older: a thread whose last run is older than the
    // window follows every run after it, whatever the clock of the process that creates it.
    const lowest = run?.run_id ?? start.latest ?? NIL_ID;
    behind = new Behind(lowest < since ? lowest : since, start.before, windowMs, now);
  }
  let after = run ? resume?.eventId : undefined;
  while (!options.signal?.aborted) {
    if (!run) {
      run = await behind.next(runs, threadId);
      if (!run) {
        // A thread deleted while someone listens ends its stream.
        if (!(await threads.find(threadId))) return;
        await sleep(NEW_RUN_POLL_MS, options.signal);
        continue;
      }
    }
    for await (const event of service.events(run, { lastEventId: after, signal: options.signal })) {
      if (modes.has("run_modes") || (modes.has("lifecycle") && event.event === "metadata")) {
        yield { ...event, id: `${run.run_id}:${event.id}` };
      }
    }
    if (options.signal?.aborted) return;
    const ended = await runs.find(threadId, run.run_id);
    const id = `${run.run_id}:done`;
    if (modes.has("run_modes") || modes.has("lifecycle")) {
      // A run rolled back is gone: it ended interrupted.
      yield { id, event: "run_done", data: serialize({ run_id: run.run_id, status: ended?.status ?? "interrupted" }) };
    }
    if (modes.has("state_update")) {
      const thread = await threads.find(threadId);
      yield {
        id: `${id}:state`,
        event: "state_update",
        data: serialize({ run_id: run.run_id, values: thread?.values ?? {} }),
      };
    }
    behind.add(run.run_id);
    run = undefined;
    after = undefined;
  }
}
