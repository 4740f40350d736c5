import { pathToFileURL } from "node:url";
import vm from "node:vm";
import type * as OAuth from "oauth4webapi" with { "resolution-mode": "import" };

export type OAuthLib = typeof OAuth;

let loading: Promise<OAuthLib> | undefined;

/**
 * oauth4webapi ships only as an ES module. Node >= 20.19 loads it with require(); jest's module
 * loader cannot (it refuses ESM from node_modules), so there it is imported through Node's own
 * loader in the process's main context instead. Same library, same code path once loaded.
 */
export function loadOAuthLib(): Promise<OAuthLib> {
  loading ??= (async () => {
    try {
      return require("oauth4webapi") as OAuthLib;
    } catch {
      const importer = new vm.Script("(specifier) => import(specifier)", {
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      }).runInThisContext() as (specifier: string) => Promise<OAuthLib>;
      return importer(pathToFileURL(require.resolve("oauth4webapi")).href);
    }
  })();
  return loading;
}
