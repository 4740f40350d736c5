// A page on another origin drives the runtime with the official client's thread-centric protocol
// (`client.threads.stream()`, ThreadStream over SSE) in headless Chromium: the model's messages
// render as they stream, the tool call with its output, and the run's end. Every request must
// succeed, CORS preflights included. Needs Debian's `chromium`; skipped without it.
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { startTestRuntime, type RunningRuntime } from "../support/harness";
import { PROTOCOL_FIXTURES } from "../protocol/suite";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`ThreadStream browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

const PAGE =
  '<!doctype html><meta charset="utf-8"><input id="text" value="weather?"><button id="send">Send</button>' +
  '<ul id="messages"></ul><ul id="tools"></ul><p id="status"></p><p id="error"></p><script src="/app.js"></script>';

(hasChromium ? describe : describe.skip)("ThreadStream in Chromium from another origin", () => {
  let runtime: RunningRuntime;
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    const [bundle, started] = await Promise.all([
      build({
        entryPoints: [path.join(__dirname, "thread-stream-page/app.js")],
        bundle: true,
        write: false,
        format: "iife",
        platform: "browser",
        target: "es2022",
        logLevel: "silent",
      }),
      startTestRuntime({ env: { LANGGRAPH_JSON: PROTOCOL_FIXTURES } }),
    ]);
    runtime = started;
    const script = bundle.outputFiles[0].text;
    server = createServer((req, res) => {
      if (req.url === "/app.js") res.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
      else if (req.url === "/favicon.ico") res.writeHead(204).end();
      else res.writeHead(200, { "Content-Type": "text/html" }).end(PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://localhost:${(server.address() as { port: number }).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await runtime?.close();
  });

  test("streams a tool-calling run: messages, the tool call and its output, the end", async () => {
    const tab = await browser.newPage();
    const failures: string[] = [];
    const pageErrors: string[] = [];
    tab.on("requestfailed", (request) => {
      // The page's own streams are closed by the client once the run is over.
      if (request.url().endsWith("/stream/events") && request.failure()?.errorText === "net::ERR_ABORTED") return;
      failures.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
    });
    tab.on("pageerror", (error) => pageErrors.push(String(error)));
    await tab.goto(`${origin}/?api=${encodeURIComponent(runtime.url)}&assistant=tooled`);
    await tab.click("#send");
    await tab.locator("#messages li.done", { hasText: "done: sunny in Paris" }).waitFor();
    await tab.locator("#tools li", { hasText: 'lookup {"city":"Paris"} -> "sunny in Paris"' }).waitFor();
    await tab.locator("#status", { hasText: "done 4" }).waitFor();
    expect(await tab.locator("#tools li").count()).toBe(1);
    expect(await tab.locator("#error").textContent()).toBe("");
    expect(pageErrors).toEqual([]);
    expect(failures).toEqual([]);
  }, 30_000);
});
