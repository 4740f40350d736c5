// The runtime's checkpointer writes with single statements; the official saver must read exactly
// what it wrote (same tables, same encoding), including pending writes of an interrupted run.
import { randomUUID } from "node:crypto";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import pg from "pg";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { GraphRegistry } from "../../src/graphs/registry";
import { EXAMPLES_CONFIG } from "../support/harness";

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
});
