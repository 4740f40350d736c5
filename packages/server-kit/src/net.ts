import { createServer } from "node:net";
import { refusalOf } from "./outbound/fetch";

/** A free TCP port on `host` (asked of the OS). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 2xx; false on timeout or as soon as `alive()` turns false. */
export async function waitUntilOk(
  url: string,
  timeoutMs: number,
  alive: () => boolean = () => true,
  fetchImpl: (url: string, init: RequestInit) => Promise<Response> = fetch,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && alive()) {
    try {
      const res = await fetchImpl(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return true;
    } catch (error) {
      // not listening yet; a URL the outbound policy refuses will not be allowed later either
      if (refusalOf(error)) return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}
