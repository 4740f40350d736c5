// A run whose last checkpoint cannot be stored (PostgreSQL refuses it: not a connection fault, so
// not waited out) failed: it ends as `error`, its stream says so with an `error` event, and its
// thread keeps the state of the checkpoints that were stored (with the writes of their tasks that
// were). The fault here is PostgreSQL's own: a trigger refuses a listed thread's step-1
// checkpoint, the last one of both graphs below (the echo agent's end, and the approval graph's
// checkpoint before it stops for approval).
import pg from "pg";
import { CHECKPOINT_SCHEMA } from "../../src/threads/checkpoints";
import { collect, startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let pool: pg.Pool;

beforeAll(async () => {
  rt = await startTestRuntime({ workers: 2 });
  pool = new pg.Pool({ connectionString: rt.database.url, max: 2 });
  await pool.query(`
    CREATE TABLE refused_threads (thread_id text PRIMARY KEY);
    CREATE FUNCTION refuse_step_1() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.metadata->>'step' = '1' AND EXISTS (SELECT 1 FROM refused_threads r WHERE r.thread_id = NEW.thread_id::text) THEN
        RAISE EXCEPTION 'the disk refused this checkpoint';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER refuse_step_1 BEFORE INSERT ON "${CHECKPOINT_SCHEMA}".checkpoints
      FOR EACH ROW EXECUTE FUNCTION refuse_step_1();`);
});

afterAll(async () => {
  await pool?.end();
  await rt?.close();
});

const human = (content: string) => ({ messages: [{ role: "human", content }] });

async function refusedThread(): Promise<string> {
  const { thread_id } = await rt.client.threads.create();
  await pool.query("INSERT INTO refused_threads VALUES ($1)", [thread_id]);
  return thread_id;
}

async function steps(threadId: string): Promise<number[]> {
  const history = await rt.client.threads.getHistory(threadId, { limit: 10 });
  return history.map((state) => state.metadata?.step as number);
}

test("a run whose last checkpoint is refused ends as error; its thread keeps the checkpoints stored and runs on", async () => {
  const threadId = await refusedThread();
  const chunks = await collect(
    rt.client.runs.stream(threadId, "agent", { input: human("hello"), streamMode: ["values"] }),
  );
  const error = chunks.find((chunk) => chunk.event === "error");
  expect(error?.data).toMatchObject({ message: expect.stringContaining("the disk refused this checkpoint") });
  const [run] = await rt.client.runs.list(threadId);
  expect(run.status).toBe("error");

  const thread = await rt.client.threads.get(threadId);
  expect(thread.status).toBe("error");
  // Steps -1 and 0 were stored; step 1 was not. The agent's answer, its task's write, was stored
  // without it (as step 0's pending write): the state shows it.
  expect(await steps(threadId)).toEqual([0, -1]);
  const state = await rt.client.threads.getState<{ messages: { content: string }[] }>(threadId);
  expect(state.values.messages.map((message) => message.content)).toEqual(["hello", "echo: hello"]);
  // The thread's values are its state's, not those from before the run (a message the reducer gives
  // an id as it applies the pending write has a new one at each read).
  const contents = (values: unknown) => (values as typeof state.values).messages.map((message) => message.content);
  expect(contents(thread.values)).toEqual(contents(state.values));

  // Once the fault is gone, the thread takes runs again, from what was stored.
  await pool.query("DELETE FROM refused_threads WHERE thread_id = $1", [threadId]);
  const next = await rt.client.runs.wait(threadId, "agent", { input: human("again") });
  expect((next as { messages: { content: string }[] }).messages.map((message) => message.content)).toEqual([
    "hello",
    "again",
    "echo: again",
  ]);
  expect((await rt.client.threads.get(threadId)).status).toBe("idle");
});

test("a run stopping for approval whose checkpoint is refused ends as error, not interrupted", async () => {
  const threadId = await refusedThread();
  const chunks = await collect(
    rt.client.runs.stream(threadId, "approval", { input: human("ship it"), streamMode: ["updates"] }),
  );
  expect(chunks.map((chunk) => chunk.event)).toContain("error");
  const [run] = await rt.client.runs.list(threadId);
  expect(run.status).toBe("error");
  const thread = await rt.client.threads.get(threadId);
  expect(thread.status).toBe("error");
  expect(thread.interrupts).toEqual({});
  // Step 1 was never stored; the proposal was, as the writes of step 0's task (stored before it).
  expect(await steps(threadId)).toEqual([0, -1]);
  const state = await rt.client.threads.getState<{ draft?: string; steps: string[] }>(threadId);
  expect(state.values).toMatchObject({ draft: "proposal: ship it", steps: ["propose"] });
  expect(thread.values).toEqual(state.values);

  // Resumed once the fault is gone: the proposal is not made again, and the review waits for approval.
  await pool.query("DELETE FROM refused_threads WHERE thread_id = $1", [threadId]);
  await rt.client.runs.wait(threadId, "approval", { input: null });
  const resumed = await rt.client.threads.get<{ steps: string[] }>(threadId);
  expect(resumed.status).toBe("interrupted");
  expect(resumed.values).toMatchObject({ steps: ["propose"] });
  expect(Object.values(resumed.interrupts).flat()).toMatchObject([
    { value: { question: "Approve this draft?", draft: "proposal: ship it" } },
  ]);
});
