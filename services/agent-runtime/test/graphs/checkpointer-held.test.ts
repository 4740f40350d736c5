// A run's latest root checkpoints are held back for a 0 ms timer, so that one statement stores
// those saved before it fires, and the statement ending the run its last ones: round trips fewer
// per run. What is stored is what the official saver stores; a step that waits finds the
// checkpoint it started from stored; held checkpoints are stored in order, and the run's end waits
// for those under way; those before one that fails are stored, none after it; a rolled-back run's
// are dropped; a run that does not hold stores each at once.
import { randomUUID } from "node:crypto";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { Prisma } from "../../src/generated/prisma/client";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { MAX_HELD } from "../../src/graphs/held-checkpoints";
import { historyOf } from "../support/checkpoint-history";
import { FaultyPool } from "../support/faulty-pool";

let database: TestDatabase;
let pool: FaultyPool;
let ours: RuntimeCheckpointer;
let official: PostgresSaver;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  pool = new FaultyPool({ connectionString: database.url, max: 4, schema: "cp_held" });
  pool.on("error", () => undefined);
  ours = new RuntimeCheckpointer(pool, undefined, { schema: "cp_held" });
  await ours.setup();
  official = new PostgresSaver(pool, undefined, { schema: "cp_held" });
});
afterEach(() => pool.reset());
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const State = Annotation.Root({ steps: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });

/** start -> first -> second: four checkpoints (steps -1 to 2). */
type Update = { steps: string[] };
function sequence(saver: BaseCheckpointSaver, second: () => Update | Promise<Update> = () => ({ steps: ["second"] })) {
  return new StateGraph(State)
    .addNode("first", () => ({ steps: ["first"] }))
    .addNode("second", second)
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer: saver });
}

const checkpointSaves = () => pool.sent.filter((text) => /INSERT INTO "cp_held"\.checkpoints/.test(text)).length;

const history = (threadId: string) => historyOf(official, threadId);

/** A run's config as the executor gives its graph: the run's id, and its attempt in the metadata. */
const runConfig = (threadId: string, runId: string) => ({
  configurable: { thread_id: threadId, run_id: runId },
  metadata: { run_attempt: 1 },
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A second step that waits (a model call, say): longer than checkpoints are held. */
const waiting = async () => {
  await new Promise((resolve) => setTimeout(resolve, 10));
  return { steps: ["second"] };
};

/** Stores `WITH` parts as the run's end does (here alone). */
async function storeParts(parts: Prisma.Sql): Promise<void> {
  const statement = Prisma.sql`WITH ${parts} SELECT 1`;
  await pool.query(statement.text, statement.values as unknown[]);
}

async function reference(): Promise<Awaited<ReturnType<typeof history>>> {
  const threadId = randomUUID();
  await sequence(official).invoke({ steps: ["input"] }, { configurable: { thread_id: threadId } });
  return history(threadId);
}

test("checkpoints saved within one turn go with the run's end, and the thread reads as the official saver's", async () => {
  const threadId = randomUUID();
  const runId = randomUUID();
  const hold = ours.holdCheckpoints(runId, 1);
  const before = checkpointSaves();
  await sequence(ours).invoke({ steps: ["input"] }, runConfig(threadId, runId));
  // As the runtime's end of a run does, right after the graph: no step waited, all four are held.
  await ours.settleHeld(hold);
  const held = await ours.takeHeld(hold);
  expect(held?.entries).toHaveLength(4);
  expect(checkpointSaves() - before).toBe(0);
  expect(await history(threadId)).toHaveLength(0);
  await storeParts(held!.ctes);
  expect(checkpointSaves() - before).toBe(1);
  expect(await history(threadId)).toEqual(await reference());
});

test("slow saves: the run's end waits for those under way, stored in order", async () => {
  pool.delayMs = 60;
  const threadId = randomUUID();
  const runId = randomUUID();
  const hold = ours.holdCheckpoints(runId, 1);
  const before = checkpointSaves();
  await sequence(ours, waiting).invoke({ steps: ["input"] }, runConfig(threadId, runId));
  await ours.settleHeld(hold);
  // The three saved before the second step waited went together as it waited; they are in.
  expect(checkpointSaves() - before).toBe(1);
  expect(await history(threadId)).toHaveLength(3);
  const held = await ours.takeHeld(hold);
  expect(held?.entries).toHaveLength(1);
  await storeParts(held!.ctes);
  expect(await history(threadId)).toEqual(await reference());
});

test("a refused checkpoint: those before it are stored, none after it, and the run's later saves and end fail", async () => {
  pool.failStep = 0;
  const threadId = randomUUID();
  const runId = randomUUID();
  const hold = ours.holdCheckpoints(runId, 1);
  await expect(sequence(ours, waiting).invoke({ steps: ["input"] }, runConfig(threadId, runId))).rejects.toThrow(
    "this checkpoint save fails",
  );
  await expect(ours.settleHeld(hold)).rejects.toThrow("this checkpoint save fails");
  expect(await ours.takeHeld(hold)).toBeUndefined();
  await nextTurn();
  // Steps -1 to 1 went in one statement, which failed; then one by one: the input checkpoint is
  // stored, with the first step's writes stored alone (not lost with the refused one).
  const written = await history(threadId);
  expect(written.map((step) => step.step)).toEqual([-1]);
  expect(written[0].writes.length).toBeGreaterThan(0);
});

test("the run's end stores what it can of its checkpoints when their statement fails", async () => {
  const threadId = randomUUID();
  const runId = randomUUID();
  const hold = ours.holdCheckpoints(runId, 1);
  await sequence(ours).invoke({ steps: ["input"] }, runConfig(threadId, runId));
  const held = await ours.takeHeld(hold);
  pool.failStep = 1;
  await expect(ours.storeTaken(runId, held!)).rejects.toThrow("this checkpoint save fails");
  expect((await history(threadId)).map((step) => step.step)).toEqual([0, -1]);
});

test("a graph of many steps that wait for nothing holds at most MAX_HELD checkpoints: each hundred goes in a statement", async () => {
  const Count = Annotation.Root({ n: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }) });
  const counter = new StateGraph(Count)
    .addNode("count", (state) => ({ n: state.n + 1 }))
    .addEdge(START, "count")
    .addConditionalEdges("count", (state) => (state.n < 150 ? "count" : END))
    .compile({ checkpointer: ours });
  const threadId = randomUUID();
  const runId = randomUUID();
  const hold = ours.holdCheckpoints(runId, 1);
  const before = checkpointSaves();
  await counter.invoke({ n: 0 }, { ...runConfig(threadId, runId), recursionLimit: 200 });
  await ours.settleHeld(hold);
  // 152 checkpoints (the input's, then one per step): the first hundred went as the hundredth was saved.
  expect(checkpointSaves() - before).toBe(1);
  expect(await history(threadId)).toHaveLength(MAX_HELD);
  const held = await ours.takeHeld(hold);
  expect(held?.entries).toHaveLength(152 - MAX_HELD);
  await storeParts(held!.ctes);
  const steps = (await history(threadId)).map((step) => step.step);
  expect(steps).toEqual(Array.from({ length: 152 }, (_, index) => 150 - index));
});

test("a checkpoint nothing takes is stored within a 0 ms timer: the step after it, which waits, finds it stored", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let secondStarted!: () => void;
  const started = new Promise<void>((resolve) => (secondStarted = resolve));
  const threadId = randomUUID();
  const runId = randomUUID();
  const hold = ours.holdCheckpoints(runId, 1);
  const running = sequence(ours, async () => {
    secondStarted();
    await released;
    return { steps: ["second"] };
  }).invoke({ steps: [] }, runConfig(threadId, runId));
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
  steps = [];
  for (let tries = 0; tries < 200 && steps.length < 4; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    steps = await history(threadId);
  }
  expect(steps).toHaveLength(4);
  expect(await ours.takeHeld(hold)).toBeUndefined();
});

test("each attempt of a run holds its own: an older attempt's saves stay out of the newer's", async () => {
  const threadId = randomUUID();
  const runId = randomUUID();
  const older = ours.holdCheckpoints(runId, 1);
  const newer = ours.holdCheckpoints(runId, 2);
  await sequence(ours).invoke({ steps: [] }, runConfig(threadId, runId));
  ours.dropHeld(newer);
  await ours.settleHeld(older);
  expect(await ours.takeHeld(older)).toBeDefined();
});

test("a rolled-back run's held checkpoints are dropped, not stored", async () => {
  const threadId = randomUUID();
  const runId = randomUUID();
  const hold = ours.holdCheckpoints(runId, 1);
  await sequence(ours).invoke({ steps: [] }, runConfig(threadId, runId));
  ours.dropHeld(hold);
  await ours.discardRun(runId);
  expect(await ours.takeHeld(hold)).toBeUndefined();
  await nextTurn();
  await nextTurn();
  expect(await history(threadId)).toHaveLength(0);
  ours.forgetRun(runId);
});

test("a run that does not hold (durability sync) stores every checkpoint as it is saved", async () => {
  const threadId = randomUUID();
  const runId = randomUUID();
  const before = checkpointSaves();
  await sequence(ours).invoke({ steps: [] }, runConfig(threadId, runId));
  expect(checkpointSaves() - before).toBe(4);
  expect(await history(threadId)).toHaveLength(4);
});
