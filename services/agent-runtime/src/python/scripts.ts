// A virtual environment's console scripts (bin/pip, bin/langgraph...) name their interpreter by
// absolute path, and `activate` names the environment: made in a side folder and moved into place,
// they would name the side folder. They are pointed at where the environment lies.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Rewrites the scripts in `<envDir>/bin` that name `envDir` (the side folder it is being made in)
 * or a side folder of `finalDir` (`<finalDir>.building-...`, left by an earlier version) to name `finalDir`.
 */
export async function retargetScripts(envDir: string, finalDir: string): Promise<void> {
  const sides = new RegExp(`${escape(finalDir)}\\.building-[\\w-]+|${escape(envDir)}(?=/|\\s|$)`, "g");
  const bin = path.join(envDir, "bin");
  for (const name of await readdir(bin).catch(() => [] as string[])) {
    const file = path.join(bin, name);
    const info = await stat(file).catch(() => undefined);
    // Scripts are small text files; the interpreters (links or binaries) are left alone.
    if (!info?.isFile() || info.size > 256 * 1024) continue;
    const text = await readFile(file, "utf8");
    if (text.includes("\u0000")) continue;
    const retargeted = text.replace(sides, finalDir);
    if (retargeted !== text) await writeFile(file, retargeted, { mode: info.mode });
  }
}
