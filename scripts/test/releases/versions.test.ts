// One version for the whole workspace, every release recorded (releases.json, CHANGELOG.md) and
// reachable in this clone, whether or not it carries tags.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { compareVersions, currentVersion, fileAt, readReleases, releaseCommit } from "../../releases/releases";

const version = currentVersion(REPO_ROOT);
const releases = readReleases(REPO_ROOT);
const read = (file: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, file), "utf8"));

test("every workspace package carries the root's version, and depends on its siblings at it", () => {
  expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  const workspaces = ["packages", "services"].flatMap((group) =>
    readdirSync(path.join(REPO_ROOT, group))
      .map((entry) => path.join(group, entry, "package.json"))
      .filter((file) => existsSync(path.join(REPO_ROOT, file))),
  );
  const lock = read("package-lock.json");
  expect([lock.version, lock.packages[""].version]).toEqual([version, version]);
  for (const file of workspaces) {
    const manifest = read(file);
    expect({ file, version: manifest.version }).toEqual({ file, version });
    expect({ file, lock: lock.packages[path.dirname(file)].version }).toEqual({ file, lock: version });
    for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }))
      if (name.startsWith("@lgp/")) expect({ file, name, range }).toEqual({ file, name, range: `^${version}` });
  }
});

test("releases.json: ascending versions, v-prefixed tags, each commit in this clone and of its version", () => {
  expect(releases.length).toBeGreaterThan(0);
  releases.forEach((release, index) => {
    expect(release.tag).toBe(`v${release.version}`);
    expect(release.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(release.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    if (index) expect(compareVersions(releases[index - 1]!.version, release.version)).toBeLessThan(0);
    const { commit } = releaseCommit(REPO_ROOT, release);
    // The release's own commit says its version (0.1.0 was made before releases were kept: it said 0.1.0 too).
    expect(JSON.parse(fileAt(REPO_ROOT, commit, "package.json")).version).toBe(release.version);
  });
  expect(compareVersions(releases.at(-1)!.version, version)).toBeLessThanOrEqual(0);
});

test("CHANGELOG.md has an entry for every release, and one for this version (Unreleased until it is cut)", () => {
  const changelog = readFileSync(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8");
  for (const release of releases) expect(changelog).toContain(`## [${release.version}] - ${release.date}`);
  if (!releases.some((release) => release.version === version))
    expect(changelog).toMatch(new RegExp(`^## \\[(Unreleased|${version.replace(/\./g, "\\.")})\\]`, "m"));
});

test("a release is found by its recorded commit in a clone without its tag", () => {
  const release = releases[0]!;
  expect(releaseCommit(REPO_ROOT, { ...release, tag: "v0.0.0-not-a-tag" })).toEqual({
    commit: release.commit,
    from: "releases.json",
  });
  expect(() => releaseCommit(REPO_ROOT, { ...release, tag: "v0.0.0-not-a-tag", commit: "0".repeat(40) })).toThrow(
    /not in this clone/,
  );
});

test("a tag that names another commit than releases.json is refused", () => {
  // A repository of its own: this clone may or may not carry the release tags (CI's fresh clones do not).
  const root = mkdtempSync(path.join(os.tmpdir(), "release-tag-"));
  try {
    const git = (...args: string[]) =>
      execFileSync(
        "git",
        ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", ...args],
        { cwd: root, encoding: "utf8" },
      );
    git("init", "-q");
    writeFileSync(path.join(root, "package.json"), '{"version":"1.0.0"}');
    git("add", "package.json");
    git("commit", "-q", "-m", "1.0.0");
    git("tag", "v1.0.0");
    const commit = git("rev-parse", "HEAD").trim();
    const recorded = { version: "1.0.0", tag: "v1.0.0", date: "2026-01-01" };
    expect(releaseCommit(root, { ...recorded, commit })).toEqual({ commit, from: "tag" });
    expect(() => releaseCommit(root, { ...recorded, commit: "0".repeat(40) })).toThrow(/one of them is wrong/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
