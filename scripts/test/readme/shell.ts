// A newcomer's terminal, for the README's snippets: bash in the repository, with the environment a
// user who ran `npm start` against these databases and ports would have. Starts run as the user
// runs them (`npm start` through bash, in a process group of its own, as a terminal's foreground
// job) and stop as Ctrl-C stops them: SIGINT to the whole group.
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { freePort } from "@lgp/server-kit";
import { createEmptyDatabase, REPO_ROOT, testServerUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import { dropDeploymentDatabases } from "../../../services/control-plane/test/support/deployment-databases";
import type { Ports } from "./blocks";

export const READY = "Ctrl-C stops everything";

export interface Ran {
  code: number | null;
  /** stdout and stderr, interleaved as a terminal shows them. */
  output: string;
  stdout: string;
}

export interface BashOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  /** For a script that runs until Ctrl-C (`--follow`): SIGINT once the output satisfies this. */
  until?: (output: string) => boolean;
}

/** Runs `script` with bash; resolves when every process holding its output has exited. */
export function bash(script: string, options: BashOptions): Promise<Ran> {
  const child = spawn("bash", ["-c", script], { cwd: options.cwd ?? REPO_ROOT, env: options.env, detached: true });
  return collect(child, script, options);
}

/**
 * Runs `script` as typed in a terminal: an interactive shell's job control (bash -m on a pseudo
 * terminal, from util-linux's `script`), so `cmd &` is a job of its own and `kill %1` signals its
 * whole process group, as it does for a user; the terminal stays open until its jobs end. Output
 * is the terminal's (stdout and stderr together).
 */
export function terminal(script: string, options: BashOptions & { dir: string }): Promise<Ran> {
  const file = path.join(options.dir, "typed.sh");
  writeFileSync(file, script);
  const child = spawn("script", ["-qefc", `bash -m -c 'source ${file}; wait'`, "/dev/null"], {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env,
    detached: true,
  });
  return collect(child, script, options).then((ran) => {
    const output = ran.output.replace(/\r\n/g, "\n");
    return { ...ran, output, stdout: output };
  });
}

function collect(child: ChildProcessWithoutNullStreams, script: string, options: BashOptions): Promise<Ran> {
  let output = "";
  let stdout = "";
  let interrupted = false;
  const took = () => {
    if (!interrupted && options.until?.(output)) {
      interrupted = true;
      killGroup(child, "SIGINT");
    }
  };
  child.stdout.on("data", (chunk: Buffer) => ((output += chunk), (stdout += chunk), took()));
  child.stderr.on("data", (chunk: Buffer) => ((output += chunk), took()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child, "SIGKILL");
      reject(new Error(`timed out after ${options.timeoutMs} ms:\n${script}\n--- output:\n${output}`));
    }, options.timeoutMs ?? 120_000);
    // "close", not "exit": a job the script left in the background (npm start &) still writes.
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output, stdout });
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

export interface Started {
  output(): string;
  /** Ctrl-C: SIGINT to the terminal's foreground group; resolves when everything has exited. */
  stop(): Promise<void>;
}

/** Runs a start command (`npm start ...`) and resolves once it printed that it is ready. */
export async function start(command: string, env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn("bash", ["-c", command], { cwd: REPO_ROOT, env, detached: true });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const deadline = Date.now() + 180_000;
  while (!output.includes(READY)) {
    if (child.exitCode !== null) throw new Error(`${command} exited:\n${output}`);
    if (Date.now() > deadline) {
      killGroup(child, "SIGKILL");
      throw new Error(`${command} did not get ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    output: () => output,
    stop: async () => {
      killGroup(child, "SIGINT");
      return closed;
    },
  };
}

/** The `export ...` line npm start prints for the README's snippets, as the user pastes it. */
export function printedExports(output: string): string {
  const line = /^\s*(export LANGGRAPH_API_KEY=.*)$/m.exec(output)?.[1];
  if (!line) throw new Error(`npm start printed no export line:\n${output}`);
  return line;
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** The README's ports (8100, 8123) when this machine has them free, otherwise two free ones. */
export async function readmePorts(): Promise<Ports> {
  if ((await portIsFree(8100)) && (await portIsFree(8123))) return { controlPlane: 8100, runtime: 8123 };
  return { controlPlane: await freePort(), runtime: await freePort() };
}

export interface Setup {
  /** The environment of the user's shell: npm start's settings (fresh databases, these ports). */
  env: NodeJS.ProcessEnv;
  ports: Ports;
  /** npm start's DATA_DIR, where the snippets' files are saved too. */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Fresh databases on the test PostgreSQL, the ports, and a data folder of its own inside the
 * repository's .data (ignored by git), where npm start keeps it by default: revisions the local
 * deployer unpacks there find their packages in the repository's node_modules, and the saved
 * snippets (`try.mts`) find the SDKs, as in a checkout.
 */
export async function freshSetup(ports: Ports): Promise<Setup> {
  mkdirSync(path.join(REPO_ROOT, ".data"), { recursive: true });
  const dataDir = mkdtempSync(path.join(REPO_ROOT, ".data", "readme-snippets-"));
  const databases: TestDatabase[] = await Promise.all([
    createEmptyDatabase("readme_cp"),
    createEmptyDatabase("readme_rt"),
  ]);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...(process.env.PYTHON ? { PYTHON: process.env.PYTHON } : {}),
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
    CONTROL_PLANE_DATABASE_URL: databases[0].url,
    DATABASE_URL: databases[1].url,
    DEPLOYMENTS_DATABASE_URL: testServerUrl(),
    DEPLOYMENTS_DIR: path.join(dataDir, "deployments"),
    UPLOADS_DIR: path.join(dataDir, "uploads"),
    // The Python environments the other tests share (services/agent-runtime/test/support/python.ts).
    PYTHON_ENVIRONMENTS_DIR: path.join(REPO_ROOT, ".data/python"),
    CONTROL_PLANE_PORT: String(ports.controlPlane),
    AGENT_RUNTIME_PORT: String(ports.runtime),
  };
  return {
    env,
    ports,
    dataDir,
    close: async () => {
      await dropDeploymentDatabases(databases[0].url, testServerUrl()).catch(() => undefined);
      await Promise.all(databases.map((database) => database.drop())).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
