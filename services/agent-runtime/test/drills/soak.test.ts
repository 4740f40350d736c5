// The soak (`npm run soak`, bench/soak/), short: an API process and two worker processes on a
// private Redis, runs created at 10/s for about a minute with one fault of each kind (a worker
// SIGKILLed, Redis SIGKILLed and started again, the database's connections terminated), then a
// drain. Every run answered must be stored and end `success` with its three steps' output once:
// 0 lost, stuck, failed, duplicated. Memory is reported, not judged (a minute says nothing of a
// leak). The soak's own judges are checked on made-up data, so each can be seen to fail.
import { randomUUID } from "node:crypto";
import { Client as PgClient } from "pg";
import { createTestDatabase } from "@lgp/server-kit/src/testing";
import { defaultOptions } from "../../../../bench/soak/options";
import { outcome } from "../../../../bench/soak/outcome";
import { judge, RssRecorder } from "../../../../bench/soak/rss";
import { runSoak } from "../../../../bench/soak/soak";

test("a short soak with each fault once: no run lost, stuck, failed or duplicated", async () => {
  const lines: string[] = [];
  const report = await runSoak(
    {
      ...defaultOptions(),
      durationS: 58,
      rate: 10,
      faultEveryS: 18,
      redisDownMs: 2_000,
      drainS: 60,
      workersPerProcess: 10,
      // Memory is not judged: no process lives past a warm-up this long.
      warmupS: 60,
      progressEveryS: 20,
      // Runs a killed worker held come back after 3 s, not the production 30.
      runtimeEnv: { RUN_LOCK_MS: "3000" },
    },
    (line) => lines.push(line),
  );
  const memory = report.rss.map((v) => `${v.role} ${v.startMb.toFixed(0)} -> ${v.endMb.toFixed(0)} MB`).join(", ");
  process.stdout.write(`soak: ${lines.filter((line) => !line.includes("\n")).join("\n")}\nRSS: ${memory}\n`);
  if (report.problems.length) process.stdout.write(`${lines.join("\n").slice(-8_000)}\n`);

  expect(report.faults.map((f) => [f.kind, f.error])).toEqual([
    ["worker-kill", undefined],
    ["redis-restart", undefined],
    ["postgres-terminate", undefined],
  ]);
  expect(report.load.acknowledged).toBeGreaterThan(300);
  expect(report.outcome.stored).toBeGreaterThanOrEqual(report.load.acknowledged);
  const { lost, stuck, failed, duplicated } = report.outcome;
  expect({ lost, stuck, failed, duplicated }).toEqual({ lost: 0, stuck: 0, failed: 0, duplicated: 0 });
  // Nor did a process crash, or a fault fail.
  expect(report.problems).toEqual([]);
}, 150_000);

test("the soak's run checks count lost, stuck, failed and duplicated runs", async () => {
  const database = await createTestDatabase("agent-runtime");
  const db = new PgClient({ connectionString: database.url });
  await db.connect();
  try {
    const once = ["one", "two", "three"];
    const threads: Array<[visited: string[] | null, statuses: string[]]> = [
      [once, ["success"]], // fine
      [once, ["success", "success"]], // two runs on a thread made for one: duplicated
      [[...once, ...once], ["success"]], // a step's output kept twice: duplicated
      [["one"], ["error"]], // failed
      [["one", "two"], ["success"]], // ended `success` without its output: failed
      [null, ["running"]], // stuck
    ];
    const acknowledged = new Set([randomUUID()]); // answered, never stored: lost
    for (const [visited, statuses] of threads) {
      const threadId = randomUUID();
      await db.query(`INSERT INTO threads (thread_id, "values") VALUES ($1, $2)`, [
        threadId,
        visited && JSON.stringify({ visited }),
      ]);
      for (const status of statuses) {
        const runId = randomUUID();
        acknowledged.add(runId);
        await db.query("INSERT INTO runs (run_id, thread_id, assistant_id, status) VALUES ($1, $2, $3, $4)", [
          runId,
          threadId,
          randomUUID(),
          status,
        ]);
      }
    }
    const result = await outcome(database.url, acknowledged);
    expect(result).toMatchObject({ stored: 7, lost: 1, stuck: 1, failed: 2, duplicated: 2 });
  } finally {
    await db.end();
    await database.drop();
  }
});

test("the soak's memory judge: a steady climb grew, noise around a level is flat", () => {
  const recorder = new RssRecorder();
  recorder.series.push(
    // 100 MB, +1 MB a minute (60 MB/h), sampled every 5 s for 30 minutes.
    { role: "leaky", pid: 1, samples: Array.from({ length: 360 }, (_, i) => ({ t: i * 5, mb: 100 + i / 12 })) },
    // 200 MB, +-10 MB of noise.
    {
      role: "steady",
      pid: 2,
      samples: Array.from({ length: 360 }, (_, i) => ({ t: i * 5, mb: 200 + 10 * Math.sin(i) })),
    },
    // Started again half way: shown, not judged.
    { role: "restarted", pid: 3, samples: Array.from({ length: 180 }, (_, i) => ({ t: 900 + i * 5, mb: 50 })) },
  );
  const verdicts = judge(recorder, { warmupS: 300, slopeMbPerHour: 50, growth: 0.1 });
  expect(verdicts.map((v) => [v.role, v.flat])).toEqual([
    ["leaky", false],
    ["steady", true],
    ["restarted", undefined],
  ]);
  expect(verdicts[0].slopeMbPerHour).toBeCloseTo(60, 5);
});
