import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { agentRuntimeEnv } from "../../services/agent-runtime/src/config";
import { controlPlaneEnv } from "../../services/control-plane/src/config";

// The README's configuration tables are the operators' reference: every variable a service reads
// must be documented there, in the table of its service.
function tableOf(readme: string, heading: string): string {
  const start = readme.indexOf(heading);
  if (start < 0) throw new Error(`README has no "${heading}" section`);
  const end = readme.indexOf("\n### ", start + heading.length);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe("README configuration tables", () => {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

  it.each([
    ["### Control plane", Object.keys(controlPlaneEnv.shape)],
    ["### Agent runtime", Object.keys(agentRuntimeEnv.shape)],
  ])("%s documents every variable its config reads", (heading, variables) => {
    const table = tableOf(readme, heading);
    const undocumented = variables.filter((name) => !table.includes(`| \`${name}\` |`));
    expect(undocumented).toEqual([]);
  });
});
