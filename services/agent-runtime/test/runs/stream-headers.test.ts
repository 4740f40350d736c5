// An event stream's headers leave with its first events, or on their own at once when it has none
// yet: a client waiting for the response of a quiet stream gets it before the first heartbeat.
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startTestRuntime({ workers: 1, env: { STREAM_HEARTBEAT_MS: "60000" } });
});
afterAll(async () => {
  await rt?.close();
});

test("a stream with nothing to send yet answers its headers at once, not with its first heartbeat", async () => {
  const thread = await rt.client.threads.create();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("no headers within 5 s")), 5_000);
  try {
    const response = await fetch(`${rt.url}/threads/${thread.thread_id}/stream`, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
});

test("a run's stream starts with its metadata event and ends with the run", async () => {
  const thread = await rt.client.threads.create();
  const response = await fetch(`${rt.url}/threads/${thread.thread_id}/runs/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ assistant_id: "agent", input: { messages: [{ role: "user", content: "hi" }] } }),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text.startsWith("event: metadata\n")).toBe(true);
  expect(text).toContain("event: values\n");
});
