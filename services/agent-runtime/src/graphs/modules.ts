// Loading a user's module (a graph, an auth handler) the way the official server does: `require`
// first (tsx and ts-jest compile TypeScript on require), a native `import()` for what only an ES
// module import can load.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { GraphConfigError } from "./config";

// A real `import()`, which TypeScript's CommonJS output would turn into `require`.
export const nativeImport = new Function("specifier", "return import(specifier)") as (
  specifier: string,
) => Promise<Record<string, unknown>>;

/** Errors of `require` that only mean "an ES module import can load this" (top-level await, ESM only). */
function needsImport(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === "ERR_REQUIRE_ASYNC_MODULE" || code === "ERR_REQUIRE_ESM") return true;
  return /top-level await|Cannot use import statement|import\.meta|Unexpected reserved word/i.test(message ?? "");
}

export async function loadModule(file: string): Promise<Record<string, unknown>> {
  try {
    // tsx (at run time) and ts-jest (under jest) compile TypeScript graph files on require.
    return require(file) as Record<string, unknown>;
  } catch (error) {
    if (!needsImport(error)) throw error;
    // tsx's ESM loader is registered in real runs (`tsx` or `node --import tsx`).
    return nativeImport(pathToFileURL(file).href);
  }
}

/**
 * A `"./file.ts:export"` reference of langgraph.json (`http.app`, `auth.path`, `store.index.embed`),
 * relative to that file, loaded. A module that fails to load is a GraphConfigError naming `key`.
 */
export async function loadProjectExport(
  configPath: string,
  key: string,
  spec: string,
): Promise<{ exported: unknown; file: string; exportName: string }> {
  const separator = spec.lastIndexOf(":");
  const file = path.resolve(path.dirname(configPath), separator > 0 ? spec.slice(0, separator) : spec);
  const exportName = (separator > 0 ? spec.slice(separator + 1) : "") || "default";
  try {
    return { exported: (await loadModule(file))[exportName], file, exportName };
  } catch (error) {
    throw new GraphConfigError(`cannot load ${key} ${spec}: ${(error as Error).message}`);
  }
}
