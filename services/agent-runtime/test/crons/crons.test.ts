// Crons through the official client: the API (create, search, count, update, delete), ticks
// creating runs (thread and stateless) in the embedded scheduler, and BullMQ job schedulers with
// two worker processes never firing one tick twice.
import { Client1, createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { randomPrefix, startRuntime, startTestRuntime, type RunningRuntime } from "../support/harness";
import { Receiver } from "../webhooks/receiver";

type Message = { type: string; content: string };
const say = (content: string) => ({ messages: [{ role: "user", content }] });
const EVERY_SECOND = "* * * * * *";

/** Polls until `check` holds (the jest timeout bounds the wait). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The cron runs of a thread, with their tick. */
async function cronRuns(rt: RunningRuntime, threadId: string, cronId: string) {
  const runs = await rt.client.runs.list(threadId, { limit: 1000 });
  return runs
    .filter((run) => run.metadata?.cron_id === cronId)
    .map((run) => ({ run, tick: run.metadata!.cron_tick as string }));
}

describe("crons (embedded scheduler)", () => {
  let rt: Awaited<ReturnType<typeof startTestRuntime>>;
  let receiver: Receiver;
  beforeAll(async () => {
    rt = await startTestRuntime({ redis: false, workers: 2 });
    receiver = new Receiver();
    await receiver.start();
  });
  afterAll(async () => {
    await receiver?.stop();
    await rt?.close();
  });

  test("create, search, count, update and delete", async () => {
    const thread = await rt.client.threads.create();
    const cron = await rt.client.crons.createForThread(thread.thread_id, "agent", {
      schedule: "0 9 * * 1",
      input: say("weekly"),
      metadata: { team: "a" },
    });
    expect(cron).toMatchObject({
      thread_id: thread.thread_id,
      schedule: "0 9 * * 1",
      enabled: true,
      metadata: { team: "a" },
      payload: { input: say("weekly"), metadata: { team: "a" } },
    });
    const next = new Date(cron.next_run_date!);
    expect(next.getUTCDay()).toBe(1);
    expect(next.getUTCHours()).toBe(9);
    expect(next.getTime()).toBeGreaterThan(Date.now());

    const stateless = await rt.client.crons.create("agent", { schedule: "30 6 * * *", input: say("daily") });
    expect(stateless).toMatchObject({ thread_id: null, on_run_completed: "delete", assistant_id: cron.assistant_id });

    const forThread = await rt.client.crons.search({ threadId: thread.thread_id });
    expect(forThread.map((found) => found.cron_id)).toEqual([cron.cron_id]);
    const forGraph = await rt.client.crons.search({ assistantId: "agent", sortBy: "created_at", sortOrder: "asc" });
    expect(forGraph.map((found) => found.cron_id)).toEqual([cron.cron_id, stateless.cron_id]);
    const selected = await rt.client.crons.search({ threadId: thread.thread_id, select: ["cron_id", "schedule"] });
    expect(selected).toEqual([{ cron_id: cron.cron_id, schedule: "0 9 * * 1" }]);
    expect(await rt.client.crons.count({ assistantId: "agent" })).toBe(2);
    expect(await rt.client.crons.count({ threadId: thread.thread_id })).toBe(1);

    const disabled = await rt.client.crons.update(cron.cron_id, { enabled: false, schedule: "0 10 * * 1" });
    expect(disabled).toMatchObject({ enabled: false, schedule: "0 10 * * 1", next_run_date: null });
    expect((await rt.client.crons.search({ enabled: false })).map((found) => found.cron_id)).toEqual([cron.cron_id]);

    await rt.client.crons.delete(cron.cron_id);
    await rt.client.crons.delete(stateless.cron_id);
    await expect(rt.client.crons.delete(cron.cron_id)).rejects.toThrow(/HTTP 404/);
    expect(await rt.client.crons.count()).toBe(0);
  });

  test("bad schedules are 422, unknown threads, assistants and crons 404", async () => {
    const thread = await rt.client.threads.create();
    await expect(rt.client.crons.createForThread(thread.thread_id, "agent", { schedule: "every day" })).rejects.toThrow(
      /HTTP 422/,
    );
    await expect(rt.client.crons.create("agent", { schedule: "61 * * * *" })).rejects.toThrow(/HTTP 422/);
    await expect(
      rt.client.crons.createForThread("00000000-0000-4000-8000-000000000000", "agent", { schedule: "* * * * *" }),
    ).rejects.toThrow(/HTTP 404/);
    await expect(rt.client.crons.create("no-such-graph", { schedule: "* * * * *" })).rejects.toThrow(/HTTP 404/);
    await expect(rt.client.crons.update("00000000-0000-4000-8000-000000000000", { enabled: false })).rejects.toThrow(
      /HTTP 404/,
    );
  });

  test("get a cron; 404 once it is gone", async () => {
    const cron = await rt.client.crons.create("agent", { schedule: "0 0 1 1 *" });
    const response = await fetch(`${rt.url}/runs/crons/${cron.cron_id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(cron);
    await rt.client.crons.delete(cron.cron_id);
    expect((await fetch(`${rt.url}/runs/crons/${cron.cron_id}`)).status).toBe(404);
  });

  test("the schedule is read in the cron's timezone (SDK 1.x sends one); an unknown zone is 422", async () => {
    // SDK 2.0.0 has no timezone field: the newest 1.x line sends it.
    const client = new Client1({ apiUrl: rt.url, callerOptions: { maxRetries: 0 } });
    const tokyo = await client.crons.create("agent", { schedule: "0 9 * * *", timezone: "Asia/Tokyo" });
    expect(tokyo).toMatchObject({ timezone: "Asia/Tokyo" });
    expect(new Date(tokyo.next_run_date!).getUTCHours()).toBe(0); // 09:00 in Tokyo (UTC+9)
    const moved = await client.crons.update(tokyo.cron_id, { timezone: "Asia/Kolkata" });
    expect(moved.timezone).toBe("Asia/Kolkata");
    expect(new Date(moved.next_run_date!).toISOString()).toMatch(/T03:30:00/); // 09:00 in Kolkata (UTC+5:30)
    await expect(client.crons.create("agent", { schedule: "0 9 * * *", timezone: "Mars/Olympus" })).rejects.toThrow(
      /HTTP 422/,
    );
    await expect(client.crons.update(tokyo.cron_id, { timezone: "UTC+99" })).rejects.toThrow(/HTTP 422/);
    await client.crons.delete(tokyo.cron_id);

    // Ticks too: every second of the hour it is (3 s from now) in Kolkata, an hour UTC never is then.
    const hour = Number(
      new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Kolkata", hour: "2-digit", hourCycle: "h23" }).format(
        Date.now() + 3000,
      ),
    );
    const thread = await client.threads.create();
    const ticking = await client.crons.createForThread(thread.thread_id, "agent", {
      schedule: `* * ${hour} * * *`,
      timezone: "Asia/Kolkata",
      input: say("kolkata"),
    });
    await eventually(async () => (await cronRuns(rt, thread.thread_id, ticking.cron_id)).length >= 1);
    await client.crons.delete(ticking.cron_id);
  });

  test("deleting a thread deletes its crons", async () => {
    const thread = await rt.client.threads.create();
    const cron = await rt.client.crons.createForThread(thread.thread_id, "agent", { schedule: "0 0 1 1 *" });
    await rt.client.threads.delete(thread.thread_id);
    expect(await rt.client.crons.search({ threadId: thread.thread_id })).toEqual([]);
    await expect(rt.client.crons.delete(cron.cron_id)).rejects.toThrow(/HTTP 404/);
  });

  test("a thread cron creates a run on every tick", async () => {
    const thread = await rt.client.threads.create();
    const cron = await rt.client.crons.createForThread(thread.thread_id, "agent", {
      schedule: EVERY_SECOND,
      input: say("tick"),
    });
    await eventually(async () => (await cronRuns(rt, thread.thread_id, cron.cron_id)).length >= 2);
    await rt.client.crons.delete(cron.cron_id);
    const runs = await cronRuns(rt, thread.thread_id, cron.cron_id);
    expect(new Set(runs.map((found) => found.tick)).size).toBe(runs.length);
    const values = (await rt.client.runs.join(thread.thread_id, runs[0].run.run_id)) as { messages: Message[] };
    expect(values.messages.filter((message) => message.content === "echo: tick").length).toBeGreaterThanOrEqual(1);
  });

  test("a stateless cron runs on a new thread each tick, deleted afterwards unless kept", async () => {
    const kept = await rt.client.crons.create("agent", {
      schedule: EVERY_SECOND,
      input: say("kept"),
      webhook: receiver.url,
      onRunCompleted: "keep",
    });
    await receiver.waitFor(1);
    await rt.client.crons.delete(kept.cron_id);
    const keptPayload = receiver.bodies[0] as { thread_id: string; status: string; metadata: Record<string, unknown> };
    expect(keptPayload).toMatchObject({
      status: "success",
      metadata: expect.objectContaining({ cron_id: kept.cron_id }),
    });
    const thread = await rt.client.threads.get<{ messages: Message[] }>(keptPayload.thread_id);
    expect(thread.values.messages.at(-1)?.content).toBe("echo: kept");

    const count = receiver.bodies.length;
    const dropped = await rt.client.crons.create("agent", {
      schedule: EVERY_SECOND,
      input: say("gone"),
      webhook: receiver.url,
    });
    await receiver.waitFor(count + 1);
    await rt.client.crons.delete(dropped.cron_id);
    const droppedPayload = receiver.bodies.find(
      (body) => (body as { metadata: Record<string, unknown> }).metadata.cron_id === dropped.cron_id,
    ) as { thread_id: string; status: string };
    expect(droppedPayload.status).toBe("success");
    await eventually(() =>
      rt.client.threads.get(droppedPayload.thread_id).then(
        () => false,
        (error: Error) => /HTTP 404/.test(error.message),
      ),
    );
  });
});

describe("crons on BullMQ job schedulers with two worker processes", () => {
  let database: TestDatabase;
  let first: RunningRuntime;
  let second: RunningRuntime | undefined;
  const prefix = randomPrefix();
  beforeAll(async () => {
    database = await createTestDatabase("agent-runtime");
    first = await startRuntime(database.url, { redis: true, prefix, workers: 1 });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await database?.drop();
  });

  test("every tick fires once: one run per tick, never two", async () => {
    const thread = await first.client.threads.create();
    const cron = await first.client.crons.createForThread(thread.thread_id, "agent", {
      schedule: EVERY_SECOND,
      input: say("once"),
    });
    // A second process of the same deployment (same database, same Redis prefix) starts with the
    // cron already there: it rebuilds the schedules and listens for ticks too.
    second = await startRuntime(database.url, { redis: true, prefix, workers: 1 });
    await eventually(async () => (await cronRuns(second!, thread.thread_id, cron.cron_id)).length >= 4);
    await second.client.crons.delete(cron.cron_id);
    const runs = await cronRuns(first, thread.thread_id, cron.cron_id);
    const ticks = runs.map((found) => found.tick);
    expect(new Set(ticks).size).toBe(ticks.length);
    // Ticks are whole seconds of the schedule.
    for (const tick of ticks) expect(new Date(tick).getUTCMilliseconds()).toBe(0);
    expect(await first.client.crons.search({ threadId: thread.thread_id })).toEqual([]);
  });
});
