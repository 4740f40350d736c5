// The bundled example project (examples/langgraph.json) declares custom routes, a semantic index
// and a store TTL: each serves as documented, on the runtime every other test starts.
import pg from "pg";
import { startTestRuntime } from "../support/harness";

let rt: Awaited<ReturnType<typeof startTestRuntime>>;
beforeAll(async () => {
  rt = await startTestRuntime();
});
afterAll(async () => {
  await rt?.close();
});

it("serves the example's custom route beside the built-in ones", async () => {
  const about = await fetch(`${rt.url}/examples/about`);
  expect(about.status).toBe(200);
  expect(await about.json()).toMatchObject({ graphs: ["agent", "approval", "steps", "tools"] });
  expect((await fetch(`${rt.url}/examples/nothing`)).status).toBe(404);
  expect((await fetch(`${rt.url}/info`)).status).toBe(200);
});

it("ranks the example store's items by meaning, and gives them the example's TTL", async () => {
  await rt.client.store.putItem(["notes"], "tea", { text: "green tea with honey" });
  await rt.client.store.putItem(["notes"], "car", { text: "the car needs new tyres" });
  await rt.client.store.putItem(["notes"], "coffee", { text: "black coffee no sugar" });
  const { items } = await rt.client.store.searchItems(["notes"], { query: "honey tea", limit: 3 });
  expect(items[0]).toMatchObject({ key: "tea" });
  expect(items[0]!.score).toBeGreaterThan(items[1]!.score ?? 0);

  const db = new pg.Client({ connectionString: rt.database.url });
  await db.connect();
  try {
    const { rows } = await db.query("SELECT ttl_minutes FROM store_items WHERE namespace = 'notes' AND key = 'tea'");
    expect(rows[0]).toEqual({ ttl_minutes: 10080 });
  } finally {
    await db.end();
  }
});
