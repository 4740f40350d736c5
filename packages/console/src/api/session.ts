// The signed-in key lives in this tab's sessionStorage only: never in a URL, never in a log, gone
// when the tab closes. A deployment's runtime key (shown once by the control plane) is kept the same way.

const KEY = "lgp.console.apiKey";
const runtimeKeyName = (deploymentId: string) => `lgp.console.runtimeKey.${deploymentId}`;

export const session = {
  apiKey: (): string | null => sessionStorage.getItem(KEY),
  signIn: (apiKey: string) => sessionStorage.setItem(KEY, apiKey),
  signOut: () => sessionStorage.clear(),
  runtimeKey: (deploymentId: string): string | null => sessionStorage.getItem(runtimeKeyName(deploymentId)),
  setRuntimeKey: (deploymentId: string, key: string) => sessionStorage.setItem(runtimeKeyName(deploymentId), key),
};
