// `prepare.ts <langgraph.json> [--environments-dir <dir>] [--if-needed]`: makes (or finds made) the
// Python environment of a project's Python graphs, printing pip's output as it goes, and prints the
// environment's interpreter on its last line as `python: <path>`. What a deployer runs at build
// time: the local deployer once per revision (the runtime is then started with LANGGRAPH_PYTHON),
// a Kubernetes source revision's init container (`--if-needed`: nothing for a project without
// Python; the runtime then finds the environment in PYTHON_ENVIRONMENTS_DIR).
import path from "node:path";
import { readGraphProject } from "../graphs/config";
import { preparePythonEnvironment, pythonProjectOf } from "./environment";
import { pythonExportsOf } from "./graphs";

async function main(argv: string[]): Promise<void> {
  const config = argv[0];
  if (!config) throw new Error("usage: prepare.ts <langgraph.json> [--environments-dir <dir>]");
  const flag = argv.indexOf("--environments-dir");
  const environmentsDir = flag >= 0 ? argv[flag + 1] : path.join(path.dirname(path.resolve(config)), ".python");
  if (!environmentsDir) throw new Error("--environments-dir needs a folder");
  const project = readGraphProject(path.resolve(config));
  const python = project.entries.some((entry) => entry.language === "python") || pythonExportsOf(project).length > 0;
  if (!python && argv.includes("--if-needed")) {
    process.stdout.write("the project has no Python graphs: no Python environment to make\n");
    return;
  }
  const environment = await preparePythonEnvironment(pythonProjectOf(project), {
    basePython: process.env.PYTHON,
    environmentsDir,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`python: ${environment.python}\n`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
