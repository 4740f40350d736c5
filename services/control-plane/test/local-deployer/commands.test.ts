import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { runShell } from "../../src/deployers/local/commands";
import { withoutCredentials } from "../../src/deployers/local/source";

const log = { lines: [] as string[], info: (line: string) => log.lines.push(line), warn: () => {}, error: () => {} };

function processesNamed(marker: string): string {
  try {
    return execFileSync("pgrep", ["-f", marker], { encoding: "utf8" }).trim();
  } catch {
    return ""; // pgrep exits 1 when nothing matches
  }
}

describe("build commands", () => {
  it("stream their output into the revision log and answer what they printed", async () => {
    const output = await runShell("echo one; echo two", {
      cwd: tmpdir(),
      timeoutMs: 10_000,
      log,
      label: "build_command",
    });
    expect(output).toBe("one\ntwo\n");
    expect(log.lines).toEqual(expect.arrayContaining(["one", "two"]));
  });

  it("that outlive their timeout fail at once, and nothing they started is left running", async () => {
    // A distinct duration marks this test's processes for pgrep.
    const seconds = 300 + (randomBytes(1)[0] % 200);
    const marker = `sleep ${seconds}`;
    await expect(
      runShell(`${marker} & ${marker}`, { cwd: tmpdir(), timeoutMs: 1000, log, label: "install_command" }),
    ).rejects.toThrow("install_command timed out after 1s");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processesNamed(marker)).toBe("");
  });
});

describe("repository URLs in revision logs", () => {
  it("lose their user name and password, and stay as they are otherwise", () => {
    expect(withoutCredentials("https://x-token:ghp_secret@git.example/acme/agent.git")).toBe(
      "https://git.example/acme/agent.git",
    );
    expect(withoutCredentials("file:///srv/repos/agent")).toBe("file:///srv/repos/agent");
    expect(withoutCredentials("/srv/repos/agent")).toBe("/srv/repos/agent");
  });
});
