// OpenTelemetry traces across processes: an API process and a worker process on Redis export over
// OTLP/HTTP (the standard OTEL_* variables) to a receiver here; one streamed run makes one trace
// holding the HTTP request, the run's creation and hand-over to the queue, its wait, the worker's
// claim and attempt, each graph node, and the PostgreSQL and Redis calls of both processes. The
// project mixes JS and Python graphs: a Python graph's nodes come from its host.
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort, waitUntilOk } from "@lgp/server-kit";
import { createTestDatabase, testRedisUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import { Client, collect, deleteRedisKeys, randomPrefix, spawnRuntimeProcess, stopProcess } from "../support/harness";
import { OtlpReceiver, type ReceivedSpan } from "@lgp/server-kit/src/testing/otlp-receiver";

const MIXED = path.resolve(__dirname, "../python/fixtures/mixed/langgraph.json");
const SERVER = 2;
const INPUT_MARKER = "an input no span may state 5b1c";
const PRODUCER = 4;
const CONSUMER = 5;

let database: TestDatabase;
const prefix = randomPrefix();
const children: ChildProcess[] = [];
const output: string[] = [];
let receiver: OtlpReceiver;
let api: string;

beforeAll(async () => {
  receiver = await new OtlpReceiver().start();
  database = await createTestDatabase("agent-runtime");
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: database.url,
    REDIS_PREFIX: prefix,
    HOST: "127.0.0.1",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    LANGGRAPH_JSON: MIXED,
  };
  children.push(spawnRuntimeProcess("main.ts", { ...env, PORT: String(port), WORKERS: "0" }, output));
  children.push(spawnRuntimeProcess("worker.ts", { ...env, WORKERS: "2" }, output));
  if (!(await waitUntilOk(`${api}/ok`, 60_000))) throw new Error(`the API did not start:\n${output.join("")}`);
}, 180_000);

afterAll(async () => {
  await Promise.all(children.map(stopProcess));
  await receiver?.close();
  await deleteRedisKeys(testRedisUrl(), prefix);
  await database?.drop();
});

function byName(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const span = spans.find((candidate) => candidate.name === name);
  if (!span) throw new Error(`no span "${name}" among ${spans.map((s) => s.name).join(", ")}`);
  return span;
}

/** Whether `span` descends from `ancestor` within `spans`. */
function descends(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (
    let at = span.parentSpanId && byId.get(span.parentSpanId);
    at;
    at = at.parentSpanId && byId.get(at.parentSpanId)
  ) {
    if (at.spanId === ancestor.spanId) return true;
  }
  return false;
}

test("one streamed run is one trace, from the API's request through the worker's graph nodes", async () => {
  const client = new Client({ apiUrl: api, callerOptions: { maxRetries: 0 } });
  const thread = await client.threads.create();
  // The worker may still be starting: the run waits in the queue for it.
  const chunks = await collect(
    client.runs.stream(thread.thread_id, "js_agent", {
      input: { messages: [{ role: "human", content: INPUT_MARKER }] },
      streamMode: "values",
    }),
  );
  expect(chunks.at(-1)?.event).toBe("values");

  const nodes = ["graph node agent"];
  const awaited = [...nodes, "run attempt", "POST /threads/:thread_id/runs/stream"];
  const spans = await receiver.waitFor((all) => awaited.every((name) => all.some((span) => span.name === name)));
  const attempt = byName(spans, "run attempt");
  const trace = spans.filter((span) => span.traceId === attempt.traceId);

  const request = trace.find((span) => span.kind === SERVER && span.name.startsWith("POST"));
  expect(request).toMatchObject({ service: "agent-runtime", parentSpanId: undefined });
  expect(request!.attributes["http.route"]).toBe("/threads/:thread_id/runs/stream");
  const create = byName(trace, "run create");
  const enqueue = byName(trace, "run enqueue");
  expect(create).toMatchObject({ service: "agent-runtime" });
  expect(enqueue).toMatchObject({ service: "agent-runtime", kind: PRODUCER });
  expect(descends(trace, create, request!)).toBe(true);
  expect(descends(trace, enqueue, request!)).toBe(true);

  // The hand-over: the worker's attempt continues the trace from the job's traceparent.
  expect(attempt).toMatchObject({ service: "agent-runtime-worker", kind: CONSUMER, parentSpanId: enqueue.spanId });
  expect(attempt.attributes).toMatchObject({
    "langgraph.run.id": expect.any(String),
    "langgraph.thread.id": thread.thread_id,
    "langgraph.graph.id": "js_agent",
    "langgraph.run.attempt": 1,
    "langgraph.run.status": "success",
  });
  expect(byName(trace, "run queued")).toMatchObject({ service: "agent-runtime-worker", parentSpanId: enqueue.spanId });
  expect(byName(trace, "run claim").parentSpanId).toBe(attempt.spanId);
  for (const name of nodes) {
    expect(byName(trace, name)).toMatchObject({ service: "agent-runtime-worker", parentSpanId: attempt.spanId });
  }

  // Both processes' PostgreSQL statements and Redis commands are in it, inside its spans.
  for (const service of ["agent-runtime", "agent-runtime-worker"]) {
    const own = trace.filter((span) => span.service === service);
    expect(
      own.some(
        (span) => span.attributes["db.system"] === "postgresql" || span.attributes["db.system.name"] === "postgresql",
      ),
    ).toBe(true);
    expect(
      own.some((span) => span.attributes["db.system"] === "redis" || span.attributes["db.system.name"] === "redis"),
    ).toBe(true);
  }
  // No span states a run's input (the queue's scripts carry it; statements are kept without values).
  expect(JSON.stringify(spans)).not.toContain(INPUT_MARKER);
  // Health checks and scrapes start no traces.
  expect(spans.some((span) => span.name.includes("/ok") || span.attributes["http.target"] === "/ok")).toBe(false);
}, 60_000);

test("a Python graph's nodes are spans of its attempt, timed by its host", async () => {
  const client = new Client({ apiUrl: api, callerOptions: { maxRetries: 0 } });
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, "steps", { input: {}, context: { delay_ms: 50 } });
  await client.runs.join(thread.thread_id, run.run_id);
  const ofRun = (all: ReceivedSpan[]) => {
    const attempt = all.find(
      (span) => span.name === "run attempt" && span.attributes["langgraph.run.id"] === run.run_id,
    );
    return {
      attempt,
      nodes: all.filter(
        (span) => attempt && span.parentSpanId === attempt.spanId && span.name.startsWith("graph node"),
      ),
    };
  };
  const spans = await receiver.waitFor((all) => ofRun(all).nodes.length >= 3);
  const { attempt, nodes } = ofRun(spans);
  expect(attempt).toMatchObject({ service: "agent-runtime-worker", traceId: expect.any(String) });
  const names = nodes.map((span) => span.name);
  expect(names).toEqual(expect.arrayContaining(["graph node one", "graph node two", "graph node three"]));
  const timed = (name: string) => {
    const span = nodes.find((candidate) => candidate.name === name)!;
    return {
      start: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
      end: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
    };
  };
  // Each step pauses 50 ms, and they run one after the other.
  const [one, two, three] = [timed("graph node one"), timed("graph node two"), timed("graph node three")];
  expect(one.end - one.start).toBeGreaterThanOrEqual(45);
  expect(two.start).toBeGreaterThanOrEqual(one.end - 1);
  expect(three.start).toBeGreaterThanOrEqual(two.end - 1);
  expect(nodes.find((span) => span.name === "graph node two")?.attributes["langgraph.node"]).toBe("two");
}, 60_000);

test("a run cancelled mid-node still exports that node's span, ended by the cancel", async () => {
  const client = new Client({ apiUrl: api, callerOptions: { maxRetries: 0 } });
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, "js_steps", { input: {}, context: { delay_ms: 5_000 } });
  const started = (all: ReceivedSpan[]) =>
    all.some((span) => span.name === "run claim" && span.attributes["langgraph.run.id"] === run.run_id);
  await receiver.waitFor(started);
  // Into its first node, which pauses 5 s.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await client.runs.cancel(thread.thread_id, run.run_id, true);
  const spans = await receiver.waitFor((all) =>
    all.some((span) => span.name === "run attempt" && span.attributes["langgraph.run.id"] === run.run_id),
  );
  const attempt = spans.find(
    (span) => span.name === "run attempt" && span.attributes["langgraph.run.id"] === run.run_id,
  )!;
  expect(attempt.attributes["langgraph.run.status"]).toBe("interrupted");
  const one = spans.find((span) => span.parentSpanId === attempt.spanId && span.name === "graph node one");
  expect(one).toMatchObject({ status: { code: 2, message: "Run was cancelled" } });
  expect(BigInt(one!.endTimeUnixNano)).toBeGreaterThan(BigInt(one!.startTimeUnixNano));
}, 60_000);

test("a failed run's attempt span ends in error, with the run's status", async () => {
  const client = new Client({ apiUrl: api, callerOptions: { maxRetries: 0 } });
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, "js_agent", { input: { messages: 42 } });
  await client.runs.join(thread.thread_id, run.run_id);
  const spans = await receiver.waitFor((all) =>
    all.some((span) => span.name === "run attempt" && span.attributes["langgraph.run.id"] === run.run_id),
  );
  const attempt = spans.find(
    (span) => span.name === "run attempt" && span.attributes["langgraph.run.id"] === run.run_id,
  )!;
  expect(attempt.attributes["langgraph.run.status"]).toBe("error");
  expect(attempt.status?.code).toBe(2);
}, 30_000);
