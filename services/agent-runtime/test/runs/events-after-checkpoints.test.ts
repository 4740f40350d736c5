// What a client sees of a run is stored: an event the graph emits goes to the run's log only once
// the checkpoints saved before it are. The executor does not wait for each event's append, so the
// run's end can store its checkpoints; a worker that dies after a client saw step two start must
// still leave step one's checkpoint to resume from. Here PostgreSQL holds the checkpoints back (a
// lock on their table): the steps' events wait for it, then arrive with the checkpoints stored.
import pg from "pg";
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({ redis: true, workers: 1 });
});

afterAll(async () => {
  await rt?.close();
});

test("a step's events wait for the checkpoints saved before them, on Redis", async () => {
  const thread = await rt.client.threads.create();
  const lock = new pg.Client({ connectionString: rt.database.url });
  await lock.connect();
  const reader = new pg.Client({ connectionString: rt.database.url });
  await reader.connect();
  try {
    // Inserts into the checkpoints' table wait for this transaction; reads (the run's claim) do not.
    await lock.query('BEGIN; LOCK TABLE "langgraph".checkpoints IN SHARE ROW EXCLUSIVE MODE');
    let unlockedAt = Infinity;
    const seen: { step: string; at: number; storedStep: number }[] = [];
    const streamed = (async () => {
      for await (const part of rt.client.runs.stream(thread.thread_id, "steps", {
        input: {},
        context: { delay_ms: 100 },
        streamMode: ["custom"],
      })) {
        if (part.event !== "custom") continue;
        const at = Date.now();
        // The last step stored as the client sees this one start.
        const { rows } = await reader.query(
          `SELECT coalesce(max((metadata->>'step')::int), -2) AS step FROM "langgraph".checkpoints WHERE thread_id = $1`,
          [thread.thread_id],
        );
        seen.push({ step: (part.data as { step: string }).step, at, storedStep: rows[0].step });
      }
    })();
    // Long enough for all three steps to have run without their checkpoints.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(seen).toEqual([]);
    unlockedAt = Date.now();
    await lock.query("COMMIT");
    await streamed;
    expect(seen.map((event) => event.step)).toEqual(["one", "two", "three"]);
    expect(seen.every((event) => event.at >= unlockedAt)).toBe(true);
    // Step n's start is after checkpoint n - 1 (its input) was stored: steps -1 and 0 come before
    // node one, so "one" sees 0, "two" sees 1, "three" sees 2.
    expect(seen.map((event) => event.storedStep >= ["one", "two", "three"].indexOf(event.step))).toEqual([
      true,
      true,
      true,
    ]);
    const state = await rt.client.threads.getState<{ count: number }>(thread.thread_id);
    expect(state.values.count).toBe(3);
  } finally {
    await lock.query("ROLLBACK").catch(() => undefined);
    await lock.end();
    await reader.end();
  }
}, 30_000);
