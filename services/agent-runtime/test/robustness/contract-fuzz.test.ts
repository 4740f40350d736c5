// Every operation of the agent runtime's contract, sent requests of every shape (ids real, unknown
// and malformed; query values and bodies of any type, over the operation's own field names):
// no answer is a 5xx, none hangs. Responses are also checked against the contract in tests, so a
// drift between the two would show as a 500 here.
import { agentRuntimeApi } from "@lgp/contracts";
import { fuzzOperations } from "@lgp/server-kit/src/testing";
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startTestRuntime({ workers: 4 });
});
afterAll(async () => {
  await rt?.close();
});

test("no operation answers a 5xx or hangs, whatever it is sent", async () => {
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "agent", { input: { messages: [] } });
  await rt.client.runs.join(thread.thread_id, run.run_id);
  const state = await rt.client.threads.getState(thread.thread_id);
  const assistant = await rt.client.assistants.create({ graphId: "agent" });
  const cron = await rt.client.crons.createForThread(thread.thread_id, "agent", { schedule: "0 0 1 1 *" });
  const { requests, failures } = await fuzzOperations({
    baseUrl: rt.url,
    document: agentRuntimeApi,
    pathValues: {
      thread_id: [thread.thread_id],
      run_id: [run.run_id],
      assistant_id: [assistant.assistant_id, "agent"],
      cron_id: [cron.cron_id],
      checkpoint_id: [state.checkpoint?.checkpoint_id ?? ""],
      namespace: ["a", "a.b"],
    },
    samples: 12,
    // The first read of a graph's schemas compiles its source: seconds, once.
    timeoutMs: 20_000,
  });
  expect(requests).toBeGreaterThan(500);
  expect(failures).toEqual([]);
}, 180_000);
