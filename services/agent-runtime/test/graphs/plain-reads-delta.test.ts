// A delta channel (LangGraph's DeltaChannel: its value rebuilt on read by replaying its ancestors'
// writes through the graph's reducer) read inside a plain read: the replayed writes are revived,
// as the reducer always gets them.
import { randomUUID } from "node:crypto";
import { AIMessage, HumanMessage, isBaseMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, DeltaChannel, StateGraph } from "@langchain/langgraph";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import pg from "pg";
import { RuntimeCheckpointer } from "../../src/graphs/checkpointer";
import { readPlain } from "../../src/graphs/plain-reads";
import { toThreadState } from "../../src/threads/state";

let database: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

test("a delta channel's replayed writes reach its reducer as instances, and read as the revived read's JSON", async () => {
  const checkpointer = new RuntimeCheckpointer(pool, undefined, { schema: "plain_reads_delta" });
  await checkpointer.setup();
  const instancesOnly = (state: BaseMessage[], writes: BaseMessage[][]) => {
    const added = writes.flat();
    if (!added.every((message) => isBaseMessage(message))) throw new Error("the reducer got a dict");
    return state.concat(added);
  };
  const State = Annotation.Root({
    // No snapshot within the test's steps: every read replays the writes.
    messages: new DeltaChannel<BaseMessage[], BaseMessage[]>(instancesOnly, {
      snapshotFrequency: 1000,
      initialValueFactory: () => [],
    }) as unknown as ReturnType<typeof Annotation<BaseMessage[]>>,
  });
  const graph = new StateGraph(State)
    .addNode("reply", (state) => ({ messages: [new AIMessage(`reply ${state.messages.length}`)] }))
    .addEdge("__start__", "reply")
    .compile({ checkpointer });
  const config = { configurable: { thread_id: randomUUID() } };
  for (const turn of [1, 2, 3]) await graph.invoke({ messages: [new HumanMessage(`turn ${turn}`)] }, config);

  const revived = await graph.getState(config);
  expect(revived.values.messages).toHaveLength(6);
  const plain = await readPlain(() => graph.getState(config));
  expect(JSON.parse(JSON.stringify(toThreadState(plain)))).toEqual(JSON.parse(JSON.stringify(toThreadState(revived))));
});
