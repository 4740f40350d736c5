// `npm run release:version -- X.Y.Z`: sets one version on the whole workspace: every package.json,
// the `@lgp/*` dependency ranges (^X.Y.Z) and the lockfile's entries for them, and nothing else of
// the lockfile (`npm version --workspaces` cannot: it looks the siblings' new ranges up in the
// registry); and the images the production Kubernetes overlay pins.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compareVersions, currentVersion } from "./releases";

const root = path.resolve(__dirname, "../..");

/** Replaces JSON text by pattern, so the files keep their formatting and key order. */
function edit(file: string, change: (text: string) => string): void {
  const full = path.join(root, file);
  writeFileSync(full, change(readFileSync(full, "utf8")));
}

function main(): void {
  const version = process.argv[2] ?? "";
  const current = currentVersion(root);
  if (!/^\d+\.\d+\.\d+$/.test(version) || compareVersions(version, current) <= 0) {
    console.error(`usage: npm run release:version -- X.Y.Z (a version after ${current})`);
    process.exit(1);
  }
  const folders = ["packages", "services"].flatMap((group) =>
    readdirSync(path.join(root, group))
      .map((entry) => `${group}/${entry}`)
      .filter((folder) => existsSync(path.join(root, folder, "package.json"))),
  );
  const names = new Set(
    folders.map((folder) => JSON.parse(readFileSync(path.join(root, folder, "package.json"), "utf8")).name as string),
  );
  const ranges = (text: string) =>
    text.replace(/("(@lgp\/[\w-]+)": ")\^?[\d.]+(")/g, (all, head: string, name: string, tail: string) =>
      names.has(name) ? `${head}^${version}${tail}` : all,
    );
  for (const folder of ["", ...folders]) {
    edit(path.join(folder, "package.json"), (text) =>
      ranges(text.replace(/^( {2}"version": ")[^"]+(")/m, `$1${version}$2`)),
    );
  }
  // The lockfile: its own version, the root's entry and each workspace's entry (the line after its name).
  edit("package-lock.json", (text) =>
    ranges(
      text
        .replace(/^( {2}"version": ")[^"]+(")/m, `$1${version}$2`)
        .replace(
          /("name": "(?:langgraph-platform|@lgp\/[\w-]+)",\n\s+"version": ")[^"]+(")/g,
          (all, head: string, tail: string) => `${head}${version}${tail}`,
        ),
    ),
  );
  // The production overlay runs the release's images.
  edit("docker/k8s/overlays/prod/kustomization.yaml", (text) => text.replace(/(newTag: ")[^"]+(")/g, `$1${version}$2`));
  edit("docker/k8s/overlays/prod/patches/config.yaml", (text) =>
    text.replace(/(langgraph-platform\/agent-runtime:)[\w.-]+/g, `$1${version}`),
  );
  console.log(
    `${current} -> ${version}: ${folders.length + 1} package.json files, package-lock.json and the prod overlay's images`,
  );
}

main();
