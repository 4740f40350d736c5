// examples/genui, as the README runs it: a runtime process bundles the weather agent's components
// (langgraph.json's `ui`) at start-up and serves them as the official server does; the graph's
// pushed UI message reaches `values.ui` and the stream; and a page on another origin renders the
// component (with its CSS) in Chromium through the SDK's LoadExternalComponent. The runtime runs as
// a process: the official bundler is an ES module that jest cannot load.
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import type { Server } from "node:http";
import type { Browser } from "playwright-core";
import { randomUUID } from "node:crypto";
import { freePort, runtimeKeyHash, waitUntilOk } from "@lgp/server-kit";
import { createEmptyDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { Client, collect, killProcess, spawnRuntimeProcess } from "../support/harness";
import { bundlePage, chromiumAvailable, launchChromium, servePage } from "@lgp/server-kit/src/testing/chromium";

const EXAMPLE = path.resolve(__dirname, "../../../../examples/genui/langgraph.json");
/** The deployment's key: the page and the client send it; the bundle's files need none. */
const KEY = `lgp_rt_${randomUUID()}`;
const PAGE = '<!doctype html><meta charset="utf-8"><div id="root"></div><script src="/app.js"></script>';

let database: TestDatabase;
let child: ChildProcess;
let url: string;
const output: string[] = [];

beforeAll(async () => {
  database = await createEmptyDatabase("genui_example");
  const port = await freePort();
  child = spawnRuntimeProcess(
    "main.ts",
    {
      DATABASE_URL: database.url,
      PORT: String(port),
      LANGGRAPH_JSON: EXAMPLE,
      REDIS_URL: "",
      WORKERS: "1",
      LOG_LEVEL: "info",
      API_KEY_HASHES: runtimeKeyHash(KEY),
    },
    output,
  );
  url = `http://127.0.0.1:${port}`;
  if (!(await waitUntilOk(`${url}/ok`, 60_000, () => child.exitCode === null)))
    throw new Error(`the runtime did not start:\n${output.join("")}`);
}, 90_000);

afterAll(async () => {
  if (child) await killProcess(child);
  await database?.drop();
});

test("the components are bundled at start-up and served as the official server serves them", async () => {
  expect(output.join("")).toMatch(
    /"graph":"weather".*"files":\["entrypoint.css","entrypoint.js"\].*generative UI bundled/,
  );
  const tags = await fetch(`${url}/ui/weather`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY },
    body: JSON.stringify({ name: "weather" }),
  });
  expect(tags.headers.get("content-type")).toMatch(/^text\/html/);
  expect((await tags.text()).split("\n")).toEqual([
    `<link rel="stylesheet" href="http://${url.slice(7)}/ui/weather/entrypoint.css" />`,
    `<script src="http://${url.slice(7)}/ui/weather/entrypoint.js" onload='__LGUI_weather.render("weather", "{{shadowRootId}}")'></script>`,
  ]);
  // A page's script and link tags send no key: the files are open, the tags are not.
  const script = await fetch(`${url}/ui/weather/entrypoint.js`);
  expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
  expect(await script.text()).toMatch(/^var __LGUI_weather = /);
  const css = await fetch(`${url}/ui/weather/entrypoint.css`);
  expect(css.headers.get("content-type")).toMatch(/^text\/css/);
  expect(await css.text()).toContain("rgb(200, 60, 20)");

  const asked = async (route: string, body?: unknown) => {
    const response = await fetch(`${url}${route}`, {
      method: body ? "POST" : "GET",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: body ? JSON.stringify(body) : undefined,
    });
    return [response.status, ((await response.json()) as { detail: unknown }).detail];
  };
  expect(await asked("/ui/nope", { name: "weather" })).toEqual([404, 'UI not found for graph "nope"']);
  expect(await asked("/ui/weather/nope.js")).toEqual([404, 'UI file "nope.js" not found for graph "weather"']);
  expect((await asked("/ui/weather", {}))[0]).toBe(422);
  const keyless = await fetch(`${url}/ui/weather`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "weather" }),
  });
  expect(keyless.status).toBe(401);
});

test("a component file that does not build stops start-up, naming the graph and the cause", async () => {
  const broken = await createEmptyDatabase("genui_broken");
  const lines: string[] = [];
  const process = spawnRuntimeProcess(
    "main.ts",
    {
      DATABASE_URL: broken.url,
      PORT: String(await freePort()),
      LANGGRAPH_JSON: path.resolve(__dirname, "genui-broken/langgraph.json"),
      REDIS_URL: "",
    },
    lines,
  );
  try {
    const code = await new Promise((resolve) => process.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(lines.join("")).toMatch(
      /cannot bundle the UI of graph "agent" \(\.\/broken-ui\.js\)[\s\S]*missing-component/,
    );
  } finally {
    await killProcess(process);
    await broken.drop();
  }
}, 60_000);

test("a pushed UI message reaches values.ui, attached to its message, and the stream", async () => {
  const client = new Client({ apiUrl: url, apiKey: KEY, callerOptions: { maxRetries: 0 } });
  const thread = await client.threads.create();
  const events = await collect(
    client.runs.stream(thread.thread_id, "weather", {
      input: { messages: [{ role: "user", content: "weather in Lyon" }] },
      streamMode: ["custom", "values"],
    }),
  );
  const custom = events.filter((event) => event.event === "custom").map((event) => event.data);
  expect(custom).toMatchObject([{ type: "ui", name: "weather", props: { city: "Lyon", temperature: 16 } }]);
  const state = await client.threads.getState<{
    ui: { name: string; props: unknown; metadata: { message_id: string } }[];
    messages: { id: string; content: string }[];
  }>(thread.thread_id);
  const [message] = state.values.messages.slice(-1);
  expect(message.content).toBe("The weather in Lyon: 16°C");
  expect(state.values.ui).toMatchObject([
    { name: "weather", props: { city: "Lyon", temperature: 16 }, metadata: { message_id: message.id } },
  ]);
});

(chromiumAvailable("generative UI browser test") ? describe : describe.skip)("in Chromium", () => {
  let browser: Browser;
  let page: { server: Server; origin: string };

  beforeAll(async () => {
    page = await servePage(PAGE, await bundlePage(path.join(__dirname, "genui-page/app.js")));
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    page?.server.close();
  });

  test("a page on another origin renders the pushed component, with its CSS, via LoadExternalComponent", async () => {
    const tab = await browser.newPage();
    const pageErrors: string[] = [];
    const failures: string[] = [];
    tab.on("pageerror", (error) => pageErrors.push(String(error)));
    tab.on("requestfailed", (request) => failures.push(`${request.url()}: ${request.failure()?.errorText}`));
    const query = new URLSearchParams({ api: url, key: KEY, ask: "weather in Oslo" });
    await tab.goto(`${page.origin}/?${query}`);
    await tab.click("#send");
    await tab.locator("li.ai span", { hasText: "The weather in Oslo: 16°C" }).waitFor();
    // The component renders in a shadow root (Playwright's locators go through open ones).
    const card = tab.locator(".weather-card");
    await card.locator("h3", { hasText: "Oslo" }).waitFor();
    expect(await card.locator(".temperature").textContent()).toBe("16°C");
    // The stylesheet applies (a string function: this program has no DOM types).
    const color = await tab.evaluate(
      "getComputedStyle(document.querySelector('#messages div').shadowRoot.querySelector('.temperature')).color",
    );
    expect(color).toBe("rgb(200, 60, 20)");
    expect(pageErrors).toEqual([]);
    expect(failures).toEqual([]);
  }, 30_000);
});
