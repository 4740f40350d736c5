// `npm run soak`: the agent runtime in its production shape for 30 minutes (SOAK_MINUTES or
// --minutes) at half the bench's throughput (SOAK_RATE or --rate, runs/s), a fault every minute in
// turn; prints a progress line every minute and the figures at the end; exits 1 when a run was
// lost, stuck, failed or duplicated, or a process's memory grew. Options: bench/soak/options.ts.
import { format, printTable } from "../harness";
import { FAULT_KINDS, parseOptions } from "./options";
import { elapsed, runSoak, type SoakReport } from "./soak";

function print(report: SoakReport): void {
  const { load, outcome, options } = report;
  console.log(
    `\nSoak of ${elapsed(report.loadS)} at ${options.rate} runs/s asked (${format(load.sent / report.loadS)} sent), ` +
      `drained in ${format(report.drainS, 0)} s:`,
  );
  const refused = Object.entries(load.refused).map(([status, n]) => `${n} × ${status}`);
  printTable(
    ["runs", "count"],
    [
      ["creates sent", String(load.sent)],
      ["answered with a run", String(load.acknowledged)],
      ["refused", refused.join(", ") || "0"],
      ["not sent (server behind)", String(load.behind)],
      ["stored in the database", String(outcome.stored)],
      [
        "by status",
        Object.entries(outcome.byStatus)
          .map(([s, n]) => `${s} ${n}`)
          .join(", "),
      ],
      ["streamed (of them incomplete)", `${load.streamed} (${load.streamsIncomplete})`],
      ["lost", String(outcome.lost)],
      ["stuck", String(outcome.stuck)],
      ["failed", String(outcome.failed)],
      ["duplicated", String(outcome.duplicated)],
    ],
  );
  console.log("");
  printTable(
    ["fault", "count", "failed"],
    FAULT_KINDS.map((kind) => {
      const done = report.faults.filter((f) => f.kind === kind);
      return [kind, String(done.length), String(done.filter((f) => f.error).length)];
    }),
  );
  console.log(
    `\nRSS (MB) of each process; judged after a ${format(options.warmupS, 0)} s warm-up for those that lived through ` +
      `the soak: flat when the slope is <= ${options.rssSlopeMbPerHour} MB/h and the last quarter's median <= ` +
      `the second's + ${format(options.rssGrowth * 100, 0)}%:`,
  );
  printTable(
    ["process", "lives", "start", "end", "slope MB/h", "Q2 median", "Q4 median", "verdict"],
    report.rss.map((v) => [
      v.role,
      String(v.lives),
      format(v.startMb),
      format(v.endMb),
      format(v.slopeMbPerHour),
      format(v.q2Mb),
      format(v.q4Mb),
      v.flat === undefined ? "not judged" : v.flat ? "flat" : "GREW",
    ]),
  );
  console.log(
    report.problems.length
      ? `\nFAILED: ${report.problems.join("; ")}`
      : "\nOK: 0 lost, stuck, failed or duplicated; memory flat",
  );
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  // The first Ctrl-C ends the load early and still drains, checks and prints; a second one exits.
  const stop = new AbortController();
  process.on("SIGINT", () => {
    if (stop.signal.aborted) process.exit(130);
    console.log("stopping the load: draining, then the figures (Ctrl-C again to quit at once)");
    stop.abort();
  });
  const report = await runSoak(options, console.log, stop.signal);
  print(report);
  process.exit(report.problems.length ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
