// An official SDK client made inside a deployment (a custom route, a graph's node) with no `apiUrl`
// reaches the runtime serving it, as on the official server, instead of the SDK's default
// localhost:8123; and a run's webhook given as a path of the deployment (a custom route) is called
// on the runtime's own address.
import path from "node:path";
import { Client, startRuntimeProcess } from "../support/harness";
import { ownUrl } from "../../src/http/own-url";

test("a client made by the deployment's own code, with no address, and a webhook given as a path reach this runtime", async () => {
  const runtime = await startRuntimeProcess("own_client", {
    HOST: "127.0.0.1",
    REDIS_URL: "",
    LANGGRAPH_JSON: path.resolve(__dirname, "fixtures/custom-routes/own-client.langgraph.json"),
  });
  const { url, output } = runtime;
  try {
    const answer = await fetch(`${url}/custom/own-client`);
    expect(answer.status).toBe(200);
    const { thread_id } = (await answer.json()) as { thread_id: string };
    const client = new Client({ apiUrl: url });
    const thread = await client.threads.get(thread_id);
    expect(thread.metadata).toEqual({ made: "by the app" });

    const run = await client.runs.create(thread_id, "agent", {
      input: { messages: [{ role: "user", content: "hook" }] },
      webhook: "/custom/webhook",
    });
    let received: { run_id: string; status: string }[] = [];
    for (let tries = 0; tries < 100 && !received.length; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      received = (await (await fetch(`${url}/custom/webhooks`)).json()) as typeof received;
    }
    expect(received).toEqual([expect.objectContaining({ run_id: run.run_id, status: "success" })]);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${output.join("")}`, { cause: error });
  } finally {
    await runtime.stop();
  }
}, 90_000);

test("the address published: LANGGRAPH_API_URL, else where the runtime listens", () => {
  expect(ownUrl({ host: "0.0.0.0", port: 2150 })).toBe("http://127.0.0.1:2150");
  expect(ownUrl({ host: "::", port: 2150 })).toBe("http://127.0.0.1:2150");
  expect(ownUrl({ host: "::1", port: 2150 })).toBe("http://[::1]:2150");
  expect(ownUrl({ host: "10.0.0.5", port: 80 })).toBe("http://10.0.0.5:80");
  expect(ownUrl({ host: "0.0.0.0", port: 2150 }, "https://agents.example.com/")).toBe("https://agents.example.com");
  // A worker process listens nowhere: only the configured address.
  expect(ownUrl(undefined)).toBeUndefined();
  expect(ownUrl({ host: "0.0.0.0", port: 0 })).toBeUndefined();
});
