// Event streams carry `: heartbeat` comments while a run is quiet (STREAM_HEARTBEAT_MS), which
// the official client ignores as data and uses to arm its reconnect watchdog.
import { collect, startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startTestRuntime({ workers: 1, env: { STREAM_HEARTBEAT_MS: "100" } });
});
afterAll(async () => {
  await rt?.close();
});

test("a quiet run's stream carries heartbeat comments; the client sees only events", async () => {
  const thread = await rt.client.threads.create();
  const response = await fetch(`${rt.url}/threads/${thread.thread_id}/runs/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ assistant_id: "steps", input: {}, context: { delay_ms: 150 }, stream_mode: ["updates"] }),
  });
  const text = await response.text();
  expect(text).toContain(": heartbeat\n");
  expect(text.match(/^event: updates$/gm)).toHaveLength(3);

  const events = await collect(
    rt.client.runs.stream(thread.thread_id, "steps", {
      input: {},
      context: { delay_ms: 150 },
      streamMode: ["updates"],
    }),
  );
  expect(events.map((event) => event.event)).toEqual(["metadata", "updates", "updates", "updates"]);
});
