// The README's code blocks, read from README.md itself, so a README edit that breaks a snippet fails
// the snippets test. Each block carries a marker on the line right before its fence:
//   <!-- snippet: NAME -->        run by scripts/test/readme-snippets.test.ts (NAME says which check)
//   <!-- not run: REASON -->      left out, saying why (needs Docker, a cluster, sudo; not a command)
// A block with neither fails the test: a new snippet is either run or says why it is not.
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";

export interface Block {
  /** "snippet" (run) or "not run" (with its reason in `name`); undefined when unmarked. */
  marker?: "snippet" | "not run";
  /** The snippet's name, or the reason it is not run. */
  name: string;
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The README's prose between the previous block and this one (where it says how to run it). */
  before: string;
  /** The prose between this block and the next (where it says what the snippet answers). */
  after: string;
}

const MARKER = /^<!-- (snippet|not run): (.+?) -->$/;

export function readmeText(): string {
  return readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
}

export function readmeBlocks(markdown = readmeText()): Block[] {
  const lines = markdown.split("\n");
  const found: { open: number; close: number; lang: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const opening = /^```(\S*)\s*$/.exec(lines[i]);
    if (!opening) continue;
    const close = lines.findIndex((line, j) => j > i && line.trimEnd() === "```");
    if (close < 0) throw new Error(`README.md: the code block at line ${i + 1} is never closed`);
    found.push({ open: i, close, lang: opening[1] });
    i = close;
  }
  return found.map(({ open, close, lang }, index) => {
    const marker = MARKER.exec(lines[open - 1] ?? "");
    const previousEnd = index > 0 ? found[index - 1].close + 1 : 0;
    const nextStart = index + 1 < found.length ? found[index + 1].open : lines.length;
    return {
      marker: marker?.[1] as Block["marker"],
      name: marker?.[2] ?? "",
      lang,
      code: lines.slice(open + 1, close).join("\n") + "\n",
      line: open + 1,
      before: lines.slice(previousEnd, open).join("\n"),
      after: lines.slice(close + 1, nextStart).join("\n"),
    };
  });
}

/** The snippet named `name` (exactly one must exist). */
export function snippet(name: string, blocks = readmeBlocks()): Block {
  const matching = blocks.filter((block) => block.marker === "snippet" && block.name === name);
  if (matching.length !== 1) throw new Error(`README.md has ${matching.length} snippets named "${name}"`);
  return matching[0];
}

export interface Ports {
  controlPlane: number;
  runtime: number;
}

/**
 * The snippet as it runs here: the README writes the default ports (localhost:8100, :8123); when
 * those were taken on this machine, the platform runs on others and the snippet's text follows.
 */
export function onPorts(code: string, ports: Ports): string {
  return code
    .replace(/\b(localhost|127\.0\.0\.1):8100\b/g, `$1:${ports.controlPlane}`)
    .replace(/\b(localhost|127\.0\.0\.1):8123\b/g, `$1:${ports.runtime}`);
}
