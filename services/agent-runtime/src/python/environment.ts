// The Python environment a project's Python graphs run in: a virtual environment with the graph
// host's requirements and the project's `dependencies` (langgraph.json), made once per distinct
// set of them (a hash names it) and reused afterwards. Made with the machine's Python (PYTHON, or
// the `python_version` the project asks for), pip's output passed on line by line.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { ConfigError } from "@lgp/server-kit";
import type { GraphProject } from "../graphs/config";
import { HOST_PACKAGE_DIR } from "./host";
import { retargetScripts } from "./scripts";

/** What of langgraph.json shapes the environment. */
export interface PythonProjectSettings {
  /** The folder of langgraph.json (dependencies are relative to it). */
  dir: string;
  /** `python_version`: the lowest Python the project runs on ("3.11" when unset, as the official CLI). */
  version: string;
  dependencies: string[];
  pipConfigFile?: string;
}

export interface PythonEnvironment {
  /** The environment's interpreter. */
  python: string;
  /** Local dependencies that are not packages: put on the interpreter's path. */
  pythonPath: string[];
}

const MARKER = ".lgp-environment.json";
const DEFAULT_VERSION = "3.11";
const PACKAGE_FILES = ["pyproject.toml", "setup.py", "setup.cfg"];

export function pythonProjectOf(project: GraphProject): PythonProjectSettings {
  const json = project.json as { python_version?: unknown; dependencies?: unknown; pip_config_file?: unknown };
  const dir = path.dirname(project.configPath);
  return {
    dir,
    version: typeof json.python_version === "string" ? json.python_version : DEFAULT_VERSION,
    dependencies: Array.isArray(json.dependencies) ? json.dependencies.filter((d) => typeof d === "string") : ["."],
    pipConfigFile: typeof json.pip_config_file === "string" ? path.resolve(dir, json.pip_config_file) : undefined,
  };
}

function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; onLine?: (line: string) => void } = {},
): Promise<{ code: number | null; output: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => {
        output.push(line);
        if (output.length > 200) output.shift();
        options.onLine?.(line);
      });
    }
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

const versionKey = (version: number[]) => version[0] * 1000 + (version[1] ?? 0);

/** The interpreter to make environments with: PYTHON, else `python<version>` or `python3`, whichever is recent enough. */
export async function findBasePython(
  wanted: string,
  configured?: string,
): Promise<{ python: string; version: string }> {
  const need = wanted.split(".").map(Number);
  const candidates = configured ? [configured] : [`python${need[0]}.${need[1] ?? 0}`, "python3", "python"];
  const found: string[] = [];
  for (const candidate of candidates) {
    let answer;
    try {
      answer = await run(candidate, ["-c", "import sys; print('.'.join(map(str, sys.version_info[:3])))"]);
    } catch {
      continue;
    }
    const version = answer.output.at(-1)?.trim() ?? "";
    if (answer.code !== 0 || !/^\d+\.\d+\.\d+$/.test(version)) continue;
    if (versionKey(version.split(".").map(Number)) >= versionKey(need)) return { python: candidate, version };
    found.push(`${candidate} is ${version}`);
  }
  throw new ConfigError(
    `Python graphs need Python ${wanted} or newer (the project's python_version) and ` +
      `${found.length ? found.join(", ") : `no ${candidates.join(" or ")} was found`}: install it ` +
      "(Debian and Ubuntu: apt-get install python3 python3-venv) or set PYTHON to its interpreter",
  );
}

interface PipPlan {
  args: string[];
  pythonPath: string[];
  /** What the environment depends on, for its hash. */
  fingerprint: unknown[];
}

function readIfThere(file: string): string | null {
  return existsSync(file) ? readFileSync(file, "utf8") : null;
}

/** A local dependency's folder and its extras (`.[test]`: the folder's package with its `test` extra). */
function localDependency(base: string, dependency: string): { dir: string; extras: string } {
  const [, folder, extras] = /^(.*?)(\[[\w,.-]+\])?$/.exec(dependency)!;
  return { dir: path.resolve(base, folder), extras: extras ?? "" };
}

/** pip's arguments for the host's requirements and the project's dependencies. */
function pipPlan(settings: PythonProjectSettings): PipPlan {
  const constraints = path.join(HOST_PACKAGE_DIR, "constraints.txt");
  const args = ["-c", constraints];
  const pythonPath: string[] = [];
  // The host's own package, unless the project is that package (its tests' environment).
  const local = settings.dependencies.filter((dependency) => /^[./]/.test(dependency));
  if (!local.some((dependency) => localDependency(settings.dir, dependency).dir === HOST_PACKAGE_DIR))
    args.push("-e", HOST_PACKAGE_DIR);
  const fingerprint: unknown[] = [
    readIfThere(path.join(HOST_PACKAGE_DIR, "pyproject.toml")),
    readIfThere(constraints),
    settings.pipConfigFile ? readIfThere(settings.pipConfigFile) : null,
  ];
  for (const dependency of settings.dependencies) {
    if (/^[./]/.test(dependency)) {
      const { dir, extras } = localDependency(settings.dir, dependency);
      if (!existsSync(dir)) throw new ConfigError(`langgraph.json dependency "${dependency}": ${dir} does not exist`);
      const files = PACKAGE_FILES.map((file) => readIfThere(path.join(dir, file)));
      const requirements = readIfThere(path.join(dir, "requirements.txt"));
      fingerprint.push(dir, extras, files, requirements);
      if (files.some((file) => file !== null)) args.push("-e", `${dir}${extras}`);
      else {
        // A folder of modules (and its requirements, if any), as the official CLI takes it.
        pythonPath.push(dir);
        if (requirements !== null) args.push("-r", path.join(dir, "requirements.txt"));
      }
    } else {
      args.push(dependency);
      fingerprint.push(dependency);
    }
  }
  return { args, pythonPath, fingerprint };
}

/** The project's local dependencies that are not packages (for an environment made elsewhere). */
export function localPythonPath(settings: PythonProjectSettings): string[] {
  return pipPlan(settings).pythonPath;
}

export interface PrepareOptions {
  /** PYTHON: the interpreter environments are made with. */
  basePython?: string;
  /** Where environments are kept. */
  environmentsDir: string;
  /** Progress, a line at a time. */
  log: (line: string) => void;
}

/** The project's environment: reused when one was made for the same requirements, made otherwise. */
export async function preparePythonEnvironment(
  settings: PythonProjectSettings,
  options: PrepareOptions,
): Promise<PythonEnvironment> {
  const base = await findBasePython(settings.version, options.basePython);
  const plan = pipPlan(settings);
  const hash = createHash("sha256")
    // What the dependencies resolve to, not how they are written: two projects that depend on the
    // same folders and packages share an environment.
    .update(JSON.stringify([base.version, plan.fingerprint]))
    .digest("hex")
    .slice(0, 16);
  const name = path.basename(settings.dir).replace(/[^\w.-]/g, "_") || "project";
  const dir = path.join(path.resolve(options.environmentsDir), `${name}-${hash}`);
  const python = path.join(dir, "bin", "python");
  // Its own, or one another project made for the same hash (named after that project).
  const named = await readdir(path.resolve(options.environmentsDir)).catch(() => [] as string[]);
  const candidates = [
    dir,
    ...named
      .filter((entry) => entry.endsWith(`-${hash}`))
      .map((entry) => path.join(path.resolve(options.environmentsDir), entry)),
  ];
  for (const candidate of candidates) {
    const existing = await readFile(path.join(candidate, MARKER), "utf8").catch(() => undefined);
    const interpreter = path.join(candidate, "bin", "python");
    if (existing && (JSON.parse(existing) as { hash?: string }).hash === hash && existsSync(interpreter)) {
      await retargetScripts(candidate, candidate); // one an earlier version made may name its side folder
      options.log(`reusing the Python environment in ${candidate}`);
      return { python: interpreter, pythonPath: plan.pythonPath };
    }
  }
  const began = Date.now();
  // Made aside and moved into place once complete: a process that stops half-way leaves no
  // environment that looks ready, and two that make it at once both end with a whole one.
  const building = `${dir}.building-${process.pid}-${randomBytes(3).toString("hex")}`;
  options.log(
    `creating the Python environment of ${settings.dir} in ${dir} with ${base.python} (Python ${base.version}); ` +
      "this takes a minute or two the first time",
  );
  await mkdir(path.dirname(dir), { recursive: true });
  try {
    const venv = await run(base.python, ["-m", "venv", building]);
    if (venv.code !== 0)
      throw new ConfigError(
        `cannot create a virtual environment with ${base.python} (${venv.output.slice(-2).join(" ")}): ` +
          "install its venv module (Debian and Ubuntu: apt-get install python3-venv)",
      );
    const env: NodeJS.ProcessEnv = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" };
    if (settings.pipConfigFile) env.PIP_CONFIG_FILE = settings.pipConfigFile;
    const pip = await run(
      path.join(building, "bin", "python"),
      ["-m", "pip", "install", "--progress-bar", "off", ...plan.args],
      { env, cwd: settings.dir, onLine: (line) => options.log(`pip: ${line}`) },
    );
    if (pip.code !== 0)
      throw new ConfigError(
        `cannot install the Python graphs' dependencies (pip exited with code ${pip.code}): ` +
          (pip.output
            .filter((line) => /error/i.test(line))
            .slice(-3)
            .join(" ") || pip.output.slice(-3).join(" ")),
      );
    await retargetScripts(building, dir);
    await writeFile(
      path.join(building, MARKER),
      JSON.stringify({
        hash,
        python: base.version,
        dependencies: settings.dependencies,
        made: new Date().toISOString(),
      }),
    );
    // Another process may have moved a whole one in meanwhile: that one serves, and is in use.
    const ready = await readFile(path.join(dir, MARKER), "utf8").catch(() => undefined);
    if (!ready || (JSON.parse(ready) as { hash?: string }).hash !== hash) {
      await rm(dir, { recursive: true, force: true });
      await rename(building, dir);
    }
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  options.log(`Python environment ready in ${((Date.now() - began) / 1000).toFixed(0)} s`);
  return { python, pythonPath: plan.pythonPath };
}
