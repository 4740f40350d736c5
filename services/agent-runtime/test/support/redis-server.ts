// A private redis-server on a free port, for tests that stop Redis or count its connections.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@lgp/server-kit";

export interface PrivateRedis {
  url: string;
  /** SIGKILL, as a crash: what was acknowledged is in the append-only file. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
  /** The running server's process id (undefined while it is down). */
  pid(): number | undefined;
  /** Connected clients, from INFO. */
  clients(): Promise<number>;
  /** Calls so far of each command named (summed), from INFO commandstats. */
  calls(...commands: string[]): Promise<number>;
  close(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "lgp-redis-"));
  let child: ChildProcess | undefined;
  const launch = async () => {
    const started = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes", "--appendfsync", "always"],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
    );
    await new Promise<void>((resolve, reject) => {
      let seen = "";
      started.stdout!.on("data", (chunk) => {
        seen += chunk;
        if (seen.includes("Ready to accept connections")) resolve();
      });
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${seen}`)));
      started.once("error", (error) =>
        reject(new Error(`cannot start redis-server (these tests need the binary on PATH): ${error.message}`)),
      );
    });
    child = started;
  };
  const kill = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  await launch();
  const url = `redis://127.0.0.1:${port}`;
  /** A section of INFO, read on a connection of its own. */
  const info = async (section: string) => {
    const { Redis } = await import("ioredis");
    const probe = new Redis(url, { maxRetriesPerRequest: 1 });
    try {
      return await probe.info(section);
    } finally {
      probe.disconnect();
    }
  };
  return {
    url,
    kill,
    restart: launch,
    pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    async clients() {
      // Not counting the probe itself.
      return Number(/connected_clients:(\d+)/.exec(await info("clients"))?.[1] ?? NaN) - 1;
    },
    async calls(...commands) {
      const stats = await info("commandstats");
      return commands.reduce(
        (sum, command) => sum + Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0),
        0,
      );
    },
    async close() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
