import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A receiver on loopback that answers each POST with the next scripted status (then 200). */
export class Receiver {
  readonly bodies: unknown[] = [];
  private server!: Server;
  private waiters: (() => void)[] = [];
  statuses: number[] = [];
  url = "";
  /** While set, requests are read but not answered (until release()). */
  hold = false;
  private held: (() => void)[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => {
        this.bodies.push(JSON.parse(text));
        const answer = () => {
          res.statusCode = this.statuses.shift() ?? 200;
          res.end();
        };
        if (this.hold) this.held.push(answer);
        else answer();
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    this.server.listen(0, "127.0.0.1");
    await new Promise((resolve) => this.server.once("listening", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook?token=secret`;
  }

  async waitFor(count: number): Promise<void> {
    while (this.bodies.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    this.hold = false;
    for (const answer of this.held.splice(0)) answer();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
