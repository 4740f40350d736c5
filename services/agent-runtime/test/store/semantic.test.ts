// langgraph.json's store.index: puts embed the indexed fields with the project's embedding
// function, and searches with `query` rank by similarity (cosine) with a `score`; items kept out of
// the index (`index: false`, or without the field) carry no score and come after every scored one.
// The same index serves /store/items and the store graphs are given. The embedding is a fixed
// word count (fixtures/semantic/embed.ts), never a network model.
import path from "node:path";
import { readGraphProject } from "../../src/graphs/config";
import { SemanticIndex, loadSemanticIndex } from "../../src/store/semantic-index";
import { startTestRuntime } from "../support/harness";

const PROJECT = path.resolve(__dirname, "fixtures/semantic/langgraph.json");
let rt: Awaited<ReturnType<typeof startTestRuntime>>;

beforeAll(async () => {
  rt = await startTestRuntime({ env: { LANGGRAPH_JSON: PROJECT } });
});
afterAll(async () => {
  await rt?.close();
});

const put = (key: string, value: object, index?: false | string[]) =>
  rt.client.store.putItem(["pets"], key, value as Record<string, unknown>, index === undefined ? {} : { index });

it("ranks items by similarity to the query, unindexed items last without a score", async () => {
  await put("two-cats", { text: "cat cat dog" });
  await put("blue-car", { text: "blue car" });
  await put("fish", { text: "fish bird" });
  await put("kept-out", { text: "cat" }, false);
  await put("no-field", { other: "cat" });
  await put("own-field", { other: "cat" }, ["other"]);

  const { items } = await rt.client.store.searchItems(["pets"], { query: "cat", limit: 10 });
  const ranked = items.map((item) => [item.key, item.score == null ? null : Number(item.score.toFixed(3))]);
  // cat·(2,1)/|(2,1)| = 0.894; the item indexed on its own field `other` is an exact match.
  expect(ranked.slice(0, 2)).toEqual([
    ["own-field", 1],
    ["two-cats", 0.894],
  ]);
  expect(ranked.slice(2, 4).sort()).toEqual([
    ["blue-car", 0],
    ["fish", 0],
  ]);
  expect(ranked.slice(4).sort()).toEqual([
    ["kept-out", null],
    ["no-field", null],
  ]);

  // Without a query: the plain listing, newest first, no scores.
  const listed = await rt.client.store.searchItems(["pets"], { limit: 10 });
  expect(listed.items.map((item) => item.key)[0]).toBe("own-field");
  expect(listed.items.every((item) => item.score === null || item.score === undefined)).toBe(true);

  // `index` is false or a list of fields: `true` means nothing.
  const wrong = await fetch(`${rt.url}/store/items`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ namespace: ["pets"], key: "x", value: { text: "cat" }, index: true }),
  });
  expect(wrong.status).toBe(422);
  expect(((await wrong.json()) as { detail: string }).detail).toMatch(/^body\.index: /);

  // A new value replaces the item's vectors.
  await put("fish", { text: "cat" });
  const again = await rt.client.store.searchItems(["pets"], { query: "cat", limit: 1, offset: 0 });
  expect(again.items[0]?.score).toBeCloseTo(1);
});

it("gives graphs the same index through their store", async () => {
  const thread = await rt.client.threads.create();
  const result = (await rt.client.runs.wait(thread.thread_id, "remember", {
    input: { remember: { m1: "red car", m2: "green fish", m3: "red red bird" }, query: "red" },
  })) as { found: { key: string; score: number | null }[] };
  expect(result.found.map((item) => item.key)).toEqual(["m3", "m1", "m2"]);
  expect(result.found[0]!.score).toBeCloseTo(2 / Math.sqrt(5));
  // And what a graph stored is searchable over HTTP.
  const { items } = await rt.client.store.searchItems(["memories"], { query: "fish" });
  expect(items[0]).toMatchObject({ key: "m2" });
});

it("refuses a store.index it cannot serve at start-up, naming the key", async () => {
  const project = readGraphProject(PROJECT);
  const bad = (index: unknown) => loadSemanticIndex({ ...project, json: { ...project.json, store: { index } } });
  await expect(bad({ embed: "./embed.ts:embed" })).rejects.toThrow(/store\.index\.dims/);
  await expect(bad({ dims: 8, embed: "./embed.ts:nothing" })).rejects.toThrow(/export "nothing" .* neither a function/);
  await expect(bad({ dims: 8, embed: "cohere:embed-english-v3.0" })).rejects.toThrow(/only the openai provider/);
});

it("refuses an embedding that is not a vector of finite numbers, naming what it answered", async () => {
  const answering = (vector: unknown[]) =>
    new SemanticIndex(3, ["text"], "test", async (texts) => texts.map(() => vector as number[]));
  await expect(answering([1, Number.NaN, 0]).embedQuery("q")).rejects.toThrow(
    /answered NaN at dimension 1, not a finite/,
  );
  await expect(answering([Infinity, 0, 0]).vectorsOf({ text: "t" })).rejects.toThrow(
    /answered Infinity at dimension 0/,
  );
  await expect(answering([1, "2", 0]).embedQuery("q")).rejects.toThrow(/answered 2 at dimension 1/);
  await expect(answering([1, 2]).embedQuery("q")).rejects.toThrow(/2 dims, not 3/);
  expect(await answering([3, 0, 4]).embedQuery("q")).toEqual([0.6, 0, 0.8]);
});
