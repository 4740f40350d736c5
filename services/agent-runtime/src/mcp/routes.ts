// POST /mcp: the Model Context Protocol over streamable HTTP (the official SDK's server), stateless:
// each request gets a server of its own, as the hosted server's endpoint is stateless. GET and
// DELETE (sessions, server-sent notifications) answer 405.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Router } from "express";
import { authOf, type AuthContext } from "../auth";
import type { AssistantTools } from "./tools";

function serverFor(tools: AssistantTools, auth: AuthContext | undefined, version: string): Server {
  const server = new Server({ name: "langgraph-platform-agent-runtime", version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await tools.list(auth)).map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const result = await tools.call(request.params.name, request.params.arguments, auth);
    if (!result) return { isError: true, content: [{ type: "text", text: `No tool named "${request.params.name}"` }] };
    if (result.error)
      return { isError: true, content: [{ type: "text", text: `${result.error.error}: ${result.error.message}` }] };
    return {
      content: [{ type: "text", text: JSON.stringify(result.output) }],
      structuredContent: (result.output && typeof result.output === "object"
        ? result.output
        : { output: result.output }) as Record<string, unknown>,
    };
  });
  return server;
}

export function mcpRouter(tools: AssistantTools, version: string): Router {
  const router = Router();
  router.post("/mcp", async (req, res) => {
    const server = serverFor(tools, authOf(res), version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  for (const method of ["get", "delete"] as const) {
    router[method]("/mcp", (_req, res) => {
      res
        .status(405)
        .set("Allow", "POST")
        .json({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless" },
          id: null,
        });
    });
  }
  return router;
}
