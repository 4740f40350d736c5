// Drill: the runtime's PostgreSQL connections are terminated (pg_terminate_backend, as a failover
// or a pooler restart does) eight times while 20 runs are under way. A connection fault is not the
// graph's: each run it meets is handed back and resumed from its last checkpoint. Counted: runs
// failed, lost (not ended), duplicated steps; all must be 0.
import { Client, startTestRuntime } from "../support/harness";
import { terminateBackends } from "../support/postgres-backends";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
const RUNS = 20;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: RUNS });
});
afterAll(async () => {
  await rt?.close();
});

test("runs under terminated PostgreSQL connections all succeed, each step once", async () => {
  const threads = await Promise.all(Array.from({ length: RUNS }, () => rt.client.threads.create()));
  const runs = await Promise.all(
    threads.map((thread) =>
      rt.client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: 150 } }),
    ),
  );
  // Connections are cut while the runs write checkpoints: several rounds, 150 ms apart.
  let terminated = 0;
  for (let round = 0; round < 8; round++) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    terminated += await terminateBackends(rt.database.url);
  }
  expect(terminated).toBeGreaterThan(0);

  // A read that meets a connection cut a moment ago is answered 503 "retry shortly", by design:
  // these reads retry, as a real client does (the harness's client never retries).
  const reader = new Client({ apiUrl: rt.url, callerOptions: { maxRetries: 3 } });
  const outcome = { failed: 0, lost: 0, duplicated: 0 };
  const deadline = Date.now() + 60_000;
  for (const [index, run] of runs.entries()) {
    const threadId = threads[index].thread_id;
    let status = (await reader.runs.get(threadId, run.run_id)).status;
    while ((status === "pending" || status === "running") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await reader.runs.get(threadId, run.run_id)).status;
    }
    if (status === "pending" || status === "running") outcome.lost += 1;
    else if (status !== "success") outcome.failed += 1;
    const state = await reader.threads.getState<{ visited: string[] }>(threadId);
    if (status === "success" && state.values.visited.length !== 3) outcome.duplicated += 1;
    if (status === "success") expect(state.values.visited).toEqual(["one", "two", "three"]);
  }
  expect(outcome).toEqual({ failed: 0, lost: 0, duplicated: 0 });
}, 90_000);
