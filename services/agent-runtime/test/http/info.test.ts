// GET /info: front ends (agent-chat-ui) ask it first; the official JS server's shape.
import { readFileSync } from "node:fs";
import path from "node:path";
import { startTestRuntime } from "../support/harness";
import { serverInfo } from "../../src/info/service";

const langgraphVersion = (
  JSON.parse(
    readFileSync(path.join(path.dirname(require.resolve("@langchain/langgraph")), "../package.json"), "utf8"),
  ) as {
    version: string;
  }
).version;

test("GET /info answers versions and feature flags", async () => {
  const rt = await startTestRuntime({ workers: 0 });
  try {
    const response = await fetch(`${rt.url}/info`, { headers: { Origin: "http://chat.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      langgraph_js_version: langgraphVersion,
      context: "js",
      flags: { assistants: true, crons: true, langsmith: false, langsmith_tracing_replicas: true },
    });
  } finally {
    await rt.close();
  }
});

test("langsmith is on with an API key unless tracing is turned off", () => {
  expect(serverInfo({ LANGSMITH_API_KEY: "k" }).flags.langsmith).toBe(true);
  expect(serverInfo({ LANGSMITH_API_KEY: "k", LANGSMITH_TRACING: "false" }).flags.langsmith).toBe(false);
  expect(serverInfo({}).flags.langsmith).toBe(false);
});
