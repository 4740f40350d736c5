// examples/ as a git repository (what the local deployer clones), with a second commit on branch
// `second`, for the tests that deploy the example project.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";

export function git(args: string[], cwd: string): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  }).trim();
}

/** Copies examples/ to `<dir>/example-repo` and commits it: answers its path and both commits. */
export function exampleRepo(dir: string): { repo: string; firstSha: string; secondSha: string } {
  const repo = path.join(dir, "example-repo");
  mkdirSync(repo, { recursive: true });
  cpSync(path.join(REPO_ROOT, "examples"), repo, {
    recursive: true,
    filter: (item) => path.basename(item) !== "node_modules",
  });
  git(["init", "--quiet", "--initial-branch=main"], repo);
  git(["add", "."], repo);
  git(["commit", "--quiet", "-m", "example"], repo);
  const firstSha = git(["rev-parse", "HEAD"], repo);
  git(["checkout", "--quiet", "-b", "second"], repo);
  writeFileSync(path.join(repo, "NOTES.md"), "second revision\n");
  git(["add", "."], repo);
  git(["commit", "--quiet", "-m", "second"], repo);
  const secondSha = git(["rev-parse", "HEAD"], repo);
  git(["checkout", "--quiet", "main"], repo);
  return { repo, firstSha, secondSha };
}
