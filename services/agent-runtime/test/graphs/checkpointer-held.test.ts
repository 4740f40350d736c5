// A run's latest root checkpoint is held back for a turn of the event loop, so that the statement
// ending the run stores its last one: a round trip fewer per run. What is stored is what the
// official saver stores; a checkpoint is never held past the turn it was saved in (a step that
// runs on finds it stored), nor past a rollback's discard; a run that does not hold stores each
// at once.
import { randomUUID } from "node:crypto";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { Prisma } from "../../src/generated/prisma/client";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { RecordingPool } from "../support/recording-pool";

let database: TestDatabase;
let pool: RecordingPool;
let ours: RuntimeCheckpointer;
let official: PostgresSaver;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  pool = new RecordingPool({ connectionString: database.url, max: 4 });
  pool.on("error", () => undefined);
  ours = new RuntimeCheckpointer(pool, undefined, { schema: "cp_held" });
  await ours.setup();
  official = new PostgresSaver(pool, undefined, { schema: "cp_held" });
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const State = Annotation.Root({ steps: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });

/** start -> first -> second: four checkpoints. */
function sequence(saver: BaseCheckpointSaver, second: () => unknown = () => ({ steps: ["second"] })) {
  return new StateGraph(State)
    .addNode("first", () => ({ steps: ["first"] }))
    .addNode("second", second)
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer: saver });
}

const checkpointSaves = () => pool.sent.filter((text) => /INSERT INTO "cp_held"\.checkpoints/.test(text)).length;

/** A thread's history as the official saver reads it, without ids. */
async function history(threadId: string) {
  const steps = [];
  for await (const tuple of official.list({ configurable: { thread_id: threadId } }))
    steps.push({
      step: tuple.metadata?.step,
      values: tuple.checkpoint.channel_values,
      writes: (tuple.pendingWrites ?? []).map(([, channel, value]) => [channel, value]),
    });
  return steps;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test("the run's end stores its last checkpoint, and the thread reads as the official saver's", async () => {
  const threadId = randomUUID();
  const runId = randomUUID();
  ours.holdCheckpoints(runId);
  const before = checkpointSaves();
  await sequence(ours).invoke({ steps: ["input"] }, { configurable: { thread_id: threadId, run_id: runId } });
  // As the runtime's end of a run does, right after the graph: the last checkpoint is still held.
  const held = ours.takeHeld(runId);
  expect(held).toBeDefined();
  expect(checkpointSaves() - before).toBe(3);
  expect(await history(threadId)).toHaveLength(3);
  await pool.query(Prisma.sql`WITH ${held!} SELECT 1`.text, Prisma.sql`WITH ${held!} SELECT 1`.values as unknown[]);

  const reference = randomUUID();
  await sequence(official).invoke({ steps: ["input"] }, { configurable: { thread_id: reference } });
  const written = await history(threadId);
  expect(written).toHaveLength(4);
  expect(written).toEqual(await history(reference));
});

test("a checkpoint nothing takes is stored within the turn: the step after it finds it stored", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let secondStarted!: () => void;
  const started = new Promise<void>((resolve) => (secondStarted = resolve));
  const threadId = randomUUID();
  const runId = randomUUID();
  ours.holdCheckpoints(runId);
  const running = sequence(ours, async () => {
    secondStarted();
    await released;
    return { steps: ["second"] };
  }).invoke({ steps: [] }, { configurable: { thread_id: threadId, run_id: runId } });
  await started;
  // While the second step runs, the checkpoint it started from (after `first`) is in the table.
  let steps: unknown[] = [];
  for (let tries = 0; tries < 200 && steps.length < 3; tries++) {
    steps = await history(threadId);
    if (steps.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(steps).toHaveLength(3);
  release();
  await running;
  // Not taken by a run's end: the last one goes alone, after the turn.
  await nextTurn();
  await ours.settleRun(runId);
  expect(await history(threadId)).toHaveLength(4);
  expect(ours.takeHeld(runId)).toBeUndefined();
});

test("a rolled-back run's held checkpoint is dropped, not stored", async () => {
  const threadId = randomUUID();
  const runId = randomUUID();
  ours.holdCheckpoints(runId);
  await sequence(ours).invoke({ steps: [] }, { configurable: { thread_id: threadId, run_id: runId } });
  await ours.discardRun(runId);
  expect(ours.takeHeld(runId)).toBeUndefined();
  await nextTurn();
  await nextTurn();
  expect(await history(threadId)).toHaveLength(3);
  ours.forgetRun(runId);
});

test("a run that does not hold (durability sync) stores every checkpoint as it is saved", async () => {
  const threadId = randomUUID();
  const runId = randomUUID();
  await sequence(ours).invoke({ steps: [] }, { configurable: { thread_id: threadId, run_id: runId } });
  expect(ours.takeHeld(runId)).toBeUndefined();
  expect(await history(threadId)).toHaveLength(4);
});
