// The official Python CLI (langgraph-cli) as the control plane's tests run it: from the tests'
// Python clients environment, pointed at a control plane under test.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";

/** The interpreter of the tests' Python clients (made by the runtime's test support, as CI makes it). */
export function clientsPython(): string {
  const output = execFileSync(
    process.execPath,
    ["--import", "tsx", path.join(REPO_ROOT, "services/agent-runtime/test/support/python.ts"), "--clients"],
    { cwd: REPO_ROOT, encoding: "utf8", timeout: 300_000 },
  );
  return output.trim().split("\n").at(-1)!;
}

/** The environment the official CLI runs in: this control plane and key, no LangSmith, no colours. */
export function officialCliEnv(url: string, apiKey: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LANGGRAPH_HOST_URL: url,
    LANGGRAPH_HOST_API_KEY: apiKey,
    LANGSMITH_API_KEY: "",
    NO_COLOR: "1",
  };
}
