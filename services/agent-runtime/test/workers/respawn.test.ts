// A graph that ends its worker thread on every run (WORKER_THREADS): the thread is replaced at
// once the first time, later each time it dies again soon after starting, and the runs meanwhile
// wait for it; none runs on the main thread, where such a graph would end the whole process.
import path from "node:path";
import { Client } from "@lgp/server-kit/src/testing";
import { startRuntimeProcess, type RuntimeProcess } from "../support/harness";

let runtime: RuntimeProcess;
beforeAll(async () => {
  runtime = await startRuntimeProcess("agent-runtime-respawn", {
    REDIS_URL: "",
    LANGGRAPH_JSON: path.join(__dirname, "fixtures/langgraph.json"),
    WORKER_THREADS: "1",
    WORKERS: "2",
    // A run its dead thread held is handed back about two seconds on, four attempts at most.
    RUN_LOCK_MS: "1000",
    RUN_MAX_ATTEMPTS: "4",
  });
}, 90_000);
afterAll(async () => {
  await runtime?.stop();
});

/** The runtime's log lines about replacing its run thread, in order. */
function respawns(): { inMs: number; msg: string }[] {
  return runtime.output
    .join("")
    .split("\n")
    .filter((line) => line.includes('"inMs"'))
    .map((line) => JSON.parse(line.slice(line.indexOf("{"))) as { inMs: number; msg: string });
}

async function waitFor<T>(what: string, read: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms\n${runtime.output.join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("a thread that keeps dying is replaced later each time, and no run moves to the main thread", async () => {
  const client = new Client({ apiUrl: runtime.url });
  const deadly = await client.threads.create();
  const run = await client.runs.create(deadly.thread_id, "deadly", { input: {} });

  // Each attempt ends the thread that runs it: replaced at once, then after 1 s, 2 s, 4 s.
  const thread = await client.threads.create();
  await waitFor("four replacements", () => (respawns().length >= 4 ? true : undefined));
  // A run created while the last replacement waits (its creation claimed it) waits for it, held
  // all along: the run sweep (every second here) does not hand it back as if no worker had it.
  const waiting = await client.runs.create(thread.thread_id, "where", { input: {} });
  expect(respawns().map((line) => line.inMs)).toEqual([0, 1000, 2000, 4000]);
  expect(respawns()[1].msg).toBe("run thread exited again soon after it started; starting another later");
  const status = await waitFor("the deadly run's end", async () => {
    const { status } = await client.runs.get(deadly.thread_id, run.run_id);
    return status === "pending" || status === "running" ? undefined : status;
  });
  expect(status).toBe("error");

  await client.runs.join(thread.thread_id, waiting.run_id);
  const values = (await client.threads.getState<{ thread: number }>(thread.thread_id)).values;
  expect(values.thread).toBeGreaterThan(0);
  expect(runtime.output.join("")).not.toContain(`"runId":"${waiting.run_id}"`);

  // The process lived through it all: no attempt ran on its main thread.
  expect(runtime.child.exitCode).toBeNull();
}, 90_000);
