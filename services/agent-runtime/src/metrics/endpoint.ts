// A worker process serves no API, so its metrics get an endpoint of their own (METRICS_PORT):
// GET /metrics and nothing else.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

export async function serveMetrics(registry: Registry, port: number, host: string): Promise<Server & { port: number }> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"detail":"Not Found"}');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  return Object.assign(server, { port: (server.address() as AddressInfo).port });
}
