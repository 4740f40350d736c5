// The soak's clients: runs of the `steps` graph created at a steady pace whatever the answers take
// (an open loop, as independent users do), each on a thread of its own that the create makes
// (`if_not_exists: "create"`), so the thread's final state tells whether its run ran once. A share
// of them are streamed creates, so the API process also relays events through the faults.
import { randomUUID } from "node:crypto";
// Through the testing kit, which loads the official client so jest can too (the short soak).
import { Client } from "@lgp/server-kit/src/testing";
import type { SoakOptions } from "./options";

/** Requests at once beyond which a create is not sent (and counted "behind"): the server stalls. */
const MAX_IN_FLIGHT = 1_000;

export interface LoadCounts {
  /** Creates sent. */
  sent: number;
  /** Runs the API answered with an id: each must end, once. */
  acknowledged: number;
  /** Creates answered with an error, by status ("network" when no answer came). */
  refused: Record<string, number>;
  /** Creates not sent because MAX_IN_FLIGHT requests were waiting. */
  behind: number;
  streamed: number;
  /** Streamed runs whose stream ended without the three steps' updates, or with an error. */
  streamsIncomplete: number;
}

export class Load {
  /** Every run id the API answered. */
  readonly runIds = new Set<string>();
  readonly counts: LoadCounts = { sent: 0, acknowledged: 0, refused: {}, behind: 0, streamed: 0, streamsIncomplete: 0 };
  /** The first error of each kind (status), for the report. */
  readonly firstErrors: string[] = [];
  private readonly client: Client;
  private readonly inFlight = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private started = 0;
  private due = 0;

  constructor(
    url: string,
    private readonly options: Pick<SoakOptions, "rate" | "stepMs" | "streamShare">,
  ) {
    // No retries: a refused create is counted, not hidden (and a retry without a key could duplicate).
    this.client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
  }

  start(): void {
    this.started = performance.now();
    this.timer = setInterval(() => this.tick(), 20);
  }

  /** Stops creating and waits for the requests under way (streams until their runs end). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.inFlight);
  }

  private tick(): void {
    const target = Math.floor(((performance.now() - this.started) / 1000) * this.options.rate);
    for (; this.due < target; this.due += 1) {
      if (this.inFlight.size >= MAX_IN_FLIGHT) {
        this.counts.behind += 1;
        continue;
      }
      // Every 1/streamShare-th run is streamed, spread evenly.
      const share = this.options.streamShare;
      const streamed = share > 0 && Math.floor((this.due + 1) * share) > Math.floor(this.due * share);
      const request = (streamed ? this.streamed() : this.background()).catch((error) => this.refused(error));
      this.inFlight.add(request);
      void request.finally(() => this.inFlight.delete(request));
      this.counts.sent += 1;
    }
  }

  private payload() {
    return { input: {}, context: { delay_ms: this.options.stepMs }, ifNotExists: "create" as const };
  }

  private acknowledge(runId: string): void {
    this.runIds.add(runId);
    this.counts.acknowledged += 1;
  }

  private refused(error: unknown): void {
    const status = (error as { status?: number }).status;
    const key = status ? String(status) : "network";
    if (!this.counts.refused[key]) {
      const cause = (error as { cause?: Error }).cause;
      this.firstErrors.push(`${key}: ${(error as Error).message}${cause ? ` (${cause.message})` : ""}`);
    }
    this.counts.refused[key] = (this.counts.refused[key] ?? 0) + 1;
  }

  private async background(): Promise<void> {
    const run = await this.client.runs.create(randomUUID(), "steps", this.payload());
    this.acknowledge(run.run_id);
  }

  private async streamed(): Promise<void> {
    this.counts.streamed += 1;
    let acknowledged = false;
    const steps: string[] = [];
    let failed = false;
    try {
      for await (const part of this.client.runs.stream(randomUUID(), "steps", {
        ...this.payload(),
        streamMode: ["updates"],
      })) {
        if (part.event === "metadata" && !acknowledged) {
          this.acknowledge((part.data as { run_id: string }).run_id);
          acknowledged = true;
        }
        if (part.event === "updates") steps.push(...Object.keys(part.data as object));
        if (part.event === "error") failed = true;
      }
    } catch (error) {
      // Before the run's id came, the create itself was refused; after, only its stream was cut.
      if (!acknowledged) throw error;
      failed = true;
    }
    if (failed || steps.join(",") !== "one,two,three") this.counts.streamsIncomplete += 1;
  }
}
