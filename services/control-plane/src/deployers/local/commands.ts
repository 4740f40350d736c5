import { spawn } from "node:child_process";
import { DeployerError, type RevisionLog } from "../deployer";

/** Variables a build or runtime process inherits from the control plane; nothing else (no keys). */
const INHERITED_ENV = [
  "PATH",
  "HOME",
  "TMPDIR",
  "LANG",
  "LC_ALL",
  "TZ",
  "NODE_EXTRA_CA_CERTS",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "npm_config_cache",
  "npm_config_registry",
  // Python graphs: the interpreter environments are made with, and where pip finds packages.
  "PYTHON",
  "PIP_INDEX_URL",
  "PIP_EXTRA_INDEX_URL",
  "PIP_TRUSTED_HOST",
  "PIP_CACHE_DIR",
];

export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** Splits a stream into lines and hands each to `onLine`. */
export function forEachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const lines = (rest + chunk).split(/\r?\n/);
    rest = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) onLine(line);
  });
  stream.on("end", () => {
    if (rest.trim()) onLine(rest);
  });
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs: number;
  log: RevisionLog;
  /** What the step is called in log lines and errors ("install_command"). */
  label: string;
}

/**
 * Runs a command and streams its output into the revision log. A non-zero exit or a timeout is a
 * DeployerError naming the step, the exit code and the last output lines.
 */
export function runCommand(file: string, args: string[], options: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? baseEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so a timeout can end everything the command started.
      detached: true,
    });
    const tail: string[] = [];
    let stdout = "";
    const keep = (line: string) => {
      tail.push(line);
      if (tail.length > 20) tail.shift();
    };
    forEachLine(child.stdout!, (line) => {
      stdout += `${line}\n`;
      keep(line);
      options.log.info(line);
    });
    forEachLine(child.stderr!, (line) => {
      keep(line);
      options.log.warn(line);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The whole group: `sh -c "npm ci && ..."` leaves its children (holding our pipes) otherwise.
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      // Settle now: a grandchild that escaped the group may keep the pipes open.
      child.stdout?.destroy();
      child.stderr?.destroy();
      reject(new DeployerError(`${options.label} timed out after ${Math.round(options.timeoutMs / 1000)}s`));
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new DeployerError(`${options.label} could not start: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return; // already rejected
      if (code === 0) return resolve(stdout);
      const last = tail.slice(-5).join(" | ");
      reject(
        new DeployerError(
          `${options.label} failed (${signal ? `signal ${signal}` : `exit code ${code}`})${last ? `: ${last}` : ""}`,
        ),
      );
    });
  });
}

/** A shell command of the deployment (install_command, build_command). */
export function runShell(command: string, options: RunOptions): Promise<string> {
  options.log.info(`$ ${command}`);
  return runCommand("sh", ["-c", command], options);
}
