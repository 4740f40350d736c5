// The signed-in key lives in this tab's sessionStorage only: never in a URL, never in a log, gone
// when the tab closes. A deployment's runtime key (shown once by the control plane) is kept the same way.

const KEY = "lgp.console.apiKey";
const runtimeKeyName = (deploymentId: string) => `lgp.console.runtimeKey.${deploymentId}`;

// A key the control plane just showed, until the user says it is kept: in memory only, so neither
// a reload nor the browser's history brings it back.
const shownKeys = new Map<string, string>();

export const session = {
  apiKey: (): string | null => sessionStorage.getItem(KEY),
  signIn: (apiKey: string) => sessionStorage.setItem(KEY, apiKey),
  signOut: () => sessionStorage.clear(),
  runtimeKey: (deploymentId: string): string | null => sessionStorage.getItem(runtimeKeyName(deploymentId)),
  setRuntimeKey: (deploymentId: string, key: string) => sessionStorage.setItem(runtimeKeyName(deploymentId), key),
  forgetRuntimeKey: (deploymentId: string) => sessionStorage.removeItem(runtimeKeyName(deploymentId)),
  showKeyOnce: (deploymentId: string, key: string) => shownKeys.set(deploymentId, key),
  keyToShow: (deploymentId: string): string | null => shownKeys.get(deploymentId) ?? null,
  keyShown: (deploymentId: string) => shownKeys.delete(deploymentId),
};
