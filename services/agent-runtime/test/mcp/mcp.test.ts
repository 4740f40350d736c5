// POST /mcp with the official MCP SDK's client over streamable HTTP: every assistant is a tool
// (named after it, with its graph's input schema), calling one runs the graph statelessly and
// answers its output; the deployment's key guards it; GET is refused (stateless endpoint).
import path from "node:path";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { runtimeKeyHash } from "@lgp/server-kit";
import { Client, startTestRuntime } from "../support/harness";

const KEY = "lgp_rt_mcp_test_key_0123456789abcdef";
let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  // One graph: listing tools reads each graph's input schema (from its source, the first time).
  rt = await startTestRuntime({
    env: { LANGGRAPH_JSON: path.resolve(__dirname, "fixtures/langgraph.json"), API_KEY_HASHES: runtimeKeyHash(KEY) },
  });
});
afterAll(async () => {
  await rt?.close();
});

async function connect(key = KEY): Promise<McpClient> {
  const client = new McpClient({ name: "mcp-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${rt.url}/mcp`), { requestInit: { headers: { "x-api-key": key } } }),
  );
  return client;
}

it("lists each assistant as a tool and runs one, answering the graph's output", async () => {
  const sdk = new Client({ apiUrl: rt.url, apiKey: KEY });
  await sdk.assistants.create({ graphId: "agent", name: "shouting echo", description: "Echoes, loudly." });
  const mcp = await connect();
  try {
    const { tools } = await mcp.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["agent", "shouting_echo"]));
    const echo = tools.find((tool) => tool.name === "shouting_echo")!;
    expect(echo.description).toBe("Echoes, loudly.");
    // The graph's input schema (MessagesAnnotation): a `messages` property.
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { messages: expect.any(Object) } });

    const result = await mcp.callTool({
      name: "agent",
      arguments: { messages: [{ role: "user", content: "hello over MCP" }] },
    });
    expect(result.isError).toBeFalsy();
    const output = JSON.parse((result.content as { type: string; text: string }[])[0]!.text) as {
      messages: { content: string }[];
    };
    expect(output.messages.at(-1)!.content).toBe("echo: hello over MCP");
    expect((result.structuredContent as { messages: unknown[] }).messages).toHaveLength(2);

    const missing = await mcp.callTool({ name: "nothing_here", arguments: {} });
    expect(missing.isError).toBe(true);
  } finally {
    await mcp.close();
  }
});

it("is guarded by the deployment's key and refuses the stateful methods", async () => {
  await expect(connect("not-the-key")).rejects.toThrow();
  const get = await fetch(`${rt.url}/mcp`, { headers: { "x-api-key": KEY, accept: "text/event-stream" } });
  expect(get.status).toBe(405);
});
