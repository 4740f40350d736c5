// What a streamed run asks of PostgreSQL in the embedded mode: the run's creation, which claims
// it, and its end, which stores the graph's checkpoints with it: two statements. The
// checkpointer's three saves of the echo agent do not each take one of their own. Every statement
// the runtime sends to its database is counted as the driver sends it (PostgreSQL's own counters
// reach its statistics views up to seconds later).
import pg from "pg";
import { collect, startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
const sent: string[] = [];
const query = pg.Client.prototype.query;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: 2 });
  const database = new URL(rt.database.url).pathname.slice(1);
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args as [string | { text?: string } | undefined];
    if (this.database === database) sent.push(typeof first === "string" ? first : (first?.text ?? ""));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
});

afterAll(async () => {
  pg.Client.prototype.query = query;
  await rt?.close();
});

const human = (content: string) => ({ messages: [{ role: "human", content }] });

async function streamedRun(threadId: string, text: string): Promise<void> {
  const chunks = await collect(
    rt.client.runs.stream(threadId, "agent", { input: human(text), streamMode: ["updates"] }),
  );
  expect(chunks.map((chunk) => chunk.event)).toContain("updates");
}

test("a streamed run of the echo agent is two statements: its creation and its end", async () => {
  const threads = await Promise.all([1, 2, 3, 4].map(() => rt.client.threads.create()));
  // The graph's loading and the assistant's first read come with the first runs.
  for (const thread of threads) await streamedRun(thread.thread_id, "warm up");
  sent.length = 0;
  const runs = 20;
  for (let index = 0; index < runs; index += 1) await streamedRun(threads[index % 4].thread_id, `run ${index}`);
  const checkpoints = sent.filter((text) => /INSERT INTO "[^"]+"\.checkpoints /.test(text));
  // Each run's checkpoints went with its end, in the statement that also ends the run.
  expect(checkpoints.length).toBe(runs);
  expect(checkpoints.every((text) => /UPDATE runs SET status/.test(text))).toBe(true);
  // Whatever the runtime's timers read meanwhile is counted too.
  expect(sent.length / runs).toBeGreaterThanOrEqual(2);
  expect(sent.length / runs).toBeLessThan(2.5);
});
