// Reading a graph's types from its TypeScript source: in a worker thread (the event loop keeps
// turning), once per graph, and any failure (time limit, unreadable file) is a warning and no schemas.
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { SourceSchemaReader } from "../../src/graphs/source-schemas/reader";

const FIXTURES = path.join(__dirname, "../assistants/fixtures/src");

/** A real logger whose lines are kept for the test to read. */
function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines };
}

test("the graph and its subgraphs by namespace, read off the event loop, once", async () => {
  const { logger, lines } = recordingLogger();
  const reader = new SourceSchemaReader({ timeoutMs: 120_000, logger });
  const spec = { file: path.join(FIXTURES, "annotation-nested.ts"), exportName: "graph" };

  // The longest pause of the event loop while the compiler works.
  let last = Date.now();
  let longestPause = 0;
  const ticker = setInterval(() => {
    const now = Date.now();
    longestPause = Math.max(longestPause, now - last);
    last = now;
  }, 20);
  const started = Date.now();
  const first = reader.read("annotation_nested", spec);
  const schemas = await first;
  const elapsed = Date.now() - started;
  clearInterval(ticker);

  expect(Object.keys(schemas ?? {})).toEqual(["", "middle", "middle|leaf"]);
  expect(schemas?.["middle|leaf"]?.state).toMatchObject({
    properties: { leaf: { type: "string", enum: ["leaf_one", "leaf_two"] } },
  });
  // Seconds of compiling; the loop never stopped for more than a fraction of that (on the main
  // thread it would stop for all of it). Generous: two shared cores deschedule the loop at times.
  expect(longestPause).toBeLessThan(Math.max(1500, elapsed / 2));
  expect(reader.read("annotation_nested", spec)).toBe(first);
  expect(lines.filter((line) => line.graph_id === "annotation_nested")).toHaveLength(1);
});

test("two graphs asked at once are read one after the other, each within its own limit", async () => {
  const { logger, lines } = recordingLogger();
  const reader = new SourceSchemaReader({ timeoutMs: 120_000, logger });
  const started = Date.now();
  const [factory, typed] = await Promise.all([
    reader.read("annotation_factory", { file: path.join(FIXTURES, "annotation-factory.ts"), exportName: "graph" }),
    reader.read("annotation_typed", { file: path.join(FIXTURES, "annotation-typed.ts"), exportName: "graph" }),
  ]);
  const elapsed = Date.now() - started;
  expect(factory?.[""]?.state).toMatchObject({ properties: { level: { type: "string", enum: ["high", "low"] } } });
  expect(typed?.[""]?.config).toMatchObject({ properties: { model: { enum: ["anthropic", "openai", "unknown"] } } });
  // Each logged the time of its own worker: together they took their sum (at once, it would be their maximum).
  const durations = lines.map((line) => line.ms as number);
  expect(lines.map((line) => line.graph_id)).toEqual(["annotation_factory", "annotation_typed"]);
  expect(elapsed).toBeGreaterThanOrEqual(durations[0] + durations[1]);
});

test("past the time limit: no schemas and one warning naming the graph", async () => {
  const { logger, lines } = recordingLogger();
  const reader = new SourceSchemaReader({ timeoutMs: 1, logger });
  const spec = { file: path.join(FIXTURES, "annotation.ts"), exportName: "graph" };
  await expect(reader.read("annotation", spec)).resolves.toBeUndefined();
  await expect(reader.read("annotation", spec)).resolves.toBeUndefined();
  const warnings = lines.filter((line) => line.level === 40);
  expect(warnings).toEqual([
    expect.objectContaining({ graph_id: "annotation", msg: expect.stringMatching(/timed out after 1 ms/) }),
  ]);
});

test("a source that cannot be read: no schemas and a warning", async () => {
  const { logger, lines } = recordingLogger();
  const reader = new SourceSchemaReader({ timeoutMs: 120_000, logger });
  const file = path.join(FIXTURES, "no-such-file.ts");
  await expect(reader.read("missing", { file, exportName: "graph" })).resolves.toBeUndefined();
  expect(lines).toEqual([
    expect.objectContaining({ level: 40, graph_id: "missing", file, msg: expect.stringMatching(/cannot read/) }),
  ]);
});
