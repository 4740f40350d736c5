// `prepare.ts <langgraph.json> [--environments-dir <dir>]`: makes (or finds made) the Python
// environment of a project's Python graphs, printing pip's output as it goes, and prints the
// environment's interpreter on its last line as `python: <path>`. What a deployer runs at build
// time (the local deployer, once per revision); the runtime is then started with LANGGRAPH_PYTHON.
import path from "node:path";
import { readGraphProject } from "../graphs/config";
import { preparePythonEnvironment, pythonProjectOf } from "./environment";

async function main(argv: string[]): Promise<void> {
  const config = argv[0];
  if (!config) throw new Error("usage: prepare.ts <langgraph.json> [--environments-dir <dir>]");
  const flag = argv.indexOf("--environments-dir");
  const environmentsDir = flag >= 0 ? argv[flag + 1] : path.join(path.dirname(path.resolve(config)), ".python");
  if (!environmentsDir) throw new Error("--environments-dir needs a folder");
  const environment = await preparePythonEnvironment(pythonProjectOf(readGraphProject(path.resolve(config))), {
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
