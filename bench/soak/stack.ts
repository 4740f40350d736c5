// The runtime in its production shape, as the drills start it: an API process (`src/main.ts`, no
// runs of its own) and worker processes (`src/worker.ts`) on a private redis-server and a database
// of their own on the machine's PostgreSQL; and the faults done to it.
import type { ChildProcess } from "node:child_process";
import {
  killProcess,
  randomPrefix,
  spawnRuntimeProcess,
  startRuntimeProcess,
  stopProcess,
  type RuntimeProcess,
} from "../../services/agent-runtime/test/support/harness";
import { terminateBackends } from "../../services/agent-runtime/test/support/postgres-backends";
import { startPrivateRedis, type PrivateRedis } from "../../services/agent-runtime/test/support/redis-server";
import type { FaultKind, SoakOptions } from "./options";

/** What the processes printed lately (the tail shown when something goes wrong). */
const OUTPUT_KEPT = 200;

export interface Stack {
  url: string;
  databaseUrl: string;
  redis: PrivateRedis;
  /** Each process's role and pid now, for the RSS samples. */
  processes(): Array<{ role: string; pid: number | undefined }>;
  /** Does a fault of this kind; answers a few words on what it did. */
  fault(kind: FaultKind): Promise<string>;
  /** Processes that exited without being told to (a crash), with their exit code or signal. */
  crashes: string[];
  /** The processes' latest output. */
  output(): string;
  /** Stops everything and drops the database. */
  close(): Promise<void>;
}

/** `onCrash` hears of a process that exited by itself, with the end of what it printed. */
export async function startStack(options: SoakOptions, onCrash: (what: string) => void = () => {}): Promise<Stack> {
  const redis = await startPrivateRedis();
  const prefix = randomPrefix();
  const output: string[] = [];
  const common = { REDIS_URL: redis.url, REDIS_PREFIX: prefix, ...options.runtimeEnv };
  let api: RuntimeProcess;
  try {
    api = await startRuntimeProcess("soak_agent_runtime", { ...common, WORKERS: "0" });
  } catch (error) {
    await redis.close();
    throw error;
  }
  const crashes: string[] = [];
  const killed = new Set<ChildProcess>();
  let closing = false;
  const watch = (role: string, child: ChildProcess) =>
    child.once("exit", (code, signal) => {
      if (closing || killed.has(child)) return;
      crashes.push(`${role} (pid ${child.pid}) exited: ${signal ?? code}`);
      onCrash(`${crashes.at(-1)}; it printed last:\n${(role === "api" ? api.output : output).join("").slice(-2_000)}`);
    });
  watch("api", api.child);
  const workers: ChildProcess[] = [];
  const startWorker = (slot: number) => {
    workers[slot] = spawnRuntimeProcess(
      "worker.ts",
      { ...common, DATABASE_URL: api.databaseUrl, WORKERS: String(options.workersPerProcess) },
      output,
    );
    watch(`worker-${slot}`, workers[slot]);
  };
  for (let slot = 0; slot < options.workerProcesses; slot += 1) startWorker(slot);
  // A long soak must not keep every line it was told: only the tail.
  const trim = setInterval(() => {
    for (const log of [output, api.output]) if (log.length > OUTPUT_KEPT) log.splice(0, log.length - OUTPUT_KEPT);
  }, 5_000);
  // The last worker is the one killed: the others live through the soak, so their memory is judged.
  const victim = options.workerProcesses - 1;

  const faults: Record<FaultKind, () => Promise<string>> = {
    async "worker-kill"() {
      const pid = workers[victim].pid;
      // A worker that died by itself is counted as a crash; the kill then did nothing: say so.
      if (workers[victim].exitCode !== null || workers[victim].signalCode !== null) {
        startWorker(victim);
        throw new Error(`worker-${victim} (pid ${pid}) was not running (see its crash); started again`);
      }
      killed.add(workers[victim]);
      await killProcess(workers[victim]);
      // Started again at once, as an orchestrator does; its runs come back after RUN_LOCK_MS.
      startWorker(victim);
      return `SIGKILLed worker-${victim} (pid ${pid})`;
    },
    async "redis-restart"() {
      await redis.kill();
      await new Promise((resolve) => setTimeout(resolve, options.redisDownMs));
      await redis.restart();
      return `redis-server SIGKILLed, back after ${options.redisDownMs} ms`;
    },
    async "postgres-terminate"() {
      return `${await terminateBackends(api.databaseUrl)} PostgreSQL connections terminated`;
    },
  };

  return {
    url: api.url,
    databaseUrl: api.databaseUrl,
    redis,
    processes: () => [
      { role: "api", pid: api.child.pid },
      ...workers.map((worker, slot) => ({ role: `worker-${slot}`, pid: worker.pid })),
      { role: "redis", pid: redis.pid() },
    ],
    fault: (kind) => faults[kind](),
    crashes,
    output: () => [...api.output, ...output].join(""),
    async close() {
      closing = true;
      clearInterval(trim);
      await Promise.all(workers.map(stopProcess));
      await api.stop();
      await redis.close();
    },
  };
}
