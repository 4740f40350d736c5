// What a streamed run asks of PostgreSQL. In the embedded mode: the run's creation, which claims
// it, and its end, which stores the graph's checkpoints with it: two statements. On Redis the
// creation cannot claim (a worker anywhere takes the job), so three: creation, claim and end; the
// run's end still carries its checkpoints, since the executor does not wait for each event's
// append (an event waits for the checkpoints saved before it instead: see RunEventSender). The
// checkpointer's three saves of the echo agent do not each take one of their own. Every statement
// the runtime sends to its database is counted as the driver sends it (PostgreSQL's own counters
// reach its statistics views up to seconds later).
import pg from "pg";
import { collect, startTestRuntime } from "../support/harness";

const query = pg.Client.prototype.query;

/** Counts the statements sent to one database while `body` runs. */
async function counted(database: string, body: () => Promise<void>): Promise<string[]> {
  const sent: string[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args as [string | { text?: string } | undefined];
    if (this.database === database) sent.push(typeof first === "string" ? first : (first?.text ?? ""));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await body();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}

afterEach(() => {
  pg.Client.prototype.query = query;
});

const human = (content: string) => ({ messages: [{ role: "human", content }] });

/** Twenty streamed runs of the echo agent over four threads: what each sent, and how many runs. */
async function twentyRuns(options: { redis?: boolean }): Promise<{ sent: string[]; runs: number }> {
  const rt = await startTestRuntime({ workers: 2, ...options });
  try {
    const streamedRun = async (threadId: string, text: string) => {
      const chunks = await collect(
        rt.client.runs.stream(threadId, "agent", { input: human(text), streamMode: ["updates"] }),
      );
      expect(chunks.map((chunk) => chunk.event)).toContain("updates");
    };
    const threads = await Promise.all([1, 2, 3, 4].map(() => rt.client.threads.create()));
    // The graph's loading and the assistant's first read come with the first runs.
    for (const thread of threads) await streamedRun(thread.thread_id, "warm up");
    const runs = 20;
    const sent = await counted(new URL(rt.database.url).pathname.slice(1), async () => {
      for (let index = 0; index < runs; index += 1) await streamedRun(threads[index % 4].thread_id, `run ${index}`);
    });
    return { sent, runs };
  } finally {
    await rt.close();
  }
}

/** Each run's checkpoints went with its end, in the statement that also ends the run. */
function expectCheckpointsWithTheEnd(sent: string[], runs: number): void {
  const checkpoints = sent.filter((text) => /INSERT INTO "[^"]+"\.checkpoints /.test(text));
  expect(checkpoints.length).toBe(runs);
  expect(checkpoints.every((text) => /UPDATE runs SET status/.test(text))).toBe(true);
}

test("a streamed run of the echo agent is two statements in the embedded mode: its creation and its end", async () => {
  const { sent, runs } = await twentyRuns({});
  expectCheckpointsWithTheEnd(sent, runs);
  // Whatever the runtime's timers read meanwhile is counted too.
  expect(sent.length / runs).toBeGreaterThanOrEqual(2);
  expect(sent.length / runs).toBeLessThan(2.5);
});

test("on Redis it is three: its creation, its claim and its end, which stores its checkpoints", async () => {
  const { sent, runs } = await twentyRuns({ redis: true });
  expectCheckpointsWithTheEnd(sent, runs);
  expect(sent.filter((text) => /UPDATE runs r SET status/.test(text)).length).toBe(runs);
  expect(sent.length / runs).toBeGreaterThanOrEqual(3);
  expect(sent.length / runs).toBeLessThan(3.5);
});
