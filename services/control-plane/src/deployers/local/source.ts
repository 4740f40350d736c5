import { cpSync, existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { DeployerError, type RevisionLog } from "../deployer";
import { runCommand } from "./commands";

const GIT_TIMEOUT_MS = 5 * 60_000;

function git(args: string[], cwd: string, log: RevisionLog, label: string): Promise<string> {
  // No prompts for credentials: a private remote fails instead of hanging.
  return runCommand("git", args, {
    cwd,
    timeoutMs: GIT_TIMEOUT_MS,
    log,
    label,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", GIT_TERMINAL_PROMPT: "0" },
  });
}

/**
 * Clones `repoUrl` (a local path, a file:// URL, or any remote git can reach) into `dir` and checks
 * out `ref` (a branch, a tag, `refs/...` or a commit; default the remote's HEAD). Answers the
 * commit sha.
 */
export async function checkout(
  repoUrl: string,
  ref: string | null,
  dir: string,
  log: RevisionLog,
  pinnedSha: string | null = null,
): Promise<string> {
  const shown = withoutCredentials(repoUrl);
  if (repoUrl.startsWith("-")) throw new DeployerError(`repo_url ${shown} is not a repository location`);
  if (ref?.startsWith("-")) throw new DeployerError(`repo_ref ${ref} is not a git ref`);
  if (pinnedSha && !/^[0-9a-f]{7,64}$/i.test(pinnedSha)) throw new DeployerError(`${pinnedSha} is not a commit sha`);
  mkdirSync(path.dirname(dir), { recursive: true });
  log.info(`cloning ${shown}`);
  await git(["clone", "--quiet", "--no-checkout", "--", repoUrl, dir], path.dirname(dir), log, "git clone");
  const quiet: RevisionLog = { info: () => {}, warn: () => {}, error: () => {} };
  let sha: string | null = null;
  const candidates = pinnedSha ? [pinnedSha] : ref ? [`origin/${ref}`, ref] : ["HEAD"];
  for (const candidate of candidates) {
    try {
      sha = (
        await git(["rev-parse", "--verify", "--quiet", `${candidate}^{commit}`], dir, quiet, "git rev-parse")
      ).trim();
      break;
    } catch {
      // try the next form of the ref
    }
  }
  if (!sha)
    throw new DeployerError(`${pinnedSha ? `commit ${pinnedSha}` : `repo_ref ${ref}`} was not found in ${shown}`);
  await git(["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", sha], dir, log, "git checkout");
  log.info(`checked out ${ref ?? "HEAD"} at ${sha}`);
  return sha;
}

/** Copies a source directory, or unpacks a tarball, into `dir`. */
export async function unpackSource(sourcePath: string, dir: string, log: RevisionLog): Promise<void> {
  if (!existsSync(sourcePath)) throw new DeployerError(`source_tarball_path ${sourcePath} does not exist`);
  mkdirSync(dir, { recursive: true });
  if (statSync(sourcePath).isDirectory()) {
    log.info(`copying the source directory ${sourcePath}`);
    cpSync(sourcePath, dir, {
      recursive: true,
      filter: (item) => !["node_modules", ".git"].includes(path.basename(item)),
    });
    return;
  }
  log.info(`unpacking ${sourcePath}`);
  await runCommand("tar", ["-xf", sourcePath, "-C", dir], {
    cwd: dir,
    timeoutMs: GIT_TIMEOUT_MS,
    log,
    label: "unpacking the source",
  });
}

/** A URL as it may appear in a revision log: without a user name or password (tokens ride there). */
export function withoutCredentials(repoUrl: string): string {
  if (!URL.canParse(repoUrl)) return repoUrl;
  const url = new URL(repoUrl);
  if (!url.username && !url.password) return repoUrl;
  url.username = "";
  url.password = "";
  return url.toString();
}
