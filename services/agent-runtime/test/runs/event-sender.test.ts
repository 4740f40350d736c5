// A run's events on their way to its log (RunEventSender), with the runtime's checkpointer on a
// real database and the in-process event log: the graph does not wait for its events, and no event
// is in the log before the checkpoints saved before it are stored; the run's end releases those
// waiting, ahead of the log's end; an attempt that stops sends those of stored checkpoints only.
import { randomUUID } from "node:crypto";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { Prisma } from "../../src/generated/prisma/client";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import type { RunHold } from "../../src/graphs/held-checkpoints";
import { MemoryEventLog } from "../../src/queue/memory";
import { RunEventSender } from "../../src/runs/event-sender";
import { FaultyPool } from "../support/faulty-pool";

let database: TestDatabase;
let pool: FaultyPool;
let checkpointer: RuntimeCheckpointer;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  pool = new FaultyPool({ connectionString: database.url, max: 4, schema: "cp_sender" });
  pool.on("error", () => undefined);
  checkpointer = new RuntimeCheckpointer(pool, undefined, { schema: "cp_sender" });
  await checkpointer.setup();
});
afterEach(() => pool.reset());
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const State = Annotation.Root({ steps: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** start -> first -> second, whose steps wait (model calls, say): four checkpoints, steps -1 to 2. */
function steps() {
  return new StateGraph(State)
    .addNode("first", async () => {
      await pause(30);
      return { steps: ["first"] };
    })
    .addNode("second", async () => {
      await pause(30);
      return { steps: ["second"] };
    })
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer });
}

const storedCheckpoints = async (threadId: string) =>
  Number(
    (await pool.query(`SELECT count(*) AS n FROM "cp_sender".checkpoints WHERE thread_id = $1`, [threadId])).rows[0].n,
  );

/** A run as the executor streams it: each `updates` chunk to the sender (`emit`), not waited for. */
function startRun() {
  const threadId = randomUUID();
  const runId = randomUUID();
  const log = new MemoryEventLog();
  const hold: RunHold = checkpointer.holdCheckpoints(runId, 1);
  const sender = new RunEventSender(log, runId, () => checkpointer.landingOf(hold));
  // What the log holds as each event arrives, with the checkpoints stored by then.
  const seen: { node: string; stored: number }[] = [];
  const reading = (async () => {
    for await (const event of log.read(runId, {})) {
      seen.push({ node: Object.keys(JSON.parse(event.data))[0], stored: await storedCheckpoints(threadId) });
    }
  })();
  const streamed = (async () => {
    const stream = await steps().stream(
      { steps: ["input"] },
      { configurable: { thread_id: threadId, run_id: runId }, metadata: { run_attempt: 1 }, streamMode: "updates" },
    );
    for await (const chunk of stream) await sender.emit("updates", JSON.stringify(chunk));
  })();
  return { threadId, runId, log, hold, sender, seen, reading, streamed };
}

/** The run's end as the executor's: its held checkpoints with its statement, then its events, then the log's end. */
async function endRun(run: ReturnType<typeof startRun>): Promise<void> {
  await checkpointer.settleHeld(run.hold);
  const held = await checkpointer.takeHeld(run.hold);
  if (held) {
    const statement = Prisma.sql`WITH ${held.ctes} SELECT 1`;
    await pool.query(statement.text, statement.values as unknown[]);
  }
  run.sender.release();
  await run.log.end(run.runId);
  await run.sender.settled();
  await run.reading;
}

test("no event is in the log before the checkpoints saved before it are stored", async () => {
  // Each checkpoint statement takes 100 ms: an event sent at once would be seen well before.
  pool.delayMs = 100;
  const run = startRun();
  await run.streamed;
  await endRun(run);
  expect(run.seen.map((event) => event.node)).toEqual(["first", "second"]);
  // "first" follows checkpoints -1 and 0 (stored while it waited), "second" checkpoint 1 too (stored
  // while "second" waited); the last, 2, went with the run's end.
  expect(run.seen[0].stored).toBeGreaterThanOrEqual(2);
  expect(run.seen[1].stored).toBeGreaterThanOrEqual(3);
});

/** Streams a run whose checkpoint of step `failStep` cannot be stored, then stops it as the executor hands an attempt back. */
async function stoppedRun(failStep: number) {
  pool.failStep = failStep;
  const run = startRun();
  // The graph fails at its next save after it, if any (the last is held for the run's end).
  await run.streamed.catch(() => undefined);
  // What is held is stored if it can be, then the attempt stops.
  await checkpointer.flushHeld(run.hold).catch(() => undefined);
  run.sender.stop();
  checkpointer.dropHeld(run.hold);
  await run.log.end(run.runId);
  await run.sender.settled();
  await run.reading;
  return run;
}

test("an attempt that stops drops the events that follow a checkpoint not stored", async () => {
  // Checkpoint 1 (after "first") cannot be stored: "second" follows it and is never seen; "first"
  // is seen only if the executor took it before checkpoint 1 was saved (the stream runs ahead).
  const run = await stoppedRun(1);
  expect(run.seen.map((event) => event.node)).not.toContain("second");
  for (const event of run.seen) expect(event.stored).toBe(2);
  expect(await storedCheckpoints(run.threadId)).toBe(2);
});

test("an attempt that stops sends the events whose checkpoints were stored", async () => {
  // Checkpoint 2 (after "second") cannot be stored; "first" came before it, after checkpoint 1,
  // which was stored while "second" waited.
  const run = await stoppedRun(2);
  expect(run.seen[0]).toEqual({ node: "first", stored: 3 });
  expect(await storedCheckpoints(run.threadId)).toBe(3);
});

test("a graph does not wait for its events, unless too many are pending", async () => {
  const runId = randomUUID();
  const log = new MemoryEventLog();
  // Held back by a checkpoint that is never stored: everything waits for the run's end.
  const landing = { settled: new Promise<void>(() => undefined), settle: () => undefined };
  const sender = new RunEventSender(log, runId, () => landing);
  const waits: boolean[] = [];
  for (let index = 0; index < 300; index += 1) waits.push(sender.append("custom", String(index)) !== undefined);
  expect(waits.indexOf(true)).toBe(255);
  sender.release();
  await log.end(runId);
  const ids: string[] = [];
  for await (const event of log.read(runId, {})) ids.push(event.data);
  expect(ids).toEqual(Array.from({ length: 300 }, (_, index) => String(index)));
});

test("a checkpoint that cannot be stored does not hold the graph up: its next event reports the failure", async () => {
  // Checkpoint 1 fails while "second" waits; "second" then emits 300 events, more than may wait.
  pool.failStep = 1;
  const threadId = randomUUID();
  const runId = randomUUID();
  const log = new MemoryEventLog();
  const hold = checkpointer.holdCheckpoints(runId, 1);
  const sender = new RunEventSender(log, runId, () => checkpointer.landingOf(hold));
  const graph = new StateGraph(State)
    .addNode("first", () => ({ steps: ["first"] }))
    .addNode("second", async (_state, config) => {
      await pause(30);
      for (let index = 0; index < 300; index += 1) config.writer?.({ index });
      return { steps: ["second"] };
    })
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer });
  let sent = 0;
  const run = async () => {
    const stream = await graph.stream(
      { steps: ["input"] },
      { configurable: { thread_id: threadId, run_id: runId }, metadata: { run_attempt: 1 }, streamMode: "custom" },
    );
    // As the executor sends a graph's events.
    for await (const chunk of stream) {
      await sender.emit("custom", JSON.stringify(chunk));
      sent += 1;
    }
  };
  await expect(run()).rejects.toThrow("this checkpoint save fails");
  expect(sent).toBeLessThan(300);
  sender.stop();
  checkpointer.dropHeld(hold);
  await log.end(runId);
  // None of them followed a stored checkpoint.
  const seen: string[] = [];
  for await (const event of log.read(runId, {})) seen.push(event.data);
  expect(seen).toEqual([]);
});
