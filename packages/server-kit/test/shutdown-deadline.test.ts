import { spawn } from "node:child_process";
import path from "node:path";

interface Exit {
  code: number | null;
  /** From the signal to the exit. */
  ms: number;
  lines: Record<string, unknown>[];
}

/** Starts the fixture, sends it SIGTERM once it is ready, and waits for it to exit. */
async function terminate(env: Record<string, string>): Promise<Exit> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "fixtures/shutdown-process.ts")], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (!output.includes("ready\n")) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the fixture did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const signalled = Date.now();
  child.kill("SIGTERM");
  const code = await exited;
  const ms = Date.now() - signalled;
  const lines = output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, ms, lines };
}

describe("a shutdown started by a signal", () => {
  it("exits with 1 at its deadline when a closer never ends, naming what it was closing", async () => {
    const { code, ms, lines } = await terminate({ HANG: "1", DEADLINE_MS: "800" });
    expect(code).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(750);
    expect(ms).toBeLessThan(10_000);
    const late = lines.find((line) => line.msg === "shutdown did not finish in time: exiting");
    expect(late).toMatchObject({
      level: 50,
      reason: "SIGTERM",
      deadlineMs: 800,
      phase: "closing a store that never answers",
    });
    expect(lines.some((line) => line.msg === "shut down")).toBe(false);
  }, 40_000);

  it("exits with 0 once its closers are done, well before the deadline", async () => {
    const { code, ms, lines } = await terminate({ DEADLINE_MS: "20000" });
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(lines.some((line) => line.msg === "shut down")).toBe(true);
    expect(lines.some((line) => line.msg === "shutdown did not finish in time: exiting")).toBe(false);
  }, 40_000);
});
