// `npm run bench`: runs every bench/*.bench.ts in turn (each prints its own figures), or only the
// ones whose names contain the words given: `npm run bench -- control-plane`. `npm run bench --
// growth [flags]` is a mode of its own (bench/growth/main.ts: how costs grow with history, state
// and rows), never part of a plain `npm run bench`: it takes many minutes and a few GB.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const filters = process.argv.slice(2);
if (filters[0] === "growth") {
  const growth = path.join(__dirname, "growth/main.ts");
  const result = spawnSync(process.execPath, ["--import", "tsx", growth, ...filters.slice(1)], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
const benches = readdirSync(__dirname)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
if (benches.length === 0) {
  console.error(`no benchmark matches ${filters.join(" ")}`);
  process.exit(1);
}
let failed = 0;
for (const bench of benches) {
  console.log(`\n=== ${bench}`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(__dirname, bench)], { stdio: "inherit" });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
