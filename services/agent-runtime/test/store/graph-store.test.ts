// The store reaches graphs run by the runtime: what a run writes, /store/items reads, and back.
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { startRuntime, type RunningRuntime } from "../support/harness";

type State = { user: string; visits: number; others: string[] };

describe.each(["memory", "redis"] as const)("the store in runs (%s queue)", (mode) => {
  let database: TestDatabase;
  let rt: RunningRuntime;
  beforeAll(async () => {
    database = await createTestDatabase("agent-runtime");
    rt = await startRuntime(database.url, {
      redis: mode === "redis",
      workers: 1,
      env: { LANGGRAPH_JSON: path.join(__dirname, "fixtures/langgraph.json") },
    });
  });
  afterAll(async () => {
    await rt?.close();
    await database?.drop();
  });

  test("a run reads and writes the items of /store/items", async () => {
    await rt.client.store.putItem(["visits", "ann"], "count", { n: 5 });
    const thread = await rt.client.threads.create();
    const first = (await rt.client.runs.wait(thread.thread_id, "memory", { input: { user: "ann" } })) as State;
    expect(first.visits).toBe(6);
    expect((await rt.client.store.getItem(["visits", "ann"], "count"))?.value).toEqual({ n: 6 });

    const stateless = (await rt.client.runs.wait(null, "memory", { input: { user: "bob" } })) as State;
    expect(stateless).toMatchObject({ visits: 1, others: ["ann", "bob"] });
    const again = (await rt.client.runs.wait(null, "memory", { input: { user: "bob" } })) as State;
    expect(again.visits).toBe(2);
  });
});
