import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { waitUntilOk, type Logger } from "@lgp/server-kit";
import { DeployerError, type RevisionLog, type RuntimeLogSink } from "../deployer";
import { forEachLine } from "./commands";

interface Running {
  child: ChildProcess;
  deploymentId: string;
  url: string;
  exited: Promise<void>;
}

/**
 * The agent runtime processes of the local deployer, one per deployed revision. A pid file next to
 * each revision's source lets a control plane that was restarted stop a process it did not start.
 */
export class RuntimeProcesses {
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly logger: Logger,
    /** Command line that identifies our runtime processes (to never signal an unrelated pid). */
    private readonly marker: string,
  ) {}

  async start(options: {
    revisionId: string;
    deploymentId: string;
    command: string;
    args: string[];
    cwd: string;
    env: Record<string, string>;
    url: string;
    pidFile: string;
    timeoutMs: number;
    log: RevisionLog;
    /** Where the runtime's own output goes, from its first line (without it: start-up lines to `log`). */
    output?: RuntimeLogSink;
  }): Promise<void> {
    const { log } = options;
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let ready = false;
    let logged = 0;
    const tail: string[] = [];
    const onLine = (stream: "stdout" | "stderr") => (line: string) => {
      tail.push(line);
      if (tail.length > 10) tail.shift();
      if (options.output) return options.output.line(stream, line);
      // Without a sink: start-up output to the deploy log, later output to the control plane's log.
      if (!ready && logged++ < 200) log[stream === "stdout" ? "info" : "warn"](line);
      else this.logger.debug({ revision_id: options.revisionId, line }, "agent runtime output");
    };
    forEachLine(child.stdout!, onLine("stdout"));
    forEachLine(child.stderr!, onLine("stderr"));
    let exitCode: number | string | null = null;
    const exited = new Promise<void>((resolve) => {
      child.once("exit", (code, signal) => {
        exitCode = signal ?? code;
        this.running.delete(options.revisionId);
        rmSync(options.pidFile, { force: true });
        void options.output?.close();
        resolve();
      });
      child.once("error", (error) => {
        exitCode = error.message;
        resolve();
      });
    });
    if (child.pid) writeFileSync(options.pidFile, String(child.pid));
    this.running.set(options.revisionId, { child, deploymentId: options.deploymentId, url: options.url, exited });
    log.info(`started the agent runtime (pid ${child.pid}) at ${options.url}`);
    const ok = await waitUntilOk(`${options.url}/ok`, options.timeoutMs, () => exitCode === null);
    if (!ok) {
      const why =
        exitCode !== null
          ? `the agent runtime exited (${exitCode}) before it was ready`
          : `the agent runtime did not answer /ok within ${Math.round(options.timeoutMs / 1000)}s`;
      await this.stop(options.revisionId, options.pidFile);
      throw new DeployerError(`${why}${tail.length ? `: ${tail.slice(-3).join(" | ")}` : ""}`);
    }
    ready = true;
    log.info("the agent runtime answers /ok");
  }

  url(revisionId: string): string | null {
    return this.running.get(revisionId)?.url ?? null;
  }

  /** Stops a revision's process: SIGTERM, then SIGKILL after a grace period. */
  async stop(revisionId: string, pidFile: string, graceMs = 10_000): Promise<boolean> {
    const entry = this.running.get(revisionId);
    if (entry) {
      entry.child.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const killed = await Promise.race([
        entry.exited.then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (!killed) {
        entry.child.kill("SIGKILL");
        await entry.exited;
      }
      return true;
    }
    return this.stopOrphan(pidFile, graceMs);
  }

  /** A process a previous control plane started (pid file), if it is still our runtime. */
  private async stopOrphan(pidFile: string, graceMs: number): Promise<boolean> {
    if (!existsSync(pidFile)) return false;
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    rmSync(pidFile, { force: true });
    if (!Number.isInteger(pid) || pid <= 1 || !isOurs(pid, this.marker)) return false;
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      return false;
    }
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && isAlive(pid)) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) process.kill(pid, "SIGKILL");
    return true;
  }

  revisionsOf(deploymentId: string): string[] {
    return [...this.running.entries()].filter(([, entry]) => entry.deploymentId === deploymentId).map(([id]) => id);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.stop(id, "/nonexistent")));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function isOurs(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
  } catch {
    return false;
  }
}
