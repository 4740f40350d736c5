// A release's source, runnable beside this checkout: extracted with `git archive` into a temporary
// folder outside the repository, its dependencies linked from this checkout's node_modules when
// this lockfile pins every third-party package the release's does, at the same version (else
// installed once with `npm ci` and kept under .data/releases/<commit>), its own workspace packages
// linked from its own tree, and its Prisma clients generated from its own schema.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface ReleaseTree {
  dir: string;
  /** Where its third-party packages come from: this checkout's node_modules or a cached `npm ci`. */
  dependencies: "linked" | "installed";
  remove(): void;
}

interface Lockfile {
  packages: Record<string, { link?: boolean; version?: string; integrity?: string }>;
}

/** The third-party packages a lockfile installs, by install path: version and integrity. */
function thirdPartyPins(lockfile: string): Map<string, string> {
  const { packages } = JSON.parse(readFileSync(lockfile, "utf8")) as Lockfile;
  return new Map(
    Object.entries(packages)
      .filter(([key, entry]) => key.startsWith("node_modules/") && !entry.link)
      .map(([key, entry]) => [key, `${entry.version}@${entry.integrity}`]),
  );
}

/**
 * Whether this checkout's node_modules serves the release as its own would: every package the
 * release installs is here, at the same place and version. Packages added since are never imported
 * by the release's code.
 */
function sameDependencies(releaseLock: string, ownLock: string): boolean {
  const own = thirdPartyPins(ownLock);
  return [...thirdPartyPins(releaseLock)].every(([key, pin]) => own.get(key) === pin);
}

/** The workspace folders of a tree (packages/*, services/* with a package.json) by package name. */
function workspacesOf(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const group of ["packages", "services"]) {
    const groupDir = path.join(dir, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir)) {
      const manifest = path.join(groupDir, entry, "package.json");
      if (!existsSync(manifest)) continue;
      found.set((JSON.parse(readFileSync(manifest, "utf8")) as { name: string }).name, path.join(group, entry));
    }
  }
  return found;
}

/** `npm ci` of a release's lockfile, once per commit, kept under .data/releases/<commit>. */
export function installedModules(root: string, tree: string, commit: string, log: (line: string) => void): string {
  const cache = path.join(root, ".data/releases", commit);
  const done = path.join(cache, ".installed");
  if (existsSync(done)) return path.join(cache, "node_modules");
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  for (const file of ["package.json", "package-lock.json"])
    writeFileSync(path.join(cache, file), readFileSync(path.join(tree, file)));
  for (const folder of workspacesOf(tree).values()) {
    mkdirSync(path.join(cache, folder), { recursive: true });
    writeFileSync(path.join(cache, folder, "package.json"), readFileSync(path.join(tree, folder, "package.json")));
  }
  log(`installing the dependencies of ${commit.slice(0, 7)} (npm ci, once: kept in ${path.relative(root, cache)})`);
  // Install scripts are not needed to serve (Prisma clients are generated below, the console not built).
  execFileSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: cache,
    stdio: ["ignore", "ignore", "inherit"],
  });
  writeFileSync(done, new Date().toISOString());
  return path.join(cache, "node_modules");
}

/** Extracts `commit` and makes it runnable; `log` hears the slow steps. */
export function prepareReleaseTree(root: string, commit: string, log: (line: string) => void = () => {}): ReleaseTree {
  const dir = mkdtempSync(path.join(tmpdir(), `lgp-release-${commit.slice(0, 7)}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const archive = path.join(dir, ".source.tar");
    execFileSync("git", ["archive", "--format=tar", "-o", archive, commit], { cwd: root });
    execFileSync("tar", ["-xf", archive, "-C", dir]);
    rmSync(archive);

    const same = sameDependencies(path.join(dir, "package-lock.json"), path.join(root, "package-lock.json"));
    const modules = same ? path.join(root, "node_modules") : installedModules(root, dir, commit, log);
    // Every third-party package linked; the release's own packages (@lgp/*) from its own tree, never
    // this checkout's (Node resolves a linked package's own imports from where it really lies).
    const own = workspacesOf(dir);
    const scopes = new Set([...own.keys()].filter((name) => name.includes("/")).map((name) => name.split("/")[0]!));
    mkdirSync(path.join(dir, "node_modules"));
    for (const entry of readdirSync(modules)) {
      if (scopes.has(entry) || own.has(entry) || entry === ".package-lock.json") continue;
      symlinkSync(path.join(modules, entry), path.join(dir, "node_modules", entry));
    }
    for (const scope of scopes) {
      mkdirSync(path.join(dir, "node_modules", scope));
      for (const entry of existsSync(path.join(modules, scope)) ? readdirSync(path.join(modules, scope)) : []) {
        if (!own.has(`${scope}/${entry}`))
          symlinkSync(path.join(modules, scope, entry), path.join(dir, "node_modules", scope, entry));
      }
    }
    for (const [name, folder] of own) symlinkSync(path.join(dir, folder), path.join(dir, "node_modules", name));

    execFileSync(process.execPath, ["--import", "tsx", "scripts/prisma-generate.ts"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    return { dir, dependencies: same ? "linked" : "installed", remove };
  } catch (error) {
    remove();
    throw error;
  }
}
