// Run threads that cannot start (a graph module that fails there, with LANGGRAPH_STRICT_GRAPHS):
// the runs execute on the main thread instead, and the runtime still shuts down.
import path from "node:path";
import { startTestRuntime } from "../support/harness";

test("runs fall back to the main thread when the run threads cannot start, and shutdown completes", async () => {
  const rt = await startTestRuntime({
    workers: 2,
    env: {
      LANGGRAPH_JSON: path.join(__dirname, "fixtures/main-thread-only.json"),
      LANGGRAPH_STRICT_GRAPHS: "true",
      WORKER_THREADS: "2",
      LOG_LEVEL: "fatal",
    },
  });
  let closed = false;
  try {
    for (const graph of ["where", "main_only", "where"]) {
      const thread = await rt.client.threads.create();
      const values = (await rt.client.runs.wait(thread.thread_id, graph, { input: {} })) as { thread: number };
      expect(values.thread).toBe(0);
    }
    await rt.close();
    closed = true;
  } finally {
    if (!closed) await rt.close();
  }
}, 30_000);
