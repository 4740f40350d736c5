// This runtime's own address, published for what in its process calls it: an official SDK client
// made inside a graph or a custom route (`new Client()`, no `apiUrl`), which the official server
// points at itself under the same global symbol (without it the client's default is
// localhost:8123, another server or none), and webhooks given as a path of this deployment.

const URL_SYMBOL = Symbol.for("langgraph_api:url");

/** The runtime's address for clients in this process: `LANGGRAPH_API_URL`, else where it listens. */
export function ownUrl(listening: { host: string; port: number } | undefined, configured?: string): string | undefined {
  if (configured) return configured.replace(/\/+$/, "");
  if (!listening || !listening.port) return undefined;
  // A wildcard address listens on loopback too; an IPv6 one is written in brackets.
  const host = ["0.0.0.0", "::", ""].includes(listening.host)
    ? "127.0.0.1"
    : listening.host.includes(":")
      ? `[${listening.host}]`
      : listening.host;
  return `http://${host}:${listening.port}`;
}

/** Makes `url` the default of SDK clients created in this thread from now on. */
export function publishOwnUrl(url: string | undefined): void {
  if (url) (globalThis as Record<symbol, unknown>)[URL_SYMBOL] = url;
}

/** The address published in this thread, if any. */
export function publishedOwnUrl(): string | undefined {
  const url = (globalThis as Record<symbol, unknown>)[URL_SYMBOL];
  return typeof url === "string" ? url : undefined;
}
