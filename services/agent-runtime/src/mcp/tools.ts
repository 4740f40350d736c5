// The deployment's assistants as MCP tools, as the hosted server exposes them at /mcp: one tool per
// assistant the caller may see (named after the assistant, described by it, taking its graph's
// input schema); calling one runs the assistant's graph statelessly and answers its output.
import type { AssistantService } from "../assistants/service";
import type { AuthContext } from "../auth";
import type { StatelessRunService } from "../stateless/service";

/** Assistants listed as tools, at most (an MCP client holds every tool in its context). */
export const MAX_TOOLS = 100;

export interface AssistantTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  assistantId: string;
}

/** MCP tool names: letters, digits, `_` and `-`, at most 64. */
function toolName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 60) || "assistant";
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}_${n}`;
  taken.add(candidate);
  return candidate;
}

export class AssistantTools {
  constructor(
    private readonly assistants: AssistantService,
    private readonly stateless: StatelessRunService,
  ) {}

  /** The tools' names and assistants, without their schemas (what a call needs). */
  private async named(auth?: AuthContext) {
    const { assistants } = await this.assistants.search(
      { limit: MAX_TOOLS, offset: 0, sort_by: "created_at", sort_order: "asc" },
      auth,
    );
    const taken = new Set<string>();
    return assistants.map((assistant) => ({
      assistant,
      name: toolName(assistant.name ?? assistant.graph_id ?? assistant.assistant_id!, taken),
    }));
  }

  async list(auth?: AuthContext): Promise<AssistantTool[]> {
    const tools: AssistantTool[] = [];
    for (const { assistant, name } of await this.named(auth)) {
      const id = assistant.assistant_id!;
      let input: unknown;
      try {
        input = (await this.assistants.schemas(id, auth)).input_schema;
      } catch {
        input = undefined; // a graph that cannot describe its input still runs
      }
      const schema =
        input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
      tools.push({
        name,
        description:
          assistant.description ?? `Runs the "${assistant.graph_id}" agent (assistant ${assistant.name ?? id})`,
        inputSchema: { ...schema, type: "object" },
        assistantId: id,
      });
    }
    return tools;
  }

  /** Runs the tool's assistant once, on a thread of its own, and answers its output (or its error). */
  async call(
    name: string,
    input: Record<string, unknown> | undefined,
    auth?: AuthContext,
  ): Promise<{ output: unknown; error?: { error: string; message: string } } | undefined> {
    const tool = (await this.named(auth)).find((candidate) => candidate.name === name);
    if (!tool) return undefined;
    const run = await this.stateless.create(
      { assistant_id: tool.assistant.assistant_id!, input: input ?? {} },
      { needValues: true, auth },
    );
    const outcome = await this.stateless.wait(run);
    return { output: outcome.values, error: outcome.error };
  }
}
