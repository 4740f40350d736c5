// A runtime's output as its deploy log: pino lines read into level, message and fields, plain
// lines kept at INFO (stdout) or ERROR (stderr), secret values masked, a flood bounded; and the
// retention sweep bounding the log by age and by size per deployment.
import { createLogger } from "@lgp/server-kit";
import { dockerBody, startHarness, type Harness } from "../deployments/harness";
import { RevisionRepository } from "../../src/revisions/repository";
import { RuntimeLogCollector } from "../../src/runtime-logs/collector";
import { RuntimeLogRetention } from "../../src/runtime-logs/retention";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const logger = createLogger("test", "silent");

async function deployment(name: string): Promise<{ id: string; revisionId: string }> {
  const created = await h.api.post("/v2/deployments").send(dockerBody(name));
  expect(created.status).toBe(201);
  return { id: created.body.id, revisionId: created.body.latest_revision_id };
}

interface Line {
  id: string;
  level: string;
  message: string;
  timestamp: string;
  fields?: Record<string, unknown>;
}

async function deployLog(id: string, body: Record<string, unknown> = {}): Promise<Line[]> {
  const page = await h.api.post(`/v1/projects/${id}/deploy_logs`).send({ limit: 1000, ...body });
  expect(page.status).toBe(200);
  return page.body.logs;
}

test("a runtime's pino lines keep their level, time and fields; plain lines are INFO from stdout, ERROR from stderr", async () => {
  const { id, revisionId } = await deployment("collected");
  const collector = new RuntimeLogCollector(new RevisionRepository(h.db), revisionId, [], logger);
  // Written a minute ago (a line's own time is kept, and lines are answered in time order).
  const time = Date.now() - 60_000;
  collector.line(
    "stdout",
    JSON.stringify({ level: 50, time, pid: 7, hostname: "h", name: "agent-runtime", run_id: "r1", msg: "run failed" }),
  );
  collector.line("stdout", JSON.stringify({ level: 40, time: time + 1, msg: "slow" }));
  collector.line("stdout", JSON.stringify({ level: 20, time: time + 2, msg: "detail" }));
  collector.line("stdout", "hello from console.log");
  collector.line("stderr", "Traceback (most recent call last):");
  collector.line("stdout", '{"not": "a log record"');
  await collector.close();

  const lines = await deployLog(id, { query: "" });
  const runtime = lines.filter((line) => !line.message.startsWith("status "));
  expect(runtime.map(({ level, message }) => [level, message])).toEqual([
    ["ERROR", "run failed"],
    ["WARNING", "slow"],
    ["DEBUG", "detail"],
    ["INFO", "hello from console.log"],
    ["ERROR", "Traceback (most recent call last):"],
    ["INFO", '{"not": "a log record"'],
  ]);
  expect(runtime[0]).toMatchObject({ timestamp: new Date(time).toISOString(), fields: { run_id: "r1" } });
  // The process's own fields are not the line's.
  expect(runtime[0].fields).not.toHaveProperty("pid");
  expect(runtime[0].fields).not.toHaveProperty("hostname");
  // Ids are stable across answers, and order and level filters apply.
  const again = await deployLog(id, { query: "" });
  expect(again.map((line) => line.id)).toEqual(lines.map((line) => line.id));
  expect((await deployLog(id, { level: "ERROR" })).map((line) => line.message)).toEqual([
    "run failed",
    "Traceback (most recent call last):",
  ]);
  expect((await deployLog(id, { level: "critical" })).map((line) => line.message)).toContain("run failed");
});

test("a deployment's secret values never reach its deploy log, in messages or fields", async () => {
  const { id, revisionId } = await deployment("masked");
  const secret = "sk-live-0123456789abcdef";
  const collector = new RuntimeLogCollector(new RevisionRepository(h.db), revisionId, [secret, "abc"], logger);
  collector.line("stdout", `connecting with ${secret}`);
  collector.line("stdout", "abc: short values are not masked");
  collector.line(
    "stdout",
    JSON.stringify({ level: 30, msg: "calling", headers: { authorization: `Bearer ${secret}` } }),
  );
  await collector.close();
  const stored = JSON.stringify(await deployLog(id));
  expect(stored).not.toContain(secret);
  expect(stored).toContain("connecting with ****");
  expect(stored).toContain("Bearer ****");
  // Values too short to be told from words are left alone.
  expect(stored).toContain("abc: short values are not masked");
});

test("a runtime writing faster than the database takes keeps at most a bounded backlog, and says what it dropped", async () => {
  const { id, revisionId } = await deployment("flood");
  const collector = new RuntimeLogCollector(new RevisionRepository(h.db), revisionId, [], logger);
  // Written at once: the first batch (200) goes to the database, the newest 5000 lines wait for
  // it, and the lines between are dropped, which a warning line says.
  for (let i = 0; i < 12_000; i += 1) collector.line("stdout", `line ${i}`);
  await collector.close();
  const count = await h.db.revisionLog.count({ where: { revisionId, message: { startsWith: "line " } } });
  expect(count).toBe(5200);
  const dropped = await deployLog(id, { query: "dropped" });
  expect(dropped.map(({ level, message }) => [level, message])).toEqual([
    ["WARNING", "6800 runtime log line(s) dropped: the runtime wrote faster than they could be stored"],
  ]);
  expect(await deployLog(id, { query: "line 11999" })).toHaveLength(1);
  expect(await deployLog(id, { query: "line 6999" })).toHaveLength(0);
});

test("the retention sweep deletes deploy lines past their age and past a deployment's size, and no build lines", async () => {
  const repository = new RevisionRepository(h.db);
  const a = await deployment("retained-a");
  const b = await deployment("retained-b");
  const now = new Date();
  const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
  await repository.appendLogs(a.revisionId, [
    { kind: "deploy", level: "info", message: "old a", timestamp: hoursAgo(30) },
    { kind: "build", level: "info", message: "old build a", timestamp: hoursAgo(30) },
    ...Array.from({ length: 150 }, (_, i) => ({
      kind: "deploy" as const,
      level: "info" as const,
      message: `recent a ${i}`,
      timestamp: new Date(hoursAgo(1).getTime() + i),
    })),
  ]);
  await repository.appendLogs(b.revisionId, [
    { kind: "deploy", level: "info", message: "recent b", timestamp: hoursAgo(2) },
  ]);
  const retention = new RuntimeLogRetention(h.db, { maxAgeHours: 24, maxLinesPerDeployment: 100 }, logger);
  const swept = await retention.sweep(now);
  expect(swept.expired).toBeGreaterThanOrEqual(1);

  // a keeps its newest 100 lines: its status lines (written just now) and its latest recent ones.
  const kept = (await deployLog(a.id)).map((line) => line.message);
  expect(kept).toHaveLength(100);
  expect(kept).not.toContain("old a");
  const recent = kept.filter((message) => message.startsWith("recent a "));
  expect(recent.at(-1)).toBe("recent a 149");
  expect(recent[0]).toBe(`recent a ${150 - recent.length}`);
  expect(kept.filter((message) => message.startsWith("status "))).toHaveLength(100 - recent.length);
  expect((await deployLog(b.id)).map((line) => line.message)).toContain("recent b");
  const build = await h.api.post(`/v1/projects/${a.id}/revisions/${a.revisionId}/build_logs`).send({});
  expect(build.body.logs.map((line: Line) => line.message)).toContain("old build a");
});
