// GET /info: what front ends ask first (agent-chat-ui shows an error without it), in the official
// JS server's shape. Crons are offered here (the official JS server has none).
import type { AgentRuntime } from "@lgp/contracts";

type ServerInfo = AgentRuntime.components["schemas"]["ServerInfo"];

function packageVersion(name: string): string {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/**
 * LangSmith tracing is LangChain's own business (it reads these variables itself); a front end is
 * told whether it is on the way the official server tells it: a key, and tracing not turned off.
 */
function langsmithTracing(env: NodeJS.ProcessEnv): boolean {
  if (!(env.LANGSMITH_API_KEY || env.LANGCHAIN_API_KEY)) return false;
  const switches = [env.LANGCHAIN_TRACING_V2, env.LANGCHAIN_TRACING, env.LANGSMITH_TRACING_V2, env.LANGSMITH_TRACING];
  return !switches.some((value) => value === "false" || value === "False");
}

/** This runtime's package version (the MCP server's, /info's). */
export function runtimeVersion(): string {
  return packageVersion("@lgp/agent-runtime");
}

export function serverInfo(env: NodeJS.ProcessEnv = process.env): ServerInfo {
  return {
    version: runtimeVersion(),
    langgraph_js_version: packageVersion("@langchain/langgraph"),
    context: "js",
    flags: { assistants: true, crons: true, langsmith: langsmithTracing(env), langsmith_tracing_replicas: true },
  };
}
