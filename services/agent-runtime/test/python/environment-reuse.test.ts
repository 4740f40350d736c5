// Projects whose dependencies resolve the same share one Python environment, whatever their
// folders are called: a second project on the examples' package reuses the examples' environment
// instead of making another (a minute or two of pip each time).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { preparePythonEnvironment } from "../../src/python/environment";
import { ENVIRONMENTS_DIR, examplesEnvironment } from "../support/python";

test("a project with the same dependencies reuses the environment another project made", async () => {
  const examples = await examplesEnvironment();
  const other = mkdtempSync(path.join(os.tmpdir(), "another-project-"));
  try {
    const lines: string[] = [];
    const reused = await preparePythonEnvironment(
      { dir: other, version: "3.11", dependencies: [path.resolve(__dirname, "../../../../examples/python")] },
      { environmentsDir: ENVIRONMENTS_DIR, basePython: process.env.PYTHON, log: (line) => lines.push(line) },
    );
    expect(reused.python).toBe(examples.python);
    expect(lines).toEqual([expect.stringMatching(/^reusing the Python environment in /)]);
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
}, 300_000);

test("an environment's console scripts run where it lies (it was made in a side folder and moved)", async () => {
  const { python } = await examplesEnvironment();
  const pip = path.join(path.dirname(python), "pip");
  expect(execFileSync(pip, ["--version"], { encoding: "utf8" })).toMatch(/^pip \d+/);
}, 300_000);
