import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { Client } from "@lgp/server-kit/src/testing";
import { Annotation, StateGraph, getStore, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { createLogger } from "@lgp/server-kit";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { createAgentRuntimeApp } from "../../src/app";
import { loadAgentRuntimeConfig } from "../../src/config";
import { createDb, type Db } from "../../src/db";
import { createGraphStore } from "../../src/store";

let database: TestDatabase;
let db: Db;
let server: Server;
let client: Client;
let baseUrl: string;

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  db = createDb(database.url, 4);
  const config = loadAgentRuntimeConfig({ DATABASE_URL: database.url, WORKERS: "0" });
  const app = createAgentRuntimeApp({ config, db, logger: createLogger("agent-runtime", "warn") });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // No retries: a 5xx must fail the test, not be repeated.
  client = new Client({ apiUrl: baseUrl, callerOptions: { maxRetries: 0 } });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await db.$disconnect();
  await database.drop();
});

describe("store items through the official client", () => {
  test("put, get, replace and delete an item", async () => {
    expect(await client.store.getItem(["users", "alice"], "prefs")).toBeNull();

    await client.store.putItem(["users", "alice"], "prefs", { theme: "dark", size: 14 });
    const first = await client.store.getItem(["users", "alice"], "prefs");
    expect(first).toMatchObject({ namespace: ["users", "alice"], key: "prefs", value: { theme: "dark", size: 14 } });
    expect(first!.createdAt).toBe(first!.updatedAt);

    await client.store.putItem(["users", "alice"], "prefs", { theme: "light" });
    const second = await client.store.getItem(["users", "alice"], "prefs");
    expect(second!.value).toEqual({ theme: "light" });
    expect(second!.createdAt).toBe(first!.createdAt);
    expect(new Date(second!.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(first!.updatedAt).getTime());

    // Same key in another namespace is another item.
    expect(await client.store.getItem(["users", "bob"], "prefs")).toBeNull();

    await client.store.deleteItem(["users", "alice"], "prefs");
    expect(await client.store.getItem(["users", "alice"], "prefs")).toBeNull();
    // Deleting what is not there is not an error.
    await client.store.deleteItem(["users", "alice"], "prefs");
  });

  test("search by namespace prefix, filter, limit and offset", async () => {
    await client.store.putItem(["docs", "u1"], "a", { author: "ann", stars: 5, tags: ["x"] });
    await client.store.putItem(["docs", "u1"], "b", { author: "bob", stars: 2 });
    await client.store.putItem(["docs", "u2"], "c", { author: "ann", stars: 3 });
    await client.store.putItem(["docsy"], "d", { author: "ann", stars: 9 });

    const all = await client.store.searchItems(["docs"]);
    // "docsy" is not under the "docs" prefix; most recently updated first.
    expect(all.items.map((item) => item.key).sort()).toEqual(["a", "b", "c"]);
    const times = all.items.map((item) => new Date(item.updatedAt).getTime());
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(all.items.find((item) => item.key === "c")).toMatchObject({
      namespace: ["docs", "u2"],
      value: { author: "ann", stars: 3 },
    });

    const u1 = await client.store.searchItems(["docs", "u1"]);
    expect(u1.items.map((item) => item.key).sort()).toEqual(["a", "b"]);

    const byAnn = await client.store.searchItems(["docs"], { filter: { author: "ann" } });
    expect(byAnn.items.map((item) => item.key).sort()).toEqual(["a", "c"]);

    const many = await client.store.searchItems(["docs"], { filter: { stars: { $gte: 3 } } });
    expect(many.items.map((item) => item.key).sort()).toEqual(["a", "c"]);
    const few = await client.store.searchItems([], { filter: { stars: { $lt: 3 } } });
    expect(few.items.map((item) => item.key)).toEqual(["b"]);
    const notAnn = await client.store.searchItems(["docs"], { filter: { author: { $ne: "ann" } } });
    expect(notAnn.items.map((item) => item.key)).toEqual(["b"]);
    const inList = await client.store.searchItems([], { filter: { author: { $in: ["bob", "zed"] } } });
    expect(inList.items.map((item) => item.key)).toEqual(["b"]);
    const nested = await client.store.searchItems([], { filter: { tags: ["x"] } });
    expect(nested.items.map((item) => item.key)).toEqual(["a"]);

    const page1 = await client.store.searchItems(["docs"], { limit: 2 });
    const page2 = await client.store.searchItems(["docs"], { limit: 2, offset: 2 });
    expect([...page1.items, ...page2.items].map((item) => item.key)).toEqual(all.items.map((item) => item.key));
    expect(page1.items).toHaveLength(2);

    // A query is accepted (no embedding index: it does not narrow the results).
    const withQuery = await client.store.searchItems(["docs", "u2"], { query: "anything" });
    expect(withQuery.items.map((item) => item.key)).toEqual(["c"]);
  });

  test("list namespaces with prefix, suffix, wildcards, depth and paging", async () => {
    await client.store.putItem(["ns", "a", "x"], "k", { v: 1 });
    await client.store.putItem(["ns", "a", "y"], "k", { v: 1 });
    await client.store.putItem(["ns", "b", "x"], "k", { v: 1 });
    await client.store.putItem(["ns", "b", "x"], "k2", { v: 2 });
    await client.store.putItem(["other", "x"], "k", { v: 1 });

    const { namespaces } = await client.store.listNamespaces({ prefix: ["ns"] });
    expect(namespaces).toEqual([
      ["ns", "a", "x"],
      ["ns", "a", "y"],
      ["ns", "b", "x"],
    ]);
    expect((await client.store.listNamespaces({ prefix: ["ns"], maxDepth: 2 })).namespaces).toEqual([
      ["ns", "a"],
      ["ns", "b"],
    ]);
    expect((await client.store.listNamespaces({ suffix: ["x"] })).namespaces).toEqual([
      ["ns", "a", "x"],
      ["ns", "b", "x"],
      ["other", "x"],
    ]);
    expect((await client.store.listNamespaces({ prefix: ["ns", "*", "x"] })).namespaces).toEqual([
      ["ns", "a", "x"],
      ["ns", "b", "x"],
    ]);
    expect((await client.store.listNamespaces({ prefix: ["ns"], suffix: ["y"] })).namespaces).toEqual([
      ["ns", "a", "y"],
    ]);
    expect((await client.store.listNamespaces({ prefix: ["ns"], limit: 1, offset: 1 })).namespaces).toEqual([
      ["ns", "a", "y"],
    ]);
    // A depth beyond any namespace is no limit; an offset beyond the list is an empty page (not a 500).
    expect((await client.store.listNamespaces({ prefix: ["ns"], maxDepth: 1e12 })).namespaces).toHaveLength(3);
    expect((await client.store.listNamespaces({ prefix: ["ns"], offset: 1e12 })).namespaces).toEqual([]);
  });

  test("an item with a TTL disappears once it expires", async () => {
    // 0.001 minutes = 60 ms.
    await client.store.putItem(["ttl"], "short", { v: 1 }, { ttl: 0.001 });
    await client.store.putItem(["ttl"], "forever", { v: 2 }, { ttl: null });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await client.store.getItem(["ttl"], "short")).toBeNull();
    expect((await client.store.searchItems(["ttl"])).items.map((item) => item.key)).toEqual(["forever"]);
    expect((await client.store.listNamespaces({ prefix: ["ttl"] })).namespaces).toEqual([["ttl"]]);
  });

  test("bad input is a 422 with a detail, never a 5xx", async () => {
    const status = async (path: string, method: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await response.json()) as { detail?: string };
      expect(typeof json.detail).toBe("string");
      return response.status;
    };
    expect(await status("/store/items", "PUT", { namespace: [], key: "k", value: {} })).toBe(422);
    expect(await status("/store/items", "PUT", { namespace: ["a.b"], key: "k", value: {} })).toBe(422);
    expect(await status("/store/items", "PUT", { namespace: ["langgraph"], key: "k", value: {} })).toBe(422);
    expect(await status("/store/items", "PUT", { namespace: ["a"], key: "k", value: "text" })).toBe(422);
    expect(await status("/store/items", "PUT", { namespace: ["a"], key: "k" })).toBe(422);
    expect(await status("/store/items?namespace=a", "GET")).toBe(422);
    expect(await status("/store/items/search", "POST", { filter: { x: { $regex: "a" } } })).toBe(422);
    expect(await status("/store/items/search", "POST", { filter: { x: { $gt: [1] } } })).toBe(422);
    expect(await status("/store/items/search", "POST", { limit: 0 })).toBe(422);
    expect(await status("/store/namespaces", "POST", { max_depth: 0 })).toBe(422);
    await expect(client.store.putItem(["a"], "", {})).rejects.toThrow(/HTTP 422/);
  });
});

describe("the graph store", () => {
  test("a graph reads and writes the same items as /store/items", async () => {
    const State = Annotation.Root({ user: Annotation<string>, seen: Annotation<number> });
    const graph = new StateGraph(State)
      .addNode("remember", async (state, config: LangGraphRunnableConfig) => {
        const store = config.store!;
        const previous = await store.get(["memories", state.user], "visits");
        const count = ((previous?.value.count as number | undefined) ?? 0) + 1;
        await store.put(["memories", state.user], "visits", { count });
        return { seen: count };
      })
      .addNode("check", async (state) => {
        // getStore() is how code without the config reaches the same store.
        const found = await getStore()!.search(["memories"], { filter: { count: state.seen } });
        if (found.length !== 1) throw new Error(`expected one match, got ${found.length}`);
        return {};
      })
      .addEdge("__start__", "remember")
      .addEdge("remember", "check")
      .compile({ store: createGraphStore(db) });

    await client.store.putItem(["memories", "carol"], "visits", { count: 41 });
    expect((await graph.invoke({ user: "carol" })).seen).toBe(42);
    expect((await client.store.getItem(["memories", "carol"], "visits"))!.value).toEqual({ count: 42 });
    expect((await graph.invoke({ user: "dave" })).seen).toBe(1);
    expect((await client.store.listNamespaces({ prefix: ["memories"] })).namespaces).toEqual([
      ["memories", "carol"],
      ["memories", "dave"],
    ]);

    const store = createGraphStore(db);
    await store.delete(["memories", "dave"], "visits");
    expect(await client.store.getItem(["memories", "dave"], "visits")).toBeNull();
    expect(await store.listNamespaces({ prefix: ["memories"], maxDepth: 1 })).toEqual([["memories"]]);
  });
});
