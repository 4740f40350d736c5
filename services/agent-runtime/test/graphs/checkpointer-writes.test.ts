// A step's task writes are stored by the statement that saves the checkpoint after them: one
// statement per step instead of two. What is stored is what the official saver stores, and a
// task's writes are never held back longer than the checkpoint save under way: a task that ends
// while another of its step still runs has its writes stored at once, and writes no checkpoint
// follows (an interrupt, a failure) are stored before the run ends. A checkpoint save that fails
// does not take the writes it carried down with it.
import { randomUUID } from "node:crypto";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { historyOf } from "../support/checkpoint-history";
import { RecordingPool } from "../support/recording-pool";

let database: TestDatabase;
let pool: RecordingPool;
let ours: RuntimeCheckpointer;
let official: PostgresSaver;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  pool = new RecordingPool({ connectionString: database.url, max: 4 });
  pool.on("error", () => undefined);
  ours = new RuntimeCheckpointer(pool, undefined, { schema: "cp_writes" });
  await ours.setup();
  official = new PostgresSaver(pool, undefined, { schema: "cp_writes" });
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const State = Annotation.Root({ steps: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });

/** start -> first -> second: three steps of one task each. */
function sequence(saver: BaseCheckpointSaver) {
  return new StateGraph(State)
    .addNode("first", () => ({ steps: ["first"] }))
    .addNode("second", () => ({ steps: ["second"] }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer: saver });
}

const standaloneWrites = () => pool.sent.filter((text) => /^\s*INSERT INTO "cp_writes"\.checkpoint_writes/.test(text));

const history = (threadId: string) => historyOf(official, threadId);

test("each step's writes go with the next checkpoint's statement, and read as the official saver's", async () => {
  const threadId = randomUUID();
  const before = standaloneWrites().length;
  await sequence(ours).invoke({ steps: ["input"] }, { configurable: { thread_id: threadId, run_id: "run-1" } });
  expect(standaloneWrites().length - before).toBe(0);

  const reference = randomUUID();
  await sequence(official).invoke({ steps: ["input"] }, { configurable: { thread_id: reference } });
  const written = await history(threadId);
  expect(written).toHaveLength(4);
  expect(written.filter((step) => step.writes.length > 0)).toHaveLength(3);
  expect(written).toEqual(await history(reference));
});

test("a task that ends while another of its step still runs has its writes stored at once", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let slowStarted!: () => void;
  const started = new Promise<void>((resolve) => (slowStarted = resolve));
  const graph = new StateGraph(State)
    .addNode("fast", () => ({ steps: ["fast"] }))
    .addNode("slow", async () => {
      slowStarted();
      await released;
      return { steps: ["slow"] };
    })
    .addEdge(START, "fast")
    .addEdge(START, "slow")
    .addEdge("fast", END)
    .addEdge("slow", END)
    .compile({ checkpointer: ours });
  const threadId = randomUUID();
  const running = graph.invoke({ steps: [] }, { configurable: { thread_id: threadId, run_id: "run-2" } });
  await started;
  // While the slow task runs, the fast one's write is in the table, beside the input step's.
  const tasks = async (): Promise<number> => {
    const { rows } = await pool.query(
      'SELECT count(DISTINCT task_id)::int AS tasks FROM "cp_writes".checkpoint_writes WHERE thread_id = $1',
      [threadId],
    );
    return rows[0].tasks;
  };
  let stored = 0;
  for (let tries = 0; tries < 200 && stored < 2; tries++) {
    stored = await tasks();
    if (stored < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(stored).toBe(2);
  release();
  expect((await running).steps.sort()).toEqual(["fast", "slow"]);
  const latest = await official.getTuple({ configurable: { thread_id: threadId } });
  expect((latest?.checkpoint.channel_values.steps as string[]).sort()).toEqual(["fast", "slow"]);
});

test("writes no checkpoint follows (a failing step) are stored before the run ends", async () => {
  const graph = new StateGraph(State)
    .addNode("works", () => ({ steps: ["works"] }))
    .addNode("fails", async () => {
      // After its sibling has ended: the sibling's write is stored alone, none of the step's checkpoint.
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error("this step fails");
    })
    .addEdge(START, "works")
    .addEdge(START, "fails")
    .addEdge("works", END)
    .addEdge("fails", END)
    .compile({ checkpointer: ours });
  const threadId = randomUUID();
  await expect(graph.invoke({ steps: [] }, { configurable: { thread_id: threadId, run_id: "run-3" } })).rejects.toThrow(
    "this step fails",
  );
  const latest = await official.getTuple({ configurable: { thread_id: threadId } });
  const channels = (latest?.pendingWrites ?? []).map(([, channel]) => channel).sort();
  expect(channels).toEqual(["__error__", "steps"]);
  // Resumed, the task that had ended is not run again: its write was kept.
  const again = await graph.invoke(null, { configurable: { thread_id: threadId, run_id: "run-4" } }).catch(() => null);
  expect(again).toBeNull();
  const after = await official.getTuple({ configurable: { thread_id: threadId } });
  expect((after?.pendingWrites ?? []).filter(([, channel]) => channel === "steps")).toHaveLength(1);
});

test("a checkpoint save that fails stores the writes it carried alone: resumed, the finished task does not run again", async () => {
  // The save of a thread's step-1 checkpoint fails while the thread is listed, as after a fault.
  await pool.query(`
    CREATE TABLE "cp_writes".failing (thread_id text PRIMARY KEY);
    CREATE FUNCTION "cp_writes".fail_step_1() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.metadata->>'step' = '1' AND EXISTS (SELECT 1 FROM "cp_writes".failing f WHERE f.thread_id = NEW.thread_id) THEN
        RAISE EXCEPTION 'the checkpoint save failed' USING ERRCODE = 'admin_shutdown';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER fail_step_1 BEFORE INSERT ON "cp_writes".checkpoints
      FOR EACH ROW EXECUTE FUNCTION "cp_writes".fail_step_1();`);
  let firstRuns = 0;
  const graph = new StateGraph(State)
    .addNode("first", () => {
      firstRuns += 1;
      return { steps: ["first"] };
    })
    .addNode("second", () => ({ steps: ["second"] }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer: ours });
  const threadId = randomUUID();
  const config = { configurable: { thread_id: threadId, run_id: "run-5" } };
  await pool.query('INSERT INTO "cp_writes".failing VALUES ($1)', [threadId]);
  await expect(graph.invoke({ steps: [] }, config)).rejects.toThrow("the checkpoint save failed");
  await pool.query('DELETE FROM "cp_writes".failing WHERE thread_id = $1', [threadId]);

  // The last checkpoint saved (step 0) has the finished task's writes, which the failed save carried.
  const latest = await official.getTuple({ configurable: { thread_id: threadId } });
  expect(latest?.metadata?.step).toBe(0);
  expect((latest?.pendingWrites ?? []).map(([, channel]) => channel)).toContain("steps");
  const resumed = await graph.invoke(null, config);
  expect(resumed.steps).toEqual(["first", "second"]);
  expect(firstRuns).toBe(1);
});
