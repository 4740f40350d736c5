// Debian's Chromium for the browser tests of both services (.ci/run installs it): where it is, how it is launched,
// and the small server that gives a test page an origin of its own.
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Whether Chromium is there; a test without it is skipped, and says why once. */
export function chromiumAvailable(test: string): boolean {
  const present = existsSync(CHROMIUM);
  if (!present)
    console.warn(`${test} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return present;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/**
 * Serves a page (`html`, with its script at `/app.js`) on its own loopback origin: `localhost`,
 * while the runtime listens on 127.0.0.1, so every request to the runtime is cross-origin.
 */
export async function servePage(html: string, script: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === "/app.js") res.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
    else if (req.url === "/favicon.ico") res.writeHead(204).end();
    else res.writeHead(200, { "Content-Type": "text/html" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://localhost:${(server.address() as { port: number }).port}` };
}

/** Bundles a page's script (its framework and the SDK included) into one file. */
export async function bundlePage(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}
