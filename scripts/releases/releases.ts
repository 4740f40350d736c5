// The project's releases: releases.json says each version's tag and commit; the workspace's
// package.json files say the version being made. The previous release is found by its tag when the
// clone has tags, else by the recorded commit (CI's fresh clones may carry no tags).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

export interface Release {
  version: string;
  tag: string;
  commit: string;
  date: string;
}

export class ReleaseError extends Error {}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** Negative when a < b, 0 when equal, positive when a > b (plain x.y.z versions only). */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (!pa || !pb) throw new ReleaseError(`not a version of the form x.y.z: ${pa ? b : a}`);
  for (let i = 1; i <= 3; i++) {
    const difference = Number(pa[i]) - Number(pb[i]);
    if (difference) return difference;
  }
  return 0;
}

export function readReleases(root: string): Release[] {
  const { releases } = JSON.parse(readFileSync(path.join(root, "releases.json"), "utf8")) as { releases: Release[] };
  return [...releases].sort((a, b) => compareVersions(a.version, b.version));
}

/** The version the workspace is making (the root package.json's; every workspace carries the same). */
export function currentVersion(root: string): string {
  return (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * The release a rolling upgrade from this checkout replaces: the newest one releases.json records.
 * A release's commit is recorded by the commit after it (a commit cannot hold its own hash), so at
 * a release's own commit this is still the release before it, as it should be.
 */
export function previousRelease(root: string): Release {
  const current = currentVersion(root);
  const previous = readReleases(root).at(-1);
  if (!previous) throw new ReleaseError("releases.json records no release");
  if (compareVersions(previous.version, current) > 0)
    throw new ReleaseError(`releases.json records ${previous.version}, newer than package.json's ${current}`);
  return previous;
}

function git(root: string, args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return undefined;
  }
}

/**
 * The commit a release was made from: its tag's when the clone has the tag (which must agree with
 * releases.json), else the recorded one, which a full clone holds.
 */
export function releaseCommit(root: string, release: Release): { commit: string; from: "tag" | "releases.json" } {
  const tagged = git(root, ["rev-parse", "--verify", "--quiet", `refs/tags/${release.tag}^{commit}`])?.trim();
  if (tagged) {
    if (tagged !== release.commit)
      throw new ReleaseError(
        `tag ${release.tag} is ${tagged}, releases.json says ${release.commit}: one of them is wrong`,
      );
    return { commit: tagged, from: "tag" };
  }
  if (git(root, ["cat-file", "-e", `${release.commit}^{commit}`]) === undefined)
    throw new ReleaseError(
      `commit ${release.commit} of release ${release.version} is not in this clone (a shallow clone? git fetch --unshallow, or fetch the tag ${release.tag})`,
    );
  return { commit: release.commit, from: "releases.json" };
}

/** The paths of the files a commit holds under `folder` (relative to the repository's root). */
export function filesAt(root: string, commit: string, folder: string): string[] {
  const listed = git(root, ["ls-tree", "-r", "--name-only", commit, "--", folder]);
  if (listed === undefined) throw new ReleaseError(`cannot list ${folder} at ${commit}`);
  return listed.split("\n").filter(Boolean);
}

/** A file's content at a commit, byte for byte. */
export function fileAt(root: string, commit: string, file: string): string {
  const content = git(root, ["show", `${commit}:${file}`]);
  if (content === undefined) throw new ReleaseError(`cannot read ${file} at ${commit}`);
  return content;
}
