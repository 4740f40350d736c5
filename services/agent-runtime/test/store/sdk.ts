import vm from "node:vm";
import { pathToFileURL } from "node:url";

type Sdk = typeof import("@langchain/langgraph-sdk");

/**
 * The official client, loaded as the ES module it is. Its CommonJS build requires ESM-only
 * dependencies (p-retry), which jest's CommonJS loader refuses on Node 20; an import through
 * Node's own loader sidesteps jest's module registry for this one package.
 */
export async function loadSdk(): Promise<Sdk> {
  const load = new vm.Script("(specifier) => import(specifier)", {
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  }).runInThisContext() as (specifier: string) => Promise<Sdk>;
  return load(pathToFileURL(require.resolve("@langchain/langgraph-sdk").replace(/index\.cjs$/, "index.js")).href);
}
