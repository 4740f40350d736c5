// A TCP proxy in front of the test PostgreSQL that cuts connections the ways a network does, so a
// test can choose the moment: PostgreSQL's side ended while the pool's side still looks open (a
// failover behind a load balancer: the pool learns of it only when it next sends, and is reset),
// a connection refused as it opens, and a connection cut after its COMMIT was passed on but
// before the answer came back.
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

interface Link {
  client: Socket;
  upstream: Socket;
  dead: boolean;
}

export class CuttingProxy {
  private readonly links = new Set<Link>();
  private refusing = 0;
  private cutAfterNextCommit = false;

  private constructor(
    private readonly server: Server,
    private readonly target: URL,
  ) {}

  static async start(databaseUrl: string): Promise<CuttingProxy> {
    const target = new URL(databaseUrl);
    const server = createServer();
    const proxy = new CuttingProxy(server, target);
    server.on("connection", (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  /** The database URL through this proxy. */
  get url(): string {
    const url = new URL(this.target);
    url.host = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return url.toString();
  }

  /** Connections open through the proxy, dead or not. */
  get open(): number {
    return this.links.size;
  }

  /** Ends PostgreSQL's side of every connection; the pool's side is reset when it next sends. */
  cutSilently(): void {
    for (const link of this.links) {
      link.dead = true;
      link.upstream.destroy();
    }
  }

  /** The next `count` connections are closed as soon as they are accepted. */
  refuse(count: number): void {
    this.refusing += count;
  }

  /** The next COMMIT reaches PostgreSQL, but its connection is cut before the answer returns. */
  cutAfterCommit(): void {
    this.cutAfterNextCommit = true;
  }

  async close(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.upstream.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket): void {
    if (this.refusing > 0) {
      this.refusing--;
      client.destroy();
      return;
    }
    const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
    const link: Link = { client, upstream, dead: false };
    this.links.add(link);
    const forget = () => this.links.delete(link);
    client.on("close", forget);
    client.on("error", () => {});
    upstream.on("error", () => {});
    client.on("data", (chunk) => {
      if (link.dead) return client.resetAndDestroy();
      if (this.cutAfterNextCommit && chunk.includes("COMMIT")) {
        this.cutAfterNextCommit = false;
        link.dead = true;
        // The pool's side is cut once PostgreSQL has answered the COMMIT (the answer is dropped):
        // cut at once, the test's next read could reach PostgreSQL before the COMMIT it passed on.
        upstream.once("data", () => client.resetAndDestroy());
        upstream.write(chunk);
        return;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!link.dead) client.write(chunk);
    });
    upstream.on("close", () => {
      if (!link.dead) client.destroy();
    });
  }
}
