// The runtime's checkpointer writes with single statements; the official saver must read exactly
// what it wrote (same tables, same encoding), including pending writes of an interrupted run.
import { randomUUID } from "node:crypto";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import pg from "pg";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { jsonBlobArrays, keyedBlobReads, runtimeSelectSql } from "../../src/graphs/checkpoint-read";
import { GraphRegistry } from "../../src/graphs/registry";
import { RunRepository } from "../../src/runs/repository";
import { EXAMPLES_CONFIG } from "../support/harness";
import { RecordingPool } from "../support/recording-pool";

let database: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
  // Dropping the database at the end ends any connection still open: not an error of the test.
  pool.on("error", () => undefined);
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

test("what the runtime checkpointer writes, the official PostgresSaver reads the same", async () => {
  const ours = new RuntimeCheckpointer(pool, undefined, { schema: "cp_test" });
  await ours.setup();
  const official = new PostgresSaver(pool, undefined, { schema: "cp_test" });
  const writer = await (await GraphRegistry.load(EXAMPLES_CONFIG, ours)).get("approval");
  const threadId = randomUUID();
  const config = { configurable: { thread_id: threadId, run_id: "run-1" } };
  await writer.invoke({ messages: [{ role: "user", content: "check" }] }, config);

  const snapshotOurs = await writer.getState({ configurable: { thread_id: threadId } });
  expect(snapshotOurs.next).toEqual(["review"]);
  expect(snapshotOurs.tasks[0].interrupts).toHaveLength(1);

  const tuples = [];
  for await (const tuple of official.list({ configurable: { thread_id: threadId } })) tuples.push(tuple);
  expect(tuples.length).toBeGreaterThanOrEqual(3);
  expect(tuples.every((tuple) => (tuple.metadata as Record<string, unknown> | undefined)?.run_id === "run-1")).toBe(
    true,
  );
  const latest = await official.getTuple({ configurable: { thread_id: threadId } });
  expect(latest?.checkpoint.id).toBe(snapshotOurs.config.configurable?.checkpoint_id);
  expect(latest?.checkpoint.channel_values).toMatchObject({ draft: "proposal: check", steps: ["propose"] });
  // The interrupt is a pending write of the checkpoint.
  expect(latest?.pendingWrites?.some(([, channel]) => channel === "__interrupt__")).toBe(true);

  // Ours reads its blobs as JSON (not bytea arrays), each by its whole key (not a join the planner
  // may hash over the thread's blobs), and reads exactly what the official saver reads.
  const sql = (saver: PostgresSaver) => (saver as unknown as { SQL_STATEMENTS: { SELECT_SQL: string } }).SQL_STATEMENTS;
  expect(sql(ours).SELECT_SQL.match(/array_to_json\(array_agg/g)).toHaveLength(2);
  expect(sql(ours).SELECT_SQL).toMatch(/cross join lateral \(select bl.channel, bl.type, bl.blob from/);
  expect(runtimeSelectSql(sql(official).SELECT_SQL)).toBe(sql(ours).SELECT_SQL);
  expect(await ours.getTuple({ configurable: { thread_id: threadId } })).toEqual(latest);
  const ourTuples = [];
  for await (const tuple of ours.list({ configurable: { thread_id: threadId } })) ourTuples.push(tuple);
  expect(ourTuples).toEqual(tuples);

  // Resuming through the official saver continues from what ours wrote.
  (writer as { checkpointer: unknown }).checkpointer = official;
  const { Command } = await import("@langchain/langgraph");
  const result = await writer.invoke(new Command({ resume: { approved: true } }), {
    configurable: { thread_id: threadId },
  });
  expect(result.steps).toEqual(["propose", "review", "publish"]);
});

test("a thread stored with the official saver's integer versions goes on with ours (fractional versions)", async () => {
  const official = new PostgresSaver(pool, undefined, { schema: "cp_test_versions" });
  await official.setup();
  const ours = new RuntimeCheckpointer(pool, undefined, { schema: "cp_test_versions" });
  const graph = await (await GraphRegistry.load(EXAMPLES_CONFIG, official)).get("approval");
  const config = { configurable: { thread_id: randomUUID() } };
  await graph.invoke({ messages: [{ role: "user", content: "old" }] }, config);
  const stored = await official.getTuple(config);
  expect(Object.values(stored!.checkpoint.channel_versions).every(Number.isInteger)).toBe(true);

  (graph as { checkpointer: unknown }).checkpointer = ours;
  const { Command } = await import("@langchain/langgraph");
  const result = await graph.invoke(new Command({ resume: { approved: true } }), config);
  expect(result.steps).toEqual(["propose", "review", "publish"]);
  const latest = await ours.getTuple(config);
  expect(Object.values(latest!.checkpoint.channel_versions).some((version) => !Number.isInteger(version))).toBe(true);
  expect(latest!.checkpoint.channel_values).toMatchObject({ draft: "proposal: old", approved: true });
  expect(latest).toEqual(await official.getTuple(config));
});

test("a saver whose read no longer has the two blob arrays or the blob join keeps its read as it is", () => {
  const other = "select checkpoint, (select array_agg(array[bl.channel::bytea, bl.blob]) from blobs bl) from cp";
  expect(jsonBlobArrays(other)).toBe(other);
  expect(keyedBlobReads(other)).toBe(other);
});

test("checkpoints read the same when the database writes bytea in the escape format", async () => {
  const escaping = new pg.Pool({ connectionString: database.url, max: 2, options: "-c bytea_output=escape" });
  escaping.on("error", () => undefined);
  try {
    const ours = new RuntimeCheckpointer(escaping, undefined, { schema: "cp_test_escape" });
    await ours.setup();
    const graph = await (await GraphRegistry.load(EXAMPLES_CONFIG, ours)).get("approval");
    const config = { configurable: { thread_id: randomUUID() } };
    await graph.invoke({ messages: [{ role: "user", content: "escaped" }] }, config);
    const official = new PostgresSaver(escaping, undefined, { schema: "cp_test_escape" });
    const tuple = await ours.getTuple(config);
    expect(tuple?.pendingWrites?.some(([, channel]) => channel === "__interrupt__")).toBe(true);
    expect(tuple).toEqual(await official.getTuple(config));
  } finally {
    await escaping.end();
  }
});

test("a run's first read of its thread comes from its claim's statement, once, and equals the saver's own", async () => {
  const recording = new RecordingPool({ connectionString: database.url, max: 2 });
  recording.on("error", () => undefined);
  try {
    const saver = new RuntimeCheckpointer(recording, undefined, { schema: "cp_test_prefetch" });
    await saver.setup();
    const graph = await (await GraphRegistry.load(EXAMPLES_CONFIG, saver)).get("approval");
    const threadId = randomUUID();
    await graph.invoke(
      { messages: [{ role: "user", content: "check" }] },
      { configurable: { thread_id: threadId, run_id: "run-1" } },
    );

    // What a claim reads, in its own statement: the thread's latest root checkpoint.
    const { rows } = await recording.query(saver.latestCheckpointSql("$1::text"), [threadId]);
    expect(rows).toHaveLength(1);
    const fromDatabase = await saver.getTuple({ configurable: { thread_id: threadId } });
    saver.prefetch("run-2", threadId, rows[0]);
    const reads = () => recording.sent.filter((text) => /^\s*select\s+thread_id,\s+checkpoint,/i.test(text)).length;
    const before = reads();
    expect(await saver.getTuple({ configurable: { thread_id: threadId, run_id: "run-2" } })).toEqual(fromDatabase);
    expect(reads()).toBe(before);
    // Taken once: the run's next read, and any other run's, go to the database.
    await saver.getTuple({ configurable: { thread_id: threadId, run_id: "run-2" } });
    expect(reads()).toBe(before + 1);

    // A run's claim makes that read in its own statement, and what it answers reads the same.
    const assistantId = randomUUID();
    const claimedRunId = randomUUID();
    await recording.query(
      `INSERT INTO assistants (assistant_id, graph_id, config, context, metadata, name, version)
       VALUES ($1, 'approval', '{}', '{}', '{}', 'approval', 1)`,
      [assistantId],
    );
    await recording.query("INSERT INTO threads (thread_id) VALUES ($1)", [threadId]);
    await recording.query(
      `INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, kwargs, multitask_strategy)
       VALUES ($1, $2, $3, 'pending', '{}', '{}', 'reject')`,
      [claimedRunId, threadId, assistantId],
    );
    const claimed = await new RunRepository(recording, saver).claim(claimedRunId, false);
    expect(claimed?.checkpoint?.pending_writes?.length).toBeGreaterThan(0);
    saver.prefetch(claimedRunId, threadId, claimed!.checkpoint);
    expect(await saver.getTuple({ configurable: { thread_id: threadId, run_id: claimedRunId } })).toEqual(fromDatabase);

    // A run resumed from the prefetched checkpoint goes on from it, without reading it again.
    saver.prefetch("run-3", threadId, rows[0]);
    const { Command } = await import("@langchain/langgraph");
    const readsBeforeRun = reads();
    const result = await graph.invoke(new Command({ resume: { approved: true } }), {
      configurable: { thread_id: threadId, run_id: "run-3" },
    });
    expect(result.steps).toEqual(["propose", "review", "publish"]);
    expect(reads()).toBe(readsBeforeRun);

    // Another thread's read, or a checkpoint asked for by id, leaves a run's prefetch in place;
    // `null` stands for "the thread had no checkpoint when the run was claimed".
    saver.prefetch("run-4", threadId, null);
    expect(await saver.getTuple({ configurable: { thread_id: randomUUID(), run_id: "run-4" } })).toBeUndefined();
    const byId = fromDatabase!.config.configurable!.checkpoint_id as string;
    expect(
      (await saver.getTuple({ configurable: { thread_id: threadId, run_id: "run-4", checkpoint_id: byId } }))
        ?.checkpoint.id,
    ).toBe(byId);
    expect(await saver.getTuple({ configurable: { thread_id: threadId, run_id: "run-4" } })).toBeUndefined();
    // A prefetch the run never took is dropped when the run ends.
    saver.prefetch("run-5", threadId, null);
    saver.forgetPrefetch("run-5");
    expect(
      (await saver.getTuple({ configurable: { thread_id: threadId, run_id: "run-5" } }))?.checkpoint.id,
    ).toBeDefined();
  } finally {
    await recording.end();
  }
});
