import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ConfigError } from "@lgp/server-kit";

/** Start-up failure in the graph configuration: the message names the graph and the file. */
export class GraphConfigError extends ConfigError {
  override name = "GraphConfigError";
}

const graphSpec = z.union([
  z.string().min(1),
  z.object({ path: z.string().min(1), description: z.string().optional() }).loose(),
]);

const langgraphJson = z
  .object({
    graphs: z
      .record(z.string().min(1), graphSpec)
      .refine((graphs) => Object.keys(graphs).length > 0, "declares no graph"),
    env: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  })
  .loose();

export interface GraphEntry {
  graphId: string;
  /** Absolute path of the module. */
  file: string;
  exportName: string;
  description?: string;
}

/** Reads langgraph.json: `{"graphs": {"agent": "./src/agent.ts:graph"}}`. */
export function readGraphConfig(configPath: string): GraphEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, "utf8"));
  } catch (error) {
    throw new GraphConfigError(`cannot read graph config ${configPath}: ${(error as Error).message}`);
  }
  const parsed = langgraphJson.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GraphConfigError(
      `invalid graph config ${configPath}: ${issue.path.join(".") || "(root)"} ${issue.message}`,
    );
  }
  const baseDir = path.dirname(path.resolve(configPath));
  return Object.entries(parsed.data.graphs).map(([graphId, spec]) => {
    const target = typeof spec === "string" ? spec : spec.path;
    const separator = target.lastIndexOf(":");
    const file = separator > 0 ? target.slice(0, separator) : target;
    const exportName = separator > 0 ? target.slice(separator + 1) : "default";
    return {
      graphId,
      file: path.resolve(baseDir, file),
      exportName: exportName || "default",
      description: typeof spec === "string" ? undefined : spec.description,
    };
  });
}
