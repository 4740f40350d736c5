// An event stream's headers leave with its first events, or on their own at once when it has none
// yet: a client waiting for the response of a quiet stream gets it before the first heartbeat.
import net from "node:net";
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

test("a finished run's stream, written at once, ends on the wire after all of its events", async () => {
  // Every event of a finished run is ready as its stream starts: written in one corked batch, then
  // ended. (On Node 22 and later, ending a corked response sent its last chunk before the batch.)
  const thread = await rt.client.threads.create();
  const run = await rt.client.runs.create(thread.thread_id, "agent", {
    input: { messages: [{ role: "user", content: "all at once" }] },
    streamMode: ["values", "updates"],
  });
  await rt.client.runs.join(thread.thread_id, run.run_id);
  const wire = await rawGet(`/threads/${thread.thread_id}/runs/${run.run_id}/stream`);
  const body = wire.slice(wire.indexOf("\r\n\r\n") + 4);
  expect(body.endsWith("0\r\n\r\n")).toBe(true);
  expect(body.indexOf("0\r\n\r\n")).toBe(body.length - 5);
  const events = [...body.matchAll(/^event: (\S+)$/gm)].map((match) => match[1]);
  expect(events).toEqual(["metadata", "values", "updates", "values"]);
});

/**
 * What a GET answers, as it came over the socket (chunk framing included), up to 200 ms after its
 * last chunk (an event stream's connection stays open for the next request).
 */
function rawGet(path: string): Promise<string> {
  const { hostname, port } = new URL(rt.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`),
    );
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (data: string) => {
      received += data;
      if (received.includes("\r\n0\r\n\r\n"))
        setTimeout(() => {
          socket.destroy();
          resolve(received);
        }, 200);
    });
    socket.on("error", reject);
  });
}
