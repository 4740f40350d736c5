// The Python environments the tests use, made as the runtime makes them (and reused by it):
// - the examples' (examples/python), which the runtime serving them makes itself;
// - the test clients' (the graph host package with its `test` extra: pytest, the checkpoint
//   conformance suite, the official Python SDK and CLI).
// `.ci/run` makes both before `npm test` (`npx tsx services/agent-runtime/test/support/python.ts`),
// so test files running in parallel do not make them at once. With `--clients`, it prints only the
// test clients' interpreter (what the control plane's tests run the official Python CLI with).
import path from "node:path";
import { readGraphProject } from "../../src/graphs/config";
import { preparePythonEnvironment, pythonProjectOf, type PythonEnvironment } from "../../src/python/environment";
import { HOST_PACKAGE_DIR } from "../../src/python/host";
import { PYTHON_EXAMPLES_CONFIG } from "./harness";

/** Where the runtime keeps the environments it makes (its PYTHON_ENVIRONMENTS_DIR default). */
export const ENVIRONMENTS_DIR = path.resolve(__dirname, "../../../../.data/python");

const quiet = () => undefined;

export function examplesEnvironment(log: (line: string) => void = quiet): Promise<PythonEnvironment> {
  return preparePythonEnvironment(pythonProjectOf(readGraphProject(PYTHON_EXAMPLES_CONFIG)), {
    environmentsDir: ENVIRONMENTS_DIR,
    basePython: process.env.PYTHON,
    log,
  });
}

export function testClientsEnvironment(log: (line: string) => void = quiet): Promise<PythonEnvironment> {
  return preparePythonEnvironment(
    { dir: HOST_PACKAGE_DIR, version: "3.11", dependencies: [".[test]"] },
    { environmentsDir: ENVIRONMENTS_DIR, basePython: process.env.PYTHON, log },
  );
}

if (require.main === module) {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const work = process.argv.includes("--clients")
    ? testClientsEnvironment().then(({ python }) => log(python))
    : examplesEnvironment(log).then(() => testClientsEnvironment(log));
  work.catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}
