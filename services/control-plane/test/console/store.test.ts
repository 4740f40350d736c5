// The playground's store browser, in headless Chromium against the platform as `npm start` runs it
// (examples/langgraph.json declares a semantic index over items' `text`, embedded by
// examples/src/embed.ts: words hashed into buckets, so texts that share words are close). Items put
// through the form are listed under their namespaces, found by meaning and by a filter on their
// fields, and one is deleted; each is checked against the runtime's store through the official client.
// Needs Debian's `chromium` (.ci/run installs it); skipped without it.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { Client } from "@lgp/server-kit/src/testing";
import { chromiumAvailable, launchChromium } from "@lgp/server-kit/src/testing/chromium";
import { signIn, startConsolePlatform, type ConsolePlatform, prepareConsole } from "./platform";

const hasChromium = chromiumAvailable("console store test");

const ITEMS = [
  { namespace: "notes.ada", key: "pets", value: { text: "my cat sleeps on the warm kitchen mat", kind: "home" } },
  { namespace: "notes.ada", key: "money", value: { text: "stock prices fell sharply today", kind: "finance" } },
  { namespace: "notes.bob", key: "trip", value: { text: "train tickets to the mountains", kind: "travel" } },
];

(hasChromium ? describe : describe.skip)("the playground's store browser in Chromium", () => {
  let platform: ConsolePlatform;
  let browser: Browser;
  let page: Page;
  let sdk: Client;
  let shots: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    shots = prepareConsole();
    [platform, browser] = await Promise.all([startConsolePlatform(), launchChromium()]);
    sdk = new Client({ apiUrl: platform.runtimeUrl, apiKey: platform.runtimeKey, callerOptions: { maxRetries: 0 } });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    await signIn(page, platform);
    // No key pasted: the console asks the control plane for the local runtime's.
    await page.goto(`${platform.consoleUrl}deployments/${platform.localDeploymentId}/playground/store`);
  }, 200_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  const items = () => page.getByRole("list", { name: "Items" }).getByRole("listitem");
  const keysShown = async () =>
    Promise.all(
      (await items().all()).map(async (row) => (await row.getAttribute("aria-label"))!.replace(/^Item .* \/ /, "")),
    );
  const search = async (query: string, filter = "") => {
    await page.getByLabel("Search by meaning").fill(query);
    await page.getByLabel("Filter (JSON)").fill(filter);
    await page.getByRole("button", { name: "Search" }).click();
  };

  test("items put through the form are stored and listed under their namespaces", async () => {
    await page.getByRole("heading", { name: "Items in every namespace" }).waitFor();
    const form = page.getByRole("form", { name: "Put an item" });
    // A value that is not a JSON object is refused before anything is sent.
    await form.getByLabel("Namespace").fill("notes.ada");
    await form.getByLabel("Key").fill("broken");
    await form.getByLabel("Value (JSON)").fill("[1, 2]");
    await form.getByRole("button", { name: "Put item" }).click();
    await form.getByText("The value must be a JSON object.").waitFor();

    for (const item of ITEMS) {
      await form.getByLabel("Namespace").fill(item.namespace);
      await form.getByLabel("Key").fill(item.key);
      await form.getByLabel("Value (JSON)").fill(JSON.stringify(item.value));
      await form.getByRole("button", { name: "Put item" }).click();
      await form.getByRole("status").getByText(`Stored ${item.namespace} / ${item.key}.`).waitFor();
      const stored = await sdk.store.getItem(item.namespace.split("."), item.key);
      expect(stored?.value).toEqual(item.value);
    }
    expect(await sdk.store.getItem(["notes", "ada"], "broken")).toBeNull();

    const namespaces = page.getByRole("list", { name: "Namespaces" });
    await namespaces.getByRole("button", { name: "notes.bob" }).waitFor();
    await page.getByLabel("Namespace prefix").fill("notes.ada");
    await namespaces.getByRole("button", { name: "notes.bob" }).waitFor({ state: "detached" });
    await namespaces.getByRole("button", { name: "notes.ada" }).click();
    await page.getByRole("heading", { name: "Items under notes.ada" }).waitFor();
    await page.getByRole("listitem", { name: "Item notes.ada / money" }).waitFor();
    expect((await keysShown()).sort()).toEqual(["money", "pets"]);
  });

  test("an item is found by meaning, and by a filter on its fields", async () => {
    await page.getByLabel("Namespace prefix").fill("");
    await page.getByRole("list", { name: "Namespaces" }).getByRole("button", { name: "Every item" }).click();
    await page.getByRole("heading", { name: "Items in every namespace" }).waitFor();

    await search("where does the cat sleep");
    await page.getByText("Ranked by meaning").waitFor();
    // The best match is the item about the cat, as the runtime's own semantic search ranks it.
    const ranked = await sdk.store.searchItems([], { query: "where does the cat sleep" });
    expect(ranked.items[0].key).toBe("pets");
    await items().first().getByText("notes.ada / pets").waitFor();
    expect(await keysShown()).toEqual(ranked.items.map((item) => item.key));
    expect(
      await items()
        .first()
        .getByText(`score ${ranked.items[0].score!.toFixed(2)}`)
        .count(),
    ).toBe(1);
    await shot("playground-store");

    await search("", '{"kind": "finance"}');
    await page.getByRole("listitem", { name: "Item notes.ada / pets" }).waitFor({ state: "detached" });
    expect(await keysShown()).toEqual(["money"]);

    // A filter that is not a JSON object is said beside its field.
    await search("", "kind: finance");
    await page.getByText("The filter must be a JSON object.").waitFor();
  });

  test("an item is deleted after a confirmation", async () => {
    await search("", "");
    const trip = page.getByRole("listitem", { name: "Item notes.bob / trip" });
    await trip.getByRole("button", { name: "Delete" }).click();
    await trip.getByRole("alertdialog").getByRole("button", { name: "Delete the item" }).click();
    await trip.waitFor({ state: "detached" });
    expect(await sdk.store.getItem(["notes", "bob"], "trip")).toBeNull();
    expect((await keysShown()).sort()).toEqual(["money", "pets"]);
    // Its namespace is gone with its last item.
    await page.getByRole("list", { name: "Namespaces" }).getByRole("button", { name: "notes.bob" }).waitFor({
      state: "detached",
    });

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    expect(pageErrors).toEqual([]);
  });

  const shot = (name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
});
