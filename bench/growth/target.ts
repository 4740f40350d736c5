// The growth bench's system under test: the agent runtime started as the agent-runtime bench
// starts it (child processes, each leading its process group, so their CPU is read from /proc),
// serving this folder's langgraph.json (the echo agent, the `grow` graph, the store's index), on
// a database of the bench's own. One process with the in-process queue, or an API process and
// worker processes on Redis.
import path from "node:path";
import { freePort } from "@lgp/server-kit";
import { testRedisUrl } from "@lgp/server-kit/src/testing";
import { groupCpuMs } from "../cpu";
import { startProcess, stopProcess, waitUntilUp } from "../harness";

const ROOT = path.resolve(__dirname, "../..");
export const GROWTH_CONFIG = path.join(__dirname, "graphs/langgraph.json");

export interface Target {
  url: string;
  /** CPU ms used so far by the API process. */
  apiCpuMs(): number;
  /** CPU ms used so far by the worker processes (0 without). */
  workerCpuMs(): number;
  stop(): Promise<void>;
}

export async function startTarget(
  databaseUrl: string,
  options: {
    workerProcesses?: number;
    redisPrefix?: string;
    workers?: number;
    /** Another langgraph.json than GROWTH_CONFIG, and environment for the runtime (the semantic part's dims). */
    config?: string;
    env?: Record<string, string>;
  } = {},
): Promise<Target> {
  const workers = options.workers ?? 20;
  const processes = options.workerProcesses ?? 0;
  const service = path.join(ROOT, "services/agent-runtime");
  const env = {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    LANGGRAPH_JSON: options.config ?? GROWTH_CONFIG,
    CHECKPOINT_POOL_SIZE: "20",
    // Thousands of requests as fast as they answer: latency is measured, not a client's budget.
    RATE_LIMIT_REQUESTS_PER_MINUTE: "0",
    ...(options.redisPrefix ? { REDIS_URL: testRedisUrl(), REDIS_PREFIX: options.redisPrefix } : { REDIS_URL: "" }),
    ...options.env,
  };
  const workerChildren = Array.from(
    { length: processes },
    () =>
      startProcess(process.execPath, ["--import", "tsx", "src/worker.ts"], service, {
        ...env,
        WORKERS: String(Math.ceil(workers / processes)),
      }).child,
  );
  const port = await freePort();
  const { child, log } = startProcess(process.execPath, ["--import", "tsx", "src/main.ts"], service, {
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
    WORKERS: processes ? "0" : String(workers),
  });
  const stop = async () => {
    await stopProcess(child);
    for (const worker of workerChildren) await stopProcess(worker);
  };
  try {
    await waitUntilUp(`http://127.0.0.1:${port}`, child, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    apiCpuMs: () => groupCpuMs(child.pid!),
    workerCpuMs: () => workerChildren.reduce((sum, worker) => sum + groupCpuMs(worker.pid!), 0),
    stop,
  };
}

/** A JSON request to the target; its answer parsed, or an error naming the status and body. */
export async function call<T = unknown>(url: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Milliseconds `request` takes, `count` times one after another (after `warmup` untimed). */
export async function timed(count: number, warmup: number, request: (index: number) => Promise<unknown>) {
  for (let i = 0; i < warmup; i += 1) await request(i);
  const ms: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await request(i);
    ms.push(performance.now() - started);
  }
  return ms;
}
