// Idle viewers: what 1,000 and 10,000 SSE clients following runs cost one agent runtime process on
// Redis: its memory (RSS) and the Redis connections it holds. The runs wait (no workers), so every
// stream is idle but for heartbeats; they are spread over 100 runs.
// Options (environment): BENCH_IDLE_STREAMS (comma list, default 1000,10000), TEST_REDIS_URL.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { Redis } from "ioredis";
import { freePort, migrate, waitUntilOk } from "@lgp/server-kit";
import { createEmptyDatabase, testRedisUrl } from "@lgp/server-kit/src/testing";
import { deleteRedisKeys } from "../services/agent-runtime/test/support/redis-keys";

const ROOT = path.resolve(__dirname, "..");
const COUNTS = (process.env.BENCH_IDLE_STREAMS ?? "1000,10000").split(",").map(Number);
const RUNS = 100;

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  return kb / 1024;
}

async function redisClients(redis: Redis): Promise<number> {
  return Number(/connected_clients:(\d+)/.exec(await redis.info("clients"))?.[1] ?? NaN);
}

/** Opens a stream and resolves once its headers are in; the response stays open. */
function openStream(agent: http.Agent, port: number, path: string, open: http.IncomingMessage[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path, agent }, (response) => {
      response.on("data", () => undefined);
      response.on("error", () => undefined);
      open.push(response);
      resolve();
    });
    request.on("error", reject);
  });
}

async function main(): Promise<void> {
  const database = await createEmptyDatabase("bench_idle_streams");
  const prefix = `lgp-bench-idle-${Date.now().toString(36)}`;
  const redis = new Redis(testRedisUrl());
  let child: ChildProcess | undefined;
  try {
    await migrate(database.url, path.join(ROOT, "prisma/agent-runtime/migrations"));
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: path.join(ROOT, "services/agent-runtime"),
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: prefix,
        WORKERS: "0",
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (!(await waitUntilOk(`http://127.0.0.1:${port}/ok`, 60_000))) throw new Error("the runtime did not start");
    const post = async (url: string, body: unknown) =>
      (await (
        await fetch(`http://127.0.0.1:${port}${url}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, string>;
    const runs: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const thread = await post("/threads", {});
      const run = await post(`/threads/${thread.thread_id}/runs`, { assistant_id: "agent", input: { messages: [] } });
      runs.push(`/threads/${thread.thread_id}/runs/${run.run_id}/stream`);
    }
    console.log(`workload: idle SSE streams over ${RUNS} waiting runs, one API process on Redis (no workers)`);
    console.log("streams  server RSS MB  KB per stream  Redis connections of the process");
    console.log("-------  -------------  -------------  ---------------------------------");
    const baseRss = rssMb(child.pid!);
    const baseClients = await redisClients(redis);
    console.log(`${"0".padStart(7)}  ${baseRss.toFixed(1).padStart(13)}  ${"".padStart(13)}  (baseline)`);
    for (const count of COUNTS) {
      const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
      const open: http.IncomingMessage[] = [];
      for (let i = 0; i < count; i += 200) {
        await Promise.all(
          Array.from({ length: Math.min(200, count - i) }, (_, j) =>
            openStream(agent, port, runs[(i + j) % RUNS], open),
          ),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const rss = rssMb(child.pid!);
      const clients = (await redisClients(redis)) - baseClients;
      console.log(
        `${String(count).padStart(7)}  ${rss.toFixed(1).padStart(13)}  ${(((rss - baseRss) * 1024) / count).toFixed(1).padStart(13)}  ${clients} more than at rest`,
      );
      for (const response of open) response.destroy();
      agent.destroy();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await deleteRedisKeys(testRedisUrl(), prefix);
    redis.disconnect();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
