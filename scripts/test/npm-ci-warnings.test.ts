import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";

// The semver package in node_modules (brought by bullmq and others; it ships no types).
const semver = require("semver") as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

// `npm ci` prints no warning the README does not explain. What npm warns of is in package-lock.json:
// `EBADENGINE` for each installed package whose `engines.node` the running Node.js does not meet,
// and `npm warn deprecated` for each package the lockfile records as deprecated (npm writes the
// registry's deprecation into the lockfile when it locks a version; a deprecation announced later
// shows only when the lockfile is written again). The README's section "The two commands" names
// every such package, so this test reads both, without running npm.

interface Locked {
  version?: string;
  engines?: { node?: string } | string[];
  deprecated?: string;
  link?: boolean;
}

const lockfile = JSON.parse(readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, Locked>;
};
const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
const engines = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { engines: { node: string } }
).engines.node;

/** The installed packages of the lockfile (not the workspaces' own entries), by name. */
const installed = Object.entries(lockfile.packages)
  .filter(([key, entry]) => key.includes("node_modules/") && !entry.link)
  .map(([key, entry]) => ({ name: key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length), ...entry }));

/** The packages npm would call EBADENGINE on this Node.js version. */
function unsupportedOn(version: string): string[] {
  const names = installed
    .filter(({ engines }) => engines && !Array.isArray(engines) && engines.node)
    .filter(({ engines }) => !semver.satisfies(version, (engines as { node: string }).node))
    .map(({ name, version: locked }) => `${name}@${locked}`);
  return [...new Set(names)].sort();
}

const flat = (text: string) => text.replace(/\s+/g, " ");

/** The README's bullet that explains the EBADENGINE warnings. */
function engineBullet(): string {
  const start = readme.indexOf("- on Node 20 only, `EBADENGINE`");
  if (start < 0) throw new Error('README.md no longer has its "- on Node 20 only, `EBADENGINE`" bullet');
  const end = readme.indexOf("\n\n", start);
  return readme.slice(start, end);
}

// The supported versions, as the README states them: 24; 22 from 22.22; 20 from 20.19. The lowest
// release of each line is checked (a range that admits it admits the later ones here).
const SUPPORTED = { "24": "24.0.0", "22": "22.22.0", "20": "20.19.0" };

describe("npm ci's warnings are the ones the README explains", () => {
  it("the README and package.json state the same supported versions", () => {
    expect(flat(readme)).toContain("22 (22.22 or newer) is supported too, and 20.19 or newer");
    expect(semver.minVersion(engines)?.version).toBe(SUPPORTED["20"]);
    for (const version of Object.values(SUPPORTED)) expect(semver.satisfies(version, engines)).toBe(true);
  });

  it.each([SUPPORTED["24"], SUPPORTED["22"]])("on Node %s, no package's engines are unmet", (version) => {
    expect(unsupportedOn(version)).toEqual([]);
  });

  it("on Node 20, the README names each package whose engines are unmet, and no other", () => {
    const unmet = unsupportedOn(SUPPORTED["20"]).map((id) => id.slice(0, id.lastIndexOf("@")));
    expect(unmet.length).toBeGreaterThan(0);
    const bullet = engineBullet();
    const named = [...bullet.matchAll(/`([@a-z0-9][@a-z0-9./_-]*)`/g)]
      .map((match) => match[1])
      .filter((name) => installed.some((entry) => entry.name === name));
    expect([...new Set(named)].sort()).toEqual(unmet);
    // "for six development-only packages"
    const count = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"][unmet.length - 1];
    expect(flat(bullet)).toContain(`for ${count} development-only packages`);
  });

  it("the README names each deprecated package as npm warns of it", () => {
    const deprecated = installed.filter((entry) => entry.deprecated).map(({ name, version }) => `${name}@${version}`);
    for (const id of deprecated) expect(readme).toContain(`\`npm warn deprecated ${id}\``);
    // And names no deprecation the lockfile no longer holds.
    const warned = [...readme.matchAll(/`npm warn deprecated (\S+)`/g)].map((match) => match[1]);
    expect(warned.sort()).toEqual(deprecated.sort());
  });
});
