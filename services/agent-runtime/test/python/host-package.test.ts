// The Python graph host's own tests (services/agent-runtime/python/tests, pytest), in an environment
// made as the runtime makes one (with the package's `test` extra), against a database this
// runtime migrated: among them the official conformance suite for Python checkpointers
// (`langgraph-checkpoint-conformance`), run on the checkpointer Python graphs use here.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { HOST_PACKAGE_DIR } from "../../src/python/host";
import { libpqUrl } from "../../src/python/graphs";
import { startTestRuntime, type RunningRuntime } from "../support/harness";
import { testClientsEnvironment } from "../support/python";

let runtime: RunningRuntime | undefined;
afterAll(async () => {
  await runtime?.close();
});

test("the host package's pytest suite passes, the checkpointer conformance suite among it", async () => {
  runtime = await startTestRuntime({ workers: 0 });
  const environment = await testClientsEnvironment();
  const result = await promisify(execFile)(
    environment.python,
    ["-m", "pytest", "-v", "-p", "no:cacheprovider", "-rs"],
    {
      cwd: HOST_PACKAGE_DIR,
      env: { ...process.env, LGP_TEST_DATABASE_URL: libpqUrl(runtime.config.DATABASE_URL) },
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`pytest failed:\n${error.stdout ?? ""}\n${error.stderr ?? error.message}`);
  });
  const summary = result.stdout.trim().split("\n").at(-1) ?? "";
  expect(summary).toMatch(/^=+ \d+ passed in /);
  expect(Number(/(\d+) passed/.exec(summary)![1])).toBeGreaterThanOrEqual(11);
  // The conformance suite ran (not skipped for want of a database) and passed.
  expect(result.stdout).toMatch(
    /test_conformance\.py::test_the_hosts_checkpointer_passes_the_conformance_suite PASSED/,
  );
}, 600_000);
