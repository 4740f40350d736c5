// Generative UI: langgraph.json's `ui` maps a graph to a file of React components
// (`{"ui": {"agent": "./src/ui.tsx"}}`). At start-up each is bundled by the official bundler
// (@langchain/langgraph-ui: esbuild, with its CSS; React and the SDK are left to the page that
// loads it) and kept in memory, to be served as the official server serves it (routes.ts).
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Logger } from "@lgp/server-kit";
import { GraphConfigError, type GraphProject } from "../graphs/config";
import { nativeImport } from "../graphs/modules";

export interface UiFile {
  basename: string;
  contents: Buffer;
}

/** Each graph's bundled files (`entrypoint.js`, and a stylesheet when its components have CSS). */
export type UiBundles = Map<string, UiFile[]>;

interface UiBundler {
  build(options: {
    cwd: string;
    defs: Record<string, string>;
    config?: { shared?: string[] };
    output: string;
  }): Promise<void>;
}

/** The `ui` of langgraph.json: graph id → component file, relative to langgraph.json. */
export function uiDefinitions(project: GraphProject): Record<string, string> {
  const ui = (project.json as { ui?: unknown }).ui;
  if (ui === undefined || ui === null) return {};
  if (typeof ui !== "object" || Array.isArray(ui) || !Object.values(ui).every((file) => typeof file === "string"))
    throw new GraphConfigError(`invalid graph config ${project.configPath}: ui must map graph ids to component files`);
  return ui as Record<string, string>;
}

export async function bundleUi(project: GraphProject, logger: Logger): Promise<UiBundles> {
  const defs = uiDefinitions(project);
  const bundles: UiBundles = new Map();
  if (!Object.keys(defs).length) return bundles;
  const cwd = path.dirname(project.configPath);
  const shared = (project.json as { ui_config?: { shared?: string[] } }).ui_config?.shared;
  const bundler = (await nativeImport("@langchain/langgraph-ui")) as unknown as UiBundler;
  const output = await mkdtemp(path.join(tmpdir(), "lgp-ui-"));
  try {
    for (const [graphId, file] of Object.entries(defs)) {
      const started = performance.now();
      try {
        await bundler.build({ cwd, defs: { [graphId]: file }, config: shared ? { shared } : {}, output });
      } catch (error) {
        throw new GraphConfigError(`cannot bundle the UI of graph "${graphId}" (${file}): ${(error as Error).message}`);
      }
      const folder = path.join(output, "public", graphId);
      const files: UiFile[] = [];
      for (const basename of await readdir(folder)) {
        files.push({ basename, contents: await readFile(path.join(folder, basename)) });
      }
      bundles.set(graphId, files);
      logger.info(
        {
          graph: graphId,
          file,
          files: files.map((item) => item.basename),
          ms: Math.round(performance.now() - started),
        },
        "generative UI bundled",
      );
    }
  } finally {
    await rm(output, { recursive: true, force: true });
  }
  return bundles;
}
