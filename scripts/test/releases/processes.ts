// A service of the previous release as a process of its own: `node --import tsx <entry>` in the
// release's tree, as its Dockerfile and `npm start` run it, on the given environment.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort, waitUntilOk } from "@lgp/server-kit";

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/** Starts `entry` (relative to the tree) and, when `serves`, waits until it answers /ok. */
export async function startServiceProcess(
  tree: string,
  entry: string,
  env: Record<string, string>,
  serves = true,
): Promise<ServiceProcess> {
  const port = await freePort();
  const output: string[] = [];
  const cwd = path.join(tree, path.dirname(path.dirname(entry)));
  const child = spawn(process.execPath, ["--import", "tsx", path.join(tree, entry)], {
    cwd,
    env: { ...process.env, LOG_LEVEL: "warn", PORT: String(port), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const name = `${path.basename(tree)}/${entry}`;
  child.stdout.on("data", (chunk) => output.push(`${name}: ${chunk}`));
  child.stderr.on("data", (chunk) => output.push(`${name}: ${chunk}`));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
  const url = `http://127.0.0.1:${port}`;
  if (serves && !(await waitUntilOk(`${url}/ok`, 60_000, () => child.exitCode === null))) {
    await stop();
    throw new Error(`${name} did not start:\n${output.join("")}`);
  }
  return { url, child, output, stop };
}
