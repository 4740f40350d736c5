// The platform as `npm start` runs it (scripts/start.ts: a control plane, and an agent runtime
// serving examples/ registered as deployment "local"), on fresh databases of the test PostgreSQL and
// free ports, for the console's browser tests. Its keys are read from what it prints, as a newcomer does.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { freePort } from "@lgp/server-kit";
import { createEmptyDatabase, REPO_ROOT, testServerUrl, type TestDatabase } from "@lgp/server-kit/src/testing";
import { dropDeploymentDatabases } from "../support/deployment-databases";

export interface ConsolePlatform {
  controlPlaneUrl: string;
  /** The console's address, `{controlPlaneUrl}/console/`. */
  consoleUrl: string;
  /** The control plane key npm start printed (the bootstrap tenant's). */
  apiKey: string;
  runtimeUrl: string;
  runtimeKey: string;
  /** Deployment "local": the runtime above, as the control plane knows it. */
  localDeploymentId: string;
  /** Everything npm start printed so far. */
  output(): string;
  close(): Promise<void>;
}

export interface PlatformOptions {
  /** A langgraph.json to serve instead of examples/ (`npm start -- --config`). */
  config?: string;
  /** More environment for both services. */
  env?: Record<string, string>;
}

const READY = "Ctrl-C stops everything";

function printed(output: string, label: string): string {
  const match = new RegExp(`^${label}\\s+(\\S+)`, "m").exec(output);
  if (!match) throw new Error(`npm start did not print "${label}":\n${output}`);
  return match[1];
}

export async function startConsolePlatform(options: PlatformOptions = {}): Promise<ConsolePlatform> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "console-platform-"));
  // Inside the repository, as `.data/deployments` is: a revision's JS graphs find its node_modules.
  const deploymentsDir = path.join(REPO_ROOT, ".data", `test-deployments-${path.basename(dataDir)}`);
  const [controlPlaneDb, runtimeDb]: TestDatabase[] = await Promise.all([
    createEmptyDatabase("console_cp"),
    createEmptyDatabase("console_rt"),
  ]);
  const [controlPlanePort, runtimePort] = [await freePort(), await freePort()];
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(REPO_ROOT, "scripts/start.ts"),
      ...(options.config ? ["--config", options.config] : []),
    ],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: "warn",
        DATA_DIR: dataDir,
        CONTROL_PLANE_DATABASE_URL: controlPlaneDb.url,
        DATABASE_URL: runtimeDb.url,
        DEPLOYMENTS_DATABASE_URL: testServerUrl(),
        DEPLOYMENTS_DIR: deploymentsDir,
        UPLOADS_DIR: path.join(dataDir, "uploads"),
        // The Python environments the other tests share (test/support/python.ts makes them).
        PYTHON_ENVIRONMENTS_DIR: path.join(REPO_ROOT, ".data/python"),
        CONTROL_PLANE_PORT: String(controlPlanePort),
        AGENT_RUNTIME_PORT: String(runtimePort),
        ...options.env,
      },
      detached: true,
    },
  );
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, "SIGINT");
      await exited;
    }
    await dropDeploymentDatabases(controlPlaneDb.url, testServerUrl()).catch(() => undefined);
    await Promise.all([controlPlaneDb.drop(), runtimeDb.drop()]).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(deploymentsDir, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not get ready:\n${output}`)), 150_000);
      const check = setInterval(() => {
        if (output.includes(READY)) {
          clearInterval(check);
          clearTimeout(timer);
          resolve();
        } else if (child.exitCode !== null) {
          clearInterval(check);
          clearTimeout(timer);
          reject(new Error(`npm start exited:\n${output}`));
        }
      }, 200);
    });
    const controlPlaneUrl = printed(output, "control plane");
    const apiKey = printed(output, "control plane key");
    const runtimeUrl = printed(output, "agent runtime");
    const runtimeKey = printed(output, "agent runtime key");
    const answer = await fetch(`${controlPlaneUrl}/v2/deployments?name=local`, { headers: { "X-Api-Key": apiKey } });
    const { resources } = (await answer.json()) as { resources: { id: string }[] };
    if (!resources[0]) throw new Error(`npm start registered no deployment "local":\n${output}`);
    return {
      controlPlaneUrl,
      consoleUrl: `${controlPlaneUrl}/console/`,
      apiKey,
      runtimeUrl,
      runtimeKey,
      localDeploymentId: resources[0].id,
      output: () => output,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Signs in on the console's form with the printed key; resolves on the deployments list. */
export async function signIn(page: Page, platform: ConsolePlatform): Promise<void> {
  await page.goto(platform.consoleUrl);
  await page.getByLabel("API key").fill(platform.apiKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Deployments" }).waitFor();
}

/**
 * Before a browser test: the console built (`npm ci` builds it; a checkout that skipped that is
 * built here), and the folder its screenshots go to: CONSOLE_SCREENSHOTS_DIR (`docs/console` makes
 * the README's), else a temporary one.
 */
export function prepareConsole(): string {
  if (!existsSync(path.join(REPO_ROOT, "packages/console/dist/index.html")))
    execFileSync("npm", ["run", "build", "-w", "packages/console"], { cwd: REPO_ROOT });
  const shots = process.env.CONSOLE_SCREENSHOTS_DIR
    ? path.resolve(REPO_ROOT, process.env.CONSOLE_SCREENSHOTS_DIR)
    : mkdtempSync(path.join(os.tmpdir(), "console-shots-"));
  mkdirSync(shots, { recursive: true });
  return shots;
}
