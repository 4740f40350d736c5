// Python graphs with an API process and a worker process on Redis (the worker's Python graph host
// runs them): what a graph prints and logs reaches the worker's log as JSON lines carrying the
// run's ids, its stderr as errors.
import path from "node:path";
import {
  Client,
  killProcess,
  randomPrefix,
  spawnRuntimeProcess,
  startRuntimeProcess,
  type RuntimeProcess,
} from "../support/harness";
import type { ChildProcess } from "node:child_process";

const MIXED = path.resolve(__dirname, "fixtures/mixed/langgraph.json");

let api: RuntimeProcess;
let worker: ChildProcess;
const workerOutput: string[] = [];

beforeAll(async () => {
  const prefix = randomPrefix();
  const env = { LANGGRAPH_JSON: MIXED, LOG_LEVEL: "info", REDIS_PREFIX: prefix };
  api = await startRuntimeProcess("agent-runtime", { ...env, WORKERS: "0" });
  worker = spawnRuntimeProcess("worker.ts", { ...env, DATABASE_URL: api.databaseUrl, WORKERS: "2" }, workerOutput);
}, 180_000);

afterAll(async () => {
  if (worker) await killProcess(worker);
  await api?.stop();
});

interface LogLine {
  level: number;
  msg: string;
  runId?: string;
  threadId?: string;
  graphId?: string;
  python?: string;
  logger?: string;
}

/** The worker's JSON log lines. */
function workerLines(): LogLine[] {
  return workerOutput
    .join("")
    .split("\n")
    .map((line) => line.replace(/^worker\.ts: /, ""))
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
}

async function lineWhere(match: (line: LogLine) => boolean): Promise<LogLine> {
  for (let i = 0; i < 100; i += 1) {
    const found = workerLines().find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no such log line in:\n${workerOutput.join("")}`);
}

test("a worker process runs Python graphs; their print, logging and stderr reach its log with the run's ids", async () => {
  const client = new Client({ apiUrl: api.url, callerOptions: { maxRetries: 0 } });
  const thread = await client.threads.create();
  const values = (await client.runs.wait(thread.thread_id, "remember", {
    input: { messages: [{ role: "user", content: "logged words" }] },
  })) as { messages: { content: string }[] };
  expect(values.messages.at(-1)?.content).toBe("noted: logged words");
  const [run] = await client.runs.list(thread.thread_id);

  const printed = await lineWhere((line) => line.msg === "remembered: logged words");
  expect(printed).toMatchObject({
    level: 30,
    python: "stdout",
    runId: run.run_id,
    threadId: thread.thread_id,
    graphId: "remember",
  });
  const logged = await lineWhere((line) => line.msg.startsWith("stored note "));
  expect(logged).toMatchObject({ level: 40, logger: "memory", runId: run.run_id });

  const failing = await client.threads.create();
  await client.runs
    .wait(failing.thread_id, "noisy", { input: { messages: [{ role: "user", content: "x" }] } })
    .catch(() => undefined);
  const [failed] = await client.runs.list(failing.thread_id);
  expect(failed.status).toBe("error");
  const stderr = await lineWhere((line) => line.msg === "the noisy graph is about to fail");
  expect(stderr).toMatchObject({ level: 50, python: "stderr", runId: failed.run_id });
}, 60_000);
