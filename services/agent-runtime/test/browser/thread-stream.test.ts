// A page on another origin drives the runtime with the official client's thread-centric protocol
// (`client.threads.stream()`, ThreadStream over SSE) in headless Chromium: a chat streams, a reload
// rejoins a run in flight, an interrupt is shown and resumed, a tool call shows its output. Every
// request must succeed, CORS preflights included. Needs Debian's `chromium`; skipped without it.
import type { Server } from "node:http";
import path from "node:path";
import type { Browser, Request } from "playwright-core";
import { startTestRuntime, type GraphLanguage, type RunningRuntime } from "../support/harness";
import { PROTOCOL_FIXTURES, PYTHON_PROTOCOL_FIXTURES } from "../protocol/suite";
import { bundlePage, chromiumAvailable, launchChromium, servePage } from "@lgp/server-kit/src/testing/chromium";

const hasChromium = chromiumAvailable("ThreadStream browser test");

const PAGE =
  '<!doctype html><meta charset="utf-8"><input id="text"><button id="send">Send</button>' +
  '<ul id="values"></ul><p id="visited"></p><p id="status"></p>' +
  '<section id="interrupt" hidden><p id="question"></p><button id="approve">Approve</button></section>' +
  '<ul id="messages"></ul><ul id="tools"></ul><p id="error"></p><script src="/app.js"></script>';

(hasChromium ? describe.each<GraphLanguage>(["js", "python"]) : describe.skip.each<GraphLanguage>(["js", "python"]))(
  "ThreadStream in Chromium from another origin (%s graphs)",
  (language) => {
    let runtime: RunningRuntime;
    let server: Server;
    let origin: string;
    let browser: Browser;

    beforeAll(async () => {
      const [script, started] = await Promise.all([
        bundlePage(path.join(__dirname, "thread-stream-page/app.js")),
        startTestRuntime({
          env: { LANGGRAPH_JSON: language === "python" ? PYTHON_PROTOCOL_FIXTURES : PROTOCOL_FIXTURES },
        }),
      ]);
      runtime = started;
      ({ server, origin } = await servePage(PAGE, script));
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      server?.close();
      await runtime?.close();
    });

    test("chats, rejoins a run in flight after a reload, resumes an interrupt, shows a tool call", async () => {
      const tab = await browser.newPage();
      let documentNumber = 0;
      const reloadedMidRun = new Set<number>();
      const documents = new WeakMap<Request, number>();
      const failures: string[] = [];
      const pageErrors: string[] = [];
      tab.on("request", (request) => documents.set(request, documentNumber));
      tab.on("requestfailed", (request) => {
        // A document's streams are cancelled by the browser when it reloads, and by the client
        // when it narrows or widens them: neither is the server's doing.
        if (reloadedMidRun.has(documents.get(request) ?? -1)) return;
        if (request.url().endsWith("/stream/events") && request.failure()?.errorText === "net::ERR_ABORTED") return;
        failures.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
      });
      tab.on("pageerror", (error) => pageErrors.push(String(error)));
      const open = (assistant: string, extra = "") =>
        tab.goto(`${origin}/?api=${encodeURIComponent(runtime.url)}&assistant=${assistant}${extra}`);
      const send = async (text: string) => {
        await tab.fill("#text", text);
        await tab.click("#send");
      };

      // 1. A chat: the streamed reply, then the thread's values.
      await open("agent");
      await send("hello");
      await tab.locator("#messages li.done", { hasText: "echo: hello" }).waitFor();
      await tab.locator("#values li", { hasText: "echo: hello" }).waitFor();
      await tab.locator("#status", { hasText: "completed" }).waitFor();

      // 2. A reload while a run is in flight: the page finds its thread and sees the run finish.
      await open("steps", "&delay_ms=600");
      await send("go");
      await tab.locator("#visited", { hasText: "one" }).waitFor();
      reloadedMidRun.add(documentNumber);
      documentNumber += 1;
      await tab.reload();
      await tab.locator("#visited", { hasText: "one,two,three" }).waitFor();
      await tab.locator("#status", { hasText: "completed" }).waitFor();

      // 3. An interrupt is shown, and answered with input.respond.
      await open("approval");
      await send("ship it");
      await tab.locator("#question", { hasText: "Approve this draft?" }).waitFor();
      await tab.locator("#status", { hasText: "interrupted" }).waitFor();
      await tab.click("#approve");
      await tab.locator("#values li", { hasText: "published: proposal: ship it" }).waitFor();
      await tab.locator("#status", { hasText: "completed" }).waitFor();

      // 4. A tool call with its output.
      await open("tooled");
      await send("weather?");
      await tab.locator("#messages li.done", { hasText: "done: sunny in Paris" }).waitFor();
      await tab.locator("#tools li", { hasText: 'lookup {"city":"Paris"} -> "sunny in Paris"' }).waitFor();
      expect(await tab.locator("#tools li").count()).toBe(1);

      expect(await tab.locator("#error").textContent()).toBe("");
      expect(pageErrors).toEqual([]);
      expect(failures).toEqual([]);
    }, 60_000);
  },
);
