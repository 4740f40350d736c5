// Run control: cancel (interrupt / rollback / pending), multitask strategies, joining a thread's
// active run, and a dropped SSE connection resumed by the official client with Last-Event-ID.
import { collect, startTestRuntime } from "../support/harness";

type Steps = { count: number; visited: string[] };
type Event = { event: string; data: unknown; id?: string };

let rt: Awaited<ReturnType<typeof startTestRuntime>>;

const slow = (delay_ms: number) => ({ input: {}, context: { delay_ms } });

async function waitForStatus(threadId: string, runId: string, status: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if ((await rt.client.runs.get(threadId, runId)).status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} never became ${status}`);
}

/**
 * The run-control tests, for one queue mode (in-process, on the main thread or on worker threads,
 * or BullMQ + Redis with its control bus).
 */
export function describeRunControl(mode: "memory" | "threads" | "redis"): void {
  beforeAll(async () => {
    rt = await startTestRuntime({
      workers: 3,
      redis: mode === "redis",
      env: mode === "threads" ? { WORKER_THREADS: "2" } : {},
    });
  });
  afterAll(async () => {
    await rt?.close();
  });

  describe(`run control (${mode} queue)`, () => {
    test("custom stream events from the graph's writer", async () => {
      const thread = await rt.client.threads.create();
      const events = (await collect(
        rt.client.runs.stream(thread.thread_id, "steps", { input: {}, streamMode: ["custom"] }),
      )) as Event[];
      expect(events.filter((event) => event.event === "custom").map((event) => event.data)).toEqual([
        { step: "one", status: "started" },
        { step: "two", status: "started" },
        { step: "three", status: "started" },
      ]);
    });

    test("cancel with interrupt stops a running run and keeps its progress (wait: 204)", async () => {
      const thread = await rt.client.threads.create();
      const run = await rt.client.runs.create(thread.thread_id, "steps", slow(400));
      await waitForStatus(thread.thread_id, run.run_id, "running");
      await new Promise((resolve) => setTimeout(resolve, 500)); // inside step two
      const response = await fetch(
        `${rt.url}/threads/${thread.thread_id}/runs/${run.run_id}/cancel?wait=1&action=interrupt`,
        {
          method: "POST",
        },
      );
      expect(response.status).toBe(204);
      expect((await rt.client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
      const state = await rt.client.threads.getState<Steps>(thread.thread_id);
      expect(state.values.count).toBeGreaterThanOrEqual(1);
      expect(state.values.count).toBeLessThan(3);
      expect((await rt.client.threads.get(thread.thread_id)).status).toBe("idle");
    });

    test("cancel with rollback removes the run and what it wrote", async () => {
      const thread = await rt.client.threads.create();
      await rt.client.runs.wait(thread.thread_id, "steps", { input: {} });
      const run = await rt.client.runs.create(thread.thread_id, "steps", slow(300));
      await waitForStatus(thread.thread_id, run.run_id, "running");
      await new Promise((resolve) => setTimeout(resolve, 400));
      await rt.client.runs.cancel(thread.thread_id, run.run_id, true, "rollback");
      await expect(rt.client.runs.get(thread.thread_id, run.run_id)).rejects.toThrow(/HTTP 404/);
      const state = await rt.client.threads.getState<Steps>(thread.thread_id);
      expect(state.values.count).toBe(3);
      const history = await rt.client.threads.getHistory(thread.thread_id, { metadata: { run_id: run.run_id } });
      expect(history).toEqual([]);
    });

    test("a run cancelled while pending never starts; the one ahead of it completes", async () => {
      const thread = await rt.client.threads.create();
      const first = await rt.client.runs.create(thread.thread_id, "steps", slow(100));
      const second = await rt.client.runs.create(thread.thread_id, "steps", slow(0));
      expect((await rt.client.runs.get(thread.thread_id, second.run_id)).status).toBe("pending");
      const response = await fetch(`${rt.url}/threads/${thread.thread_id}/runs/${second.run_id}/cancel`, {
        method: "POST",
      });
      expect(response.status).toBe(202);
      await rt.client.runs.join(thread.thread_id, first.run_id);
      expect((await rt.client.runs.get(thread.thread_id, first.run_id)).status).toBe("success");
      expect((await rt.client.runs.get(thread.thread_id, second.run_id)).status).toBe("interrupted");
      expect((await rt.client.threads.getState<Steps>(thread.thread_id)).values.count).toBe(3);
      expect((await rt.client.threads.get(thread.thread_id)).status).toBe("idle");
    });

    test("multitask: reject answers 409 while busy; interrupt and rollback replace the active run", async () => {
      const thread = await rt.client.threads.create();
      const active = await rt.client.runs.create(thread.thread_id, "steps", slow(300));
      await waitForStatus(thread.thread_id, active.run_id, "running");
      await expect(
        rt.client.runs.create(thread.thread_id, "steps", { ...slow(0), multitaskStrategy: "reject" }),
      ).rejects.toThrow(/HTTP 409.*busy/);

      const interrupting = await rt.client.runs.create(thread.thread_id, "steps", {
        ...slow(0),
        multitaskStrategy: "interrupt",
      });
      await rt.client.runs.join(thread.thread_id, interrupting.run_id);
      expect((await rt.client.runs.get(thread.thread_id, active.run_id)).status).toBe("interrupted");
      expect((await rt.client.runs.get(thread.thread_id, interrupting.run_id)).status).toBe("success");

      const doomed = await rt.client.runs.create(thread.thread_id, "steps", slow(300));
      await waitForStatus(thread.thread_id, doomed.run_id, "running");
      const before = (await rt.client.threads.getState<Steps>(thread.thread_id)).values.count;
      const rolling = await rt.client.runs.create(thread.thread_id, "steps", {
        ...slow(0),
        multitaskStrategy: "rollback",
      });
      await rt.client.runs.join(thread.thread_id, rolling.run_id);
      await expect(rt.client.runs.get(thread.thread_id, doomed.run_id)).rejects.toThrow(/HTTP 404/);
      expect((await rt.client.threads.getState<Steps>(thread.thread_id)).values.count).toBe(before + 3);
    });

    test("on_disconnect cancel: a client that goes away cancels its run; continue (default) lets it finish", async () => {
      const thread = await rt.client.threads.create();
      const controller = new AbortController();
      let runId = "";
      for await (const part of rt.client.runs.stream(thread.thread_id, "steps", {
        ...slow(300),
        onDisconnect: "cancel",
        signal: controller.signal,
      })) {
        if (part.event === "metadata") {
          runId = (part.data as { run_id: string }).run_id;
          controller.abort();
          break;
        }
      }
      await waitForStatus(thread.thread_id, runId, "interrupted");
      expect((await rt.client.threads.getState<Steps>(thread.thread_id)).values.count ?? 0).toBeLessThan(3);

      const other = await rt.client.threads.create();
      const second = new AbortController();
      let secondId = "";
      for await (const part of rt.client.runs.stream(other.thread_id, "steps", {
        ...slow(50),
        signal: second.signal,
      })) {
        if (part.event === "metadata") {
          secondId = (part.data as { run_id: string }).run_id;
          second.abort();
          break;
        }
      }
      await rt.client.runs.join(other.thread_id, secondId);
      expect((await rt.client.runs.get(other.thread_id, secondId)).status).toBe("success");
    });

    test("deleting a thread stops its active run", async () => {
      const thread = await rt.client.threads.create();
      const run = await rt.client.runs.create(thread.thread_id, "steps", slow(300));
      await waitForStatus(thread.thread_id, run.run_id, "running");
      const stream = collect(rt.client.runs.joinStream(thread.thread_id, run.run_id)) as Promise<Event[]>;
      await rt.client.threads.delete(thread.thread_id);
      const events = await stream;
      // The stream ends without the run having gone through its three steps.
      expect(events.filter((event) => event.event === "updates").length).toBeLessThan(3);
      await expect(rt.client.threads.get(thread.thread_id)).rejects.toThrow(/HTTP 404/);
    });

    test("GET /threads/{id}/stream joins the thread's active run", async () => {
      const thread = await rt.client.threads.create();
      const run = await rt.client.runs.create(thread.thread_id, "steps", { ...slow(50), streamMode: ["updates"] });
      // The thread's stream stays open for its later runs: read until this run is done.
      const controller = new AbortController();
      const events: Event[] = [];
      for await (const event of rt.client.threads.joinStream(thread.thread_id, { signal: controller.signal })) {
        events.push(event as Event);
        if (event.event === "run_done") break;
      }
      controller.abort();
      expect(events[0]).toMatchObject({ event: "metadata", data: { run_id: run.run_id } });
      expect(events.at(-1)).toMatchObject({ event: "run_done", data: { run_id: run.run_id, status: "success" } });
      expect(
        events.filter((event) => event.event === "updates").map((event) => Object.keys(event.data as object)[0]),
      ).toEqual(["one", "two", "three"]);
    });

    test("a dropped stream is resumed by the official client with Last-Event-ID: nothing lost or repeated", async () => {
      const thread = await rt.client.threads.create();
      let dropped = false;
      const reconnects: (string | undefined)[] = [];
      const drop = (req: {
        method?: string;
        url?: string;
        headers: Record<string, unknown>;
        socket: { destroy(): void };
      }) => {
        if (req.method === "GET" && req.url?.includes("/stream"))
          reconnects.push(req.headers["last-event-id"] as string);
        if (!dropped && req.url?.endsWith("/runs/stream")) {
          dropped = true;
          setTimeout(() => req.socket.destroy(), 150); // after step one, inside step two
        }
      };
      rt.server.on("request", drop);
      try {
        const events = (await collect(
          rt.client.runs.stream(thread.thread_id, "steps", { ...slow(100), streamMode: ["updates"] }),
        )) as Event[];
        expect(dropped).toBe(true);
        // The client came back on the Location header, naming the last event it had.
        expect(reconnects.length).toBeGreaterThanOrEqual(1);
        expect(reconnects[0]).toBeDefined();
        const ids = events.map((event) => event.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(events.map((event) => event.event)).toEqual(["metadata", "updates", "updates", "updates"]);
      } finally {
        rt.server.off("request", drop);
      }
    });
  });
}
