// A run cancelled with `interrupt` stops where it was, and where it was includes the checkpoint it
// was storing as it stopped: the run ends (and frees its thread for the next) only once that is
// stored, not while it is still on its way.
import pg from "pg";
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: 1 });
});
afterAll(async () => {
  await rt?.close();
});

/** Until a statement of the runtime's database waits for a lock. */
async function statementBlocked(admin: pg.Client): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const { rows } = await admin.query(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0].waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no statement ever waited for the lock");
}

test("a run cancelled while storing a checkpoint ends once it is stored, with it as its last state", async () => {
  const thread = await rt.client.threads.create();
  const holder = new pg.Client({ connectionString: rt.database.url });
  await holder.connect();
  try {
    // Steps of a second: the step after the save that waits cannot end (and queue a save of its
    // own) before the cancel reaches the run, even on a loaded machine.
    const run = await rt.client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: 1000 } });
    // Once the run has started (its input and first step's checkpoints are stored), checkpoints
    // can be read but not written: the save after a step waits.
    const stored = async () =>
      (
        await holder.query("SELECT count(*)::int AS n FROM langgraph.checkpoints WHERE thread_id = $1", [
          thread.thread_id,
        ])
      ).rows[0].n as number;
    while ((await stored()) < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await holder.query("BEGIN");
    await holder.query("LOCK TABLE langgraph.checkpoints IN EXCLUSIVE MODE");
    await statementBlocked(holder);
    await rt.client.runs.cancel(thread.thread_id, run.run_id, false, "interrupt");
    // The graph has stopped, but the run waits for its checkpoint on the way.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await rt.client.runs.get(thread.thread_id, run.run_id)).status).toBe("running");

    const before = await stored();
    await holder.query("COMMIT");
    await rt.client.runs.join(thread.thread_id, run.run_id);
    expect((await rt.client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    // Its last state is the checkpoint it was storing: one step's more than before.
    expect(await stored()).toBe(before + 1);
    const state = await rt.client.threads.getState<{ visited: string[] }>(thread.thread_id);
    expect(state.values.visited.length).toBeGreaterThan(0);
    expect(["one", "two", "three"].slice(0, state.values.visited.length)).toEqual(state.values.visited);
    expect((await rt.client.threads.get(thread.thread_id)).status).toBe("idle");
  } finally {
    await holder.query("ROLLBACK").catch(() => undefined);
    await holder.end();
  }
});
