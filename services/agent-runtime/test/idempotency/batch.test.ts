// A batch of runs with an Idempotency-Key that fails: every run is checked before any is made, so a
// run that cannot be made (an unknown assistant) fails the batch with nothing made and the key free;
// a failure only the making reveals (here the auth handler refusing the second run) leaves the first
// run, named in the answer, and the key keeps that answer: a repeat makes no run twice.
import path from "node:path";
import pg from "pg";
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let db: pg.Client;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: 1, env: { LANGGRAPH_JSON: path.join(__dirname, "fixtures/langgraph.json") } });
  db = new pg.Client({ connectionString: rt.database.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await rt?.close();
});

const run = (tag: string, extra: Record<string, unknown> = {}) => ({
  assistant_id: "agent",
  input: { messages: [{ role: "human", content: "hi" }] },
  metadata: { tag, ...extra },
  on_completion: "keep",
});
const batch = async (key: string, body: unknown[]) => {
  const response = await fetch(`${rt.url}/runs/batch`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer batcher", "idempotency-key": key },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: await response.text(),
    replayed: response.headers.get("idempotent-replayed"),
  };
};
const runsTagged = async (tag: string) =>
  (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM runs WHERE metadata->>'tag' = $1", [tag])).rows[0]!.n;

test("a run that cannot be made fails the batch before any is made; the key stays free", async () => {
  const body = [run("unknown"), { ...run("unknown"), assistant_id: "no-such-assistant" }];
  const failed = await batch("batch-unknown", body);
  expect(failed.status).toBe(404);
  expect(await runsTagged("unknown")).toBe(0);
  // Fixed, with a new key (the body changed): both runs.
  const fixed = await batch("batch-unknown-fixed", [run("unknown"), run("unknown")]);
  expect(fixed.status).toBe(200);
  expect(await runsTagged("unknown")).toBe(2);
});

test("a batch that fails part-way keeps its key with the answer naming the runs made", async () => {
  const body = [run("partial"), run("partial", { refuse: true }), run("partial")];
  const first = await batch("batch-partial", body);
  expect(first.status).toBe(403);
  const detail = (JSON.parse(first.body) as { detail: string }).detail;
  const [made] = (await db.query<{ run_id: string }>("SELECT run_id FROM runs WHERE metadata->>'tag' = 'partial'"))
    .rows;
  expect(detail).toBe(
    `Run 2 of 3 failed: This run is refused. Runs 1 to 1 were created and are queued (${made!.run_id}); ` +
      "repeating this request with the same Idempotency-Key answers this again without making them twice; " +
      "send the others in a new request.",
  );
  const repeat = await batch("batch-partial", body);
  expect(repeat).toEqual({ ...first, replayed: "true" });
  expect(await runsTagged("partial")).toBe(1);
});
