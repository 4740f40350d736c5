// A connection the graph itself makes (a fetch to a service that refuses it) failing is the
// graph's error: the run ends `error` with it at once, not handed back and retried as a fault of
// the runtime's own database or Redis connections is.
import path from "node:path";
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startTestRuntime({ env: { LANGGRAPH_JSON: path.join(__dirname, "fixtures/refused/langgraph.json") } });
});
afterAll(async () => {
  await rt?.close();
});

test("a graph's refused fetch ends its run as error on the first attempt", async () => {
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "refused", { input: {} });
  await rt.client.runs.join(thread.thread_id, run.run_id);
  expect((await rt.client.runs.get(thread.thread_id, run.run_id)).status).toBe("error");
  expect((await rt.runtime.runRepository.findById(run.run_id))?.attempt).toBe(1);
  const events = [];
  for await (const part of rt.client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: "-1" })) {
    events.push(part);
  }
  expect(events.find((part) => part.event === "error")?.data).toMatchObject({ message: "fetch failed" });
});
