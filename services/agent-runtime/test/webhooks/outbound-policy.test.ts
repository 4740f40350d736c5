// Webhooks may not make the runtime call inside its machine or network (cloud metadata, admin
// ports on loopback, the private network) unless OUTBOUND_ALLOW says so: a literal address is a
// 422 naming the field when the run or cron is created; a name resolving there is refused when
// the webhook is delivered, logged and counted as a failed delivery, and nothing is sent.
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { startRuntime, type RunningRuntime } from "../support/harness";
import { Receiver } from "./receiver";

let database: TestDatabase;
let rt: RunningRuntime;
let receiver: Receiver;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  rt = await startRuntime(database.url, { env: { OUTBOUND_ALLOW: "", WEBHOOK_RETRY_DELAY_MS: "20" } });
  receiver = new Receiver();
  await receiver.start();
});
afterAll(async () => {
  await receiver?.stop();
  await rt?.close();
  await database?.drop();
});

const post = (path: string, body: unknown) =>
  fetch(`${rt.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const deliveries = async (result: string) => {
  const text = await (await fetch(`${rt.url}/metrics`)).text();
  const line = text
    .split("\n")
    .find(
      (candidate) => candidate.startsWith("lgp_webhook_deliveries_total{") && candidate.includes(`result="${result}"`),
    );
  return line ? Number(line.split(" ").pop()) : 0;
};

test.each([
  ["cloud metadata", "http://169.254.169.254/latest/meta-data/"],
  ["loopback", "http://127.0.0.1:6379/"],
  ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]:8080/"],
  ["the private network", "http://10.0.0.5/hook"],
])("a run whose webhook names %s is refused with a 422 naming the field", async (_what, webhook) => {
  const thread = (await (await post("/threads", {})).json()) as { thread_id: string };
  const answer = await post(`/threads/${thread.thread_id}/runs`, { assistant_id: "agent", input: {}, webhook });
  expect(answer.status).toBe(422);
  const body = (await answer.json()) as { detail: unknown };
  expect(JSON.stringify(body)).toMatch(/webhook/);
  expect(JSON.stringify(body)).toMatch(/may not reach/);
  // Nothing was created.
  expect(await (await fetch(`${rt.url}/threads/${thread.thread_id}/runs`)).json()).toEqual([]);
});

test("stateless runs, batches and crons are judged the same way", async () => {
  const webhook = "http://169.254.169.254/";
  expect((await post("/runs/wait", { assistant_id: "agent", input: {}, webhook })).status).toBe(422);
  const batch = await post("/runs/batch", [
    { assistant_id: "agent", input: {} },
    { assistant_id: "agent", input: {}, webhook },
  ]);
  expect(batch.status).toBe(422);
  expect(JSON.stringify(await batch.json())).toMatch(/1.*webhook|webhook.*1/);
  expect((await post("/runs/crons", { assistant_id: "agent", schedule: "0 0 * * *", webhook })).status).toBe(422);
});

test("a name that resolves to loopback is refused at delivery: counted as failed, nothing sent", async () => {
  const failedBefore = await deliveries("failed");
  const port = new URL(receiver.url).port;
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "agent", {
    input: { messages: [{ role: "user", content: "hi" }] },
    webhook: `http://localhost:${port}/hook`,
  });
  await rt.client.runs.join(thread.thread_id, run.run_id);
  const deadline = Date.now() + 10_000;
  while ((await deliveries("failed")) === failedBefore && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await deliveries("failed")).toBe(failedBefore + 1);
  expect(receiver.bodies).toEqual([]);
});
