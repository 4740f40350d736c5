import vm from "node:vm";
import { pathToFileURL } from "node:url";

type Sdk = typeof import("@langchain/langgraph-sdk");

/**
 * The official client, loaded as the ES module it is (its CommonJS build requires ESM-only
 * dependencies, which jest's CommonJS loader refuses on Node 20): imported through Node's own
 * loader, outside jest's module registry. Same approach as the agent runtime's tests.
 */
export async function loadSdk(): Promise<Sdk> {
  const load = new vm.Script("(specifier) => import(specifier)", {
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }).runInThisContext() as (specifier: string) => Promise<Sdk>;
  return load(pathToFileURL(require.resolve("@langchain/langgraph-sdk").replace(/index\.cjs$/, "index.js")).href);
}
