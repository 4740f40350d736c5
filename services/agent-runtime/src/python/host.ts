// The Python graph host of this process: a `python -m lgp_host` child (services/agent-runtime/python)
// that runs the project's Python graphs with the official `langgraph` library. It is started with the
// graphs, says which loaded, and is restarted when it dies: what it was running fails with a
// connection fault, so runs are handed back and resume from their last checkpoint, as after a
// worker's death. Its output and its graphs' `print`/`logging` reach this process's log.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { Duplex } from "node:stream";
import { createInterface } from "node:readline";
import type { Logger } from "@lgp/server-kit";
import { PythonChannel, PythonHostLostError, type CallHandler, type StreamItem } from "./channel";

/** The host package's source, put on the interpreter's path (its requirements are in the environment). */
export const HOST_PACKAGE_DIR = path.resolve(__dirname, "../../python");

export interface PythonGraphSpec {
  graph_id: string;
  attr: string;
  file?: string;
  module?: string;
}

/** What the host says of each graph it was given, and of langgraph.json's other Python parts. */
export interface LoadReport {
  graphs: Record<string, { factory: boolean } | { error: string }>;
  /** `auth.path`: whether it authenticates, and the names of its handlers (`threads:create`, `*`...). */
  auth?: { authenticate: boolean; handlers: string[] } | { error: string };
  /** `http.app`: its routes' path patterns (Python regular expressions) and methods. */
  app?: { routes: { pattern: string; methods: string[] | null }[] } | { error: string };
}

export interface PythonHostOptions {
  /** The environment's interpreter. */
  python: string;
  /** Folders added to the interpreter's path (a project's local dependencies that are not packages). */
  pythonPath: string[];
  /** The project's folder (the host's working directory). */
  cwd: string;
  graphs: PythonGraphSpec[];
  /** langgraph.json's `auth.path` and `http.app`, when they name Python. */
  auth?: string;
  app?: string;
  /** The deployment's database, as libpq reads it. */
  databaseUrl: string;
  poolSize: number;
  logLevel: string;
  logger: Logger;
  /** The host's calls into this process (the store). */
  onCall: CallHandler;
}

/** How long the host has to load its graphs and say so. */
const START_TIMEOUT_MS = 120_000;
/** How long a call waits for a host being restarted before it fails. */
const RESTART_WAIT_MS = 15_000;
const RESTART_FIRST_DELAY_MS = 500;
const RESTART_MAX_DELAY_MS = 30_000;
/** A host that lived this long before it died is restarted at once. */
const STABLE_MS = 60_000;

const LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal"]);
const ID_FIELDS: Record<string, string> = {
  run_id: "runId",
  thread_id: "threadId",
  graph_id: "graphId",
  assistant_id: "assistantId",
};

interface Started {
  child: ChildProcess;
  channel: PythonChannel;
  report: LoadReport;
  startedAt: number;
}

export class PythonHost {
  private current?: Started;
  /** Settles when a host (re)started; pending while one starts. */
  private starting?: Promise<Started>;
  /** The start under way, if any (close waits for it, to stop what it starts). */
  private launching?: Promise<Started>;
  private closing = false;
  private restartDelay = RESTART_FIRST_DELAY_MS;
  private restartTimer?: NodeJS.Timeout;

  private constructor(private readonly options: PythonHostOptions) {}

  /** Starts the host and waits until it has loaded its graphs. */
  static async start(options: PythonHostOptions): Promise<PythonHost> {
    const host = new PythonHost(options);
    await host.launch();
    return host;
  }

  /** What the host said of each graph at its (last) start. */
  get report(): LoadReport {
    return this.current?.report ?? { graphs: {} };
  }

  private launch(): Promise<Started> {
    const { options } = this;
    const started = new Promise<Started>((resolve, reject) => {
      const child = spawn(options.python, ["-m", "lgp_host"], {
        cwd: options.cwd,
        env: {
          ...process.env,
          PYTHONPATH: [path.join(HOST_PACKAGE_DIR, "src"), ...options.pythonPath, process.env.PYTHONPATH]
            .filter(Boolean)
            .join(path.delimiter),
          PYTHONUNBUFFERED: "1",
          PYTHONDONTWRITEBYTECODE: "1",
          LGP_GRAPHS: JSON.stringify(options.graphs),
          ...(options.auth ? { LGP_AUTH: options.auth } : {}),
          ...(options.app ? { LGP_APP: options.app } : {}),
          LGP_DATABASE_URL: options.databaseUrl,
          LGP_POOL_SIZE: String(options.poolSize),
          LGP_LOG_LEVEL: options.logLevel,
        },
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      });
      const lastLines: string[] = [];
      const output = (stream: NodeJS.ReadableStream | null, level: "info" | "error") => {
        if (!stream) return;
        createInterface({ input: stream }).on("line", (line) => {
          if (!line.trim()) return;
          lastLines.push(line);
          if (lastLines.length > 20) lastLines.shift();
          options.logger[level]({ python: level === "error" ? "stderr" : "stdout", pid: child.pid }, line);
        });
      };
      output(child.stdout, "info");
      output(child.stderr, "error");
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`the Python graph host did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      const channel = new PythonChannel(child.stdio[3] as Duplex, {
        call: options.onCall,
        frame: (header, payload) => {
          if (header.t === "log") return this.log(header, child.pid);
          if (header.t === "ready") {
            clearTimeout(timer);
            const report = JSON.parse(payload || "{}") as LoadReport;
            options.logger.info(
              { pid: child.pid, python: header.python, graphs: Object.keys(report.graphs ?? {}) },
              "Python graph host ready",
            );
            resolve({ child, channel, report, startedAt: Date.now() });
          }
        },
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot start the Python graph host (${options.python}): ${error.message}`));
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        channel.close(new PythonHostLostError(`the Python graph host exited (${signal ?? `code ${code}`})`));
        const why = lastLines.slice(-5).join(" | ");
        reject(new Error(`the Python graph host exited before it was ready (${signal ?? `code ${code}`}): ${why}`));
        if (this.current?.child === child) this.died(code, signal, why);
      });
    });
    this.starting ??= started;
    this.launching = started.then((value) => {
      this.current = value;
      if (this.closing) value.child.kill("SIGTERM");
      return value;
    });
    return this.launching;
  }

  private died(code: number | null, signal: NodeJS.Signals | null, why: string): void {
    const lived = Date.now() - (this.current?.startedAt ?? Date.now());
    this.current = undefined;
    if (this.closing) return;
    if (lived > STABLE_MS) this.restartDelay = RESTART_FIRST_DELAY_MS;
    this.options.logger.error(
      { code, signal, lastOutput: why, restartInMs: this.restartDelay },
      "the Python graph host died; its runs resume from their last checkpoint once it is back",
    );
    // Calls made meanwhile wait for the host that comes back (see channel()).
    let back!: (started: Started) => void;
    this.starting = new Promise<Started>((resolve) => (back = resolve));
    const attempt = () => {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        if (this.closing) return;
        this.launch().then(back, (error: Error) => {
          this.options.logger.error(
            { err: error, restartInMs: this.restartDelay },
            "cannot restart the Python graph host",
          );
          attempt();
        });
      }, this.restartDelay);
      this.restartDelay = Math.min(this.restartDelay * 2, RESTART_MAX_DELAY_MS);
    };
    attempt();
  }

  private log(header: Record<string, unknown>, pid: number | undefined): void {
    const level = LEVELS.has(header.level as string) ? (header.level as keyof Logger & string) : "info";
    const fields: Record<string, unknown> = { python: header.source ?? "python", pid };
    for (const [key, value] of Object.entries((header.ids as Record<string, unknown>) ?? {}))
      fields[ID_FIELDS[key] ?? key] = value;
    Object.assign(fields, header.fields ?? {});
    (this.options.logger[level] as (fields: object, message: string) => void)(fields, String(header.msg ?? ""));
  }

  /** The running host's channel, waiting a while for one being restarted. */
  private async channel(): Promise<PythonChannel> {
    if (this.current) return this.current.channel;
    if (this.closing || !this.starting) throw new PythonHostLostError();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PythonHostLostError("the Python graph host is restarting")), RESTART_WAIT_MS);
    });
    try {
      return (await Promise.race([this.starting, late])).channel;
    } finally {
      clearTimeout(timer);
    }
  }

  async call<T = unknown>(op: string, args: unknown): Promise<T> {
    return (await this.channel()).call<T>(op, args);
  }

  async *stream(op: string, args: unknown, signal?: AbortSignal): AsyncIterable<StreamItem> {
    yield* (await this.channel()).stream(op, args, signal);
  }

  /** The host's process id (tests stop it to see it come back). */
  get pid(): number | undefined {
    return this.current?.child.pid;
  }

  /** Stops the host: SIGTERM, then SIGKILL if it is still there after a few seconds. */
  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.restartTimer);
    await this.launching?.catch(() => undefined);
    const child = this.current?.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
