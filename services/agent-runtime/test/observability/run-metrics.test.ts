// The runs' figures in /metrics move as runs are created, start and end: in the embedded mode (one
// process) and with Redis, where the API process counts what it creates and the worker process,
// on its own METRICS_PORT, what it executes.
import type { ChildProcess } from "node:child_process";
import { collectDefaultMetrics, Registry } from "prom-client";
import { freePort, waitUntilOk } from "@lgp/server-kit";
import { createDb } from "../../src/db";
import { RunMetrics } from "../../src/metrics/run-metrics";
import { MonitoringRepository } from "../../src/monitoring/repository";
import { createTestDatabase, testRedisUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import {
  Client,
  collect,
  deleteRedisKeys,
  killProcess,
  randomPrefix,
  spawnRuntimeProcess,
  startTestRuntime,
} from "../support/harness";

/** The sum of a metric's samples whose labels include `labels` (0 when there are none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  let seen = false;
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const own = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => own[key] === value)) {
      sum += Number(match[3]);
      seen = true;
    }
  }
  if (!seen && !Object.keys(labels).length && !text.includes(`# TYPE ${name} `)) throw new Error(`no metric ${name}`);
  return sum;
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

describe("embedded mode", () => {
  let rt: Awaited<ReturnType<typeof startTestRuntime>>;
  beforeAll(async () => {
    rt = await startTestRuntime({ env: { WEBHOOK_ATTEMPTS: "2", WEBHOOK_RETRY_DELAY_MS: "20" } });
  });
  afterAll(() => rt?.close());

  test("counts runs created, started and finished by status, with their waits and durations", async () => {
    const before = await scrape(rt.url);
    // Declared from the start, with no series until a run is made.
    expect(before).toContain("# TYPE lgp_runs_created_total counter");
    expect(before).toContain("# TYPE lgp_run_duration_seconds histogram");
    expect(sample(before, "lgp_runs_created_total", { graph_id: "steps" })).toBe(0);

    const thread = await rt.client.threads.create();
    await collect(
      rt.client.runs.stream(thread.thread_id, "steps", { input: {}, streamMode: "values", context: { delay_ms: 20 } }),
    );
    // A stream followed while the metrics are read counts as a subscriber.
    const slow = await rt.client.threads.create();
    const following = rt.client.runs.stream(slow.thread_id, "steps", { input: {}, context: { delay_ms: 400 } });
    const iterator = following[Symbol.asyncIterator]();
    // The run's metadata, then its first values: it is executing by then.
    expect((await iterator.next()).value).toMatchObject({ event: "metadata" });
    expect((await iterator.next()).value).toMatchObject({ event: "values" });
    const during = await scrape(rt.url);
    expect(sample(during, "lgp_stream_subscribers", { transport: "sse" })).toBe(1);
    expect(sample(during, "lgp_runs_running")).toBe(1);
    expect(sample(during, "lgp_runs_executing")).toBe(1);
    for (let next = await iterator.next(); !next.done; next = await iterator.next());

    const failing = await rt.client.threads.create();
    const run = await rt.client.runs.create(failing.thread_id, "agent", { input: { messages: 42 } });
    await rt.client.runs.join(failing.thread_id, run.run_id);
    expect((await rt.client.runs.get(failing.thread_id, run.run_id)).status).toBe("error");

    const after = await scrape(rt.url);
    expect(sample(after, "lgp_runs_created_total", { graph_id: "steps" })).toBe(2);
    expect(sample(after, "lgp_runs_started_total", { graph_id: "steps" })).toBe(2);
    expect(sample(after, "lgp_run_attempts_total", { graph_id: "steps" })).toBe(2);
    expect(sample(after, "lgp_run_resumes_total")).toBe(0);
    expect(sample(after, "lgp_runs_finished_total", { graph_id: "steps", status: "success" })).toBe(2);
    expect(sample(after, "lgp_runs_finished_total", { graph_id: "agent", status: "error" })).toBe(1);
    expect(sample(after, "lgp_run_queue_wait_seconds_count", { graph_id: "steps" })).toBe(2);
    expect(sample(after, "lgp_run_duration_seconds_count", { graph_id: "steps", status: "success" })).toBe(2);
    // Three steps of 400 ms: the slow run took more than a second (the quick one may too, on a
    // loaded machine, its graph loading on first use).
    expect(sample(after, "lgp_run_duration_seconds_bucket", { graph_id: "steps", le: "1" })).toBeLessThanOrEqual(1);
    expect(sample(after, "lgp_run_duration_seconds_bucket", { graph_id: "steps", le: "+Inf" })).toBe(2);
    expect(sample(after, "lgp_run_duration_seconds_sum", { graph_id: "steps" })).toBeGreaterThan(1.2);
    expect(sample(after, "lgp_runs_running")).toBe(0);
    expect(sample(after, "lgp_runs_pending")).toBe(0);
    expect(sample(after, "lgp_stream_subscribers", { transport: "sse" })).toBe(0);
  });

  test("counts webhook deliveries by result", async () => {
    const thread = await rt.client.threads.create();
    // Nothing listens on this port: the delivery fails after its attempts.
    const port = await freePort();
    const run = await rt.client.runs.create(thread.thread_id, "steps", {
      input: {},
      webhook: `http://127.0.0.1:${port}/hook`,
    });
    await rt.client.runs.join(thread.thread_id, run.run_id);
    const deadline = Date.now() + 20_000;
    let text = await scrape(rt.url);
    while (sample(text, "lgp_webhook_deliveries_total", { result: "failed" }) < 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      text = await scrape(rt.url);
    }
    expect(sample(text, "lgp_webhook_deliveries_total", { result: "failed" })).toBe(1);
    expect(sample(text, "lgp_webhook_deliveries_total", { result: "delivered" })).toBe(0);
  }, 30_000);
});

test("a database that does not answer leaves a scrape whole: the run counts fall back, the rest is there", async () => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Nothing listens on this port: every read of the counts fails.
  const db = createDb(`postgresql://postgres@127.0.0.1:${await freePort()}/nowhere`);
  try {
    new RunMetrics(registry, { runCounts: () => new MonitoringRepository(db).active() });
    const text = await registry.metrics();
    expect(sample(text, "lgp_runs_pending")).toBe(0);
    expect(sample(text, "lgp_runs_running")).toBe(0);
    // The process's own metrics are there (its CPU since the registry was made: 0 when that was
    // less than the kernel's accounting tick ago).
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
  } finally {
    await db.$disconnect();
  }
});

describe("API and worker processes on Redis", () => {
  let database: TestDatabase;
  const prefix = randomPrefix();
  const children: ChildProcess[] = [];
  const output: string[] = [];
  let api: string;
  let worker: string;

  beforeAll(async () => {
    database = await createTestDatabase("agent-runtime");
    const [apiPort, metricsPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${apiPort}`;
    worker = `http://127.0.0.1:${metricsPort}`;
    const env = { DATABASE_URL: database.url, REDIS_PREFIX: prefix, HOST: "127.0.0.1" };
    children.push(spawnRuntimeProcess("main.ts", { ...env, PORT: String(apiPort), WORKERS: "0" }, output));
    children.push(
      spawnRuntimeProcess("worker.ts", { ...env, WORKERS: "2", METRICS_PORT: String(metricsPort) }, output),
    );
    for (const url of [api, worker]) {
      const up = await waitUntilOk(`${url}/${url === api ? "ok" : "metrics"}`, 60_000);
      if (!up) throw new Error(`${url} did not start:\n${output.join("")}`);
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(children.map(killProcess));
    await deleteRedisKeys(testRedisUrl(), prefix);
    await database?.drop();
  });

  test("the API process counts what it creates, the worker what it executes", async () => {
    const client = new Client({ apiUrl: api, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    await collect(client.runs.stream(thread.thread_id, "steps", { input: {} }));
    await collect(client.runs.stream(thread.thread_id, "steps", { input: {} }));

    const fromApi = await scrape(api);
    expect(sample(fromApi, "lgp_runs_created_total", { graph_id: "steps" })).toBe(2);
    expect(sample(fromApi, "lgp_runs_started_total")).toBe(0);
    expect(sample(fromApi, "lgp_runs_pending")).toBe(0);

    const fromWorker = await scrape(worker);
    expect(sample(fromWorker, "lgp_runs_started_total", { graph_id: "steps" })).toBe(2);
    expect(sample(fromWorker, "lgp_runs_finished_total", { graph_id: "steps", status: "success" })).toBe(2);
    expect(sample(fromWorker, "lgp_run_queue_wait_seconds_count", { graph_id: "steps" })).toBe(2);
    expect(fromWorker).toContain('service="agent-runtime-worker"');
    // The deployment-wide gauges come from API processes only (each reports the same figure: max, not sum).
    expect(fromWorker).not.toContain("lgp_runs_pending");
    expect((await fetch(`${worker}/threads`)).status).toBe(404);
  }, 60_000);
});
