// The semantic index's lists (store/vector-lists.ts): once trained, a search with `query` reads
// only the vectors of the query's nearest lists (and those in no list), finds what the exact scan
// ranks first on clustered data, and answers by the exact scan where the lists cannot (few items
// under the prefix, a page past the candidates). A new training moves every vector to its lists.
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { createDb, type Db } from "../../src/db";
import { StoreRepository } from "../../src/store/repository";
import { SemanticIndex } from "../../src/store/semantic-index";
import { dot, kmeans, nearest } from "../../src/store/vectors";

const DIMS = 16;
const CLUSTERS = 6;
let database: TestDatabase;
let db: Db;

// Texts are the vectors themselves (JSON), so the embedding is exact and needs no model.
const embed = async (texts: string[]) => texts.map((text) => JSON.parse(text) as number[]);
const indexWith = (exactBelow: number) => new SemanticIndex(DIMS, ["text"], "test", embed, { nprobe: 2, exactBelow });

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const centers = Array.from({ length: CLUSTERS }, () => Array.from({ length: DIMS }, () => random() - 0.5));
const near = (cluster: number) => centers[cluster]!.map((x) => Number((x + 0.3 * (random() - 0.5)).toFixed(5)));
const vectors = new Map<string, number[]>();

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  db = createDb(database.url, 4);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

async function putMany(repository: StoreRepository, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 20)
    await Promise.all(
      Array.from({ length: Math.min(20, to - i) }, (_, j) => {
        const vector = near((i + j) % CLUSTERS);
        vectors.set(`k${i + j}`, vector);
        return repository.put(["docs"], `k${i + j}`, { text: JSON.stringify(vector) });
      }),
    );
}

const search = (repository: StoreRepository, query: number[], offset = 0, limit = 10) =>
  repository.search({ namespacePrefix: ["docs"], query: JSON.stringify(query), limit, offset, refreshTtl: false });

it("reads only the probed lists, finds the exact scan's best items, and keeps them through a new training", async () => {
  const index = indexWith(100);
  const lists = new StoreRepository(db, index);
  const exact = new StoreRepository(db, indexWith(2 ** 31 - 1));
  await putMany(lists, 0, 300); // before any training: in no list
  await lists.put(["docs"], "unindexed", { text: "[]" }, undefined, false);
  await lists.put(["few"], "one", { text: JSON.stringify(near(0)) });

  const first = await index.lists.train(db, CLUSTERS);
  expect(first).toMatchObject({ lists: CLUSTERS, assigned: 301 });
  await putMany(lists, 300, 400); // written after: put in their lists at once
  const [{ unlisted }] = await db.$queryRaw<{ unlisted: number }[]>`
    SELECT count(*)::int AS unlisted FROM store_vectors WHERE list_generation IS DISTINCT FROM ${first.generation}::int`;
  expect(unlisted).toBe(0);

  // A search for an item's own vector: the item is first, scored 1, with most of the exact top 10.
  const query = vectors.get("k7")!;
  const truth = await search(exact, query);
  const found = await search(lists, query);
  expect(found[0]).toMatchObject({ key: "k7" });
  expect(found[0]!.score).toBeCloseTo(1, 5);
  expect(found.filter((item) => truth.some((best) => best.key === item.key)).length).toBeGreaterThanOrEqual(8);
  expect(found.map((item) => item.score)).toEqual([...found.map((item) => item.score)].sort((a, b) => b! - a!));

  // The candidates' statement is one the lists' indexes answer (here, on 400 rows, the planner would
  // rather read them all: told not to, it shows the indexes serve it).
  const [generation] = await index.lists.live(db);
  const plan = await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    return tx.$queryRaw<{ "QUERY PLAN": string }[]>`EXPLAIN ${index.lists.candidateSql(query, [generation!])}`;
  });
  expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/store_vectors_list_codes_idx/);

  // An item whose vector sits in a list the query does not probe is not a candidate: moved to the
  // query's farthest list, the best item drops out of the lists' answer (the exact scan still has it).
  const farthest = nearest(query, generation!.centroids, CLUSTERS).at(-1)!;
  await db.$executeRaw`UPDATE store_vectors SET list = ${farthest}::int WHERE key = 'k7'`;
  expect((await search(lists, query)).map((item) => item.key)).not.toContain("k7");
  expect((await search(exact, query))[0]).toMatchObject({ key: "k7" });

  // A new training (more lists) moves every vector to its own lists and drops the old centroids;
  // the answer is the same as before.
  const second = await index.lists.train(db, CLUSTERS + 2);
  expect(second).toMatchObject({ generation: first.generation + 1, assigned: 401 });
  const again = await search(lists, query);
  expect(again[0]).toMatchObject({ key: "k7" });
  expect(again.filter((item) => truth.some((best) => best.key === item.key)).length).toBeGreaterThanOrEqual(8);
  const [{ generations }] = await db.$queryRaw<{ generations: number[] }[]>`
    SELECT array_agg(DISTINCT generation) AS generations FROM store_vector_lists`;
  expect(generations).toEqual([second.generation]);

  // Where the lists cannot answer, the exact scan does: a prefix with few items, and a page past
  // the candidates (the items without vectors come last, as ever).
  const few = await lists.search({ namespacePrefix: ["few"], query: JSON.stringify(query), limit: 5, offset: 0 });
  expect(few.map((item) => item.key)).toEqual(["one"]);
  const tail = await search(lists, query, 395, 10);
  expect(tail).toEqual(await search(exact, query, 395, 10));
  expect(tail.at(-1)).toMatchObject({ key: "unindexed", score: null });
});

it("joins back the best few candidates first, and the wider set where the filter leaves too few", async () => {
  // Every list probed: all 400 vectors are candidates, so the item the exact scan ranks 200th is
  // one, past the first 100 the search joins back first.
  const lists = new StoreRepository(
    db,
    new SemanticIndex(DIMS, ["text"], "test", embed, { nprobe: 100, exactBelow: 100 }),
  );
  const exact = new StoreRepository(db, indexWith(2 ** 31 - 1));
  const query = vectors.get("k11")!;
  const ranked = await search(exact, query, 0, 400);
  const far = ranked[200]!;
  const filtered = (repository: StoreRepository) =>
    repository.search({
      namespacePrefix: ["docs"],
      query: JSON.stringify(query),
      filter: { text: far.value.text },
      limit: 1,
      offset: 0,
      refreshTtl: false,
    });
  const found = await filtered(lists);
  expect(found.map((item) => item.key)).toEqual([far.key]);
  expect(found[0]!.score).toBeCloseTo(far.score!, 5);
  // Unfiltered, the first 100 answer, as the exact scan does.
  expect((await search(lists, query)).map((item) => item.key)).toEqual(ranked.slice(0, 10).map((item) => item.key));
});

it("fills the float32 copies of vectors written before them, empty vectors included, and ends", async () => {
  const index = indexWith(100);
  // 2,001 empty vectors (more than a fill's batch) and one of the index's dims, without copies.
  await db.$executeRaw`
    INSERT INTO store_items (namespace, key, value) SELECT 'empty', 'e' || i, '{}'::jsonb FROM generate_series(1, 2002) i`;
  await db.$executeRaw`
    INSERT INTO store_vectors (namespace, key, path, position, embedding)
    SELECT 'empty', 'e' || i, 'text', 0, CASE WHEN i = 1 THEN ${near(0)}::real[] ELSE '{}'::real[] END
    FROM generate_series(1, 2002) i`;
  await db.$executeRaw`UPDATE store_vectors SET embedding_f32 = NULL, embedding_i8 = NULL WHERE namespace = 'empty'`;
  await index.lists.train(db, CLUSTERS);
  const rows = await db.$queryRaw<{ bytes: number; vectors: number }[]>`
    SELECT octet_length(embedding_f32) AS bytes, count(*)::int AS vectors FROM store_vectors
    WHERE namespace = 'empty' GROUP BY 1 ORDER BY 1`;
  expect(rows).toEqual([
    { bytes: 0, vectors: 2001 },
    { bytes: DIMS * 4, vectors: 1 },
  ]);
}, 30_000);

it("a training fills every int8 copy; the background upkeep a share per pass", async () => {
  const index = indexWith(100);
  // More vectors without an int8 copy than one upkeep pass fills (20 batches of 1,000).
  await db.$executeRaw`
    INSERT INTO store_items (namespace, key, value) SELECT 'bulk', 'b' || i, '{}'::jsonb FROM generate_series(1, 21000) i`;
  await db.$executeRaw`
    INSERT INTO store_vectors (namespace, key, path, position, embedding)
    SELECT 'bulk', 'b' || i, 'text', 0, ${near(1)}::real[] FROM generate_series(1, 21000) i`;
  const missing = async () =>
    (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM store_vectors WHERE embedding_i8 IS NULL`)[0]!
      .n;
  await db.$executeRaw`UPDATE store_vectors SET embedding_i8 = NULL`;
  const all = await missing();
  expect(all).toBeGreaterThanOrEqual(21_000);
  await index.lists.train(db, CLUSTERS);
  expect(await missing()).toBe(0);
  await db.$executeRaw`UPDATE store_vectors SET embedding_i8 = NULL`;
  await index.lists.assignUnlisted(db);
  expect(await missing()).toBe(all - 20_000);
}, 60_000);

it("trains unit centroids whatever the sample vectors' length, an emptied list's new seed too", () => {
  // Vectors of length 10 (as vectors written by SQL may be: the growth bench's are not unit), in
  // two directions, for four lists: at least two lists are left empty each round and take a sample
  // vector anew. Such a seed of length 10 took every vector of its direction from the centroids
  // trained for it (dot products 10 times theirs), which then answered queries with empty lists.
  const directions = [near(0), near(1)].map((vector) => {
    const norm = Math.sqrt(dot(vector, vector));
    return vector.map((x) => (10 * x) / norm);
  });
  const sample = Array.from({ length: 12 }, (_, i) => Float32Array.from(directions[i % 2]!));
  for (const rounds of [1, 3]) {
    const centroids = kmeans(sample, 4, rounds);
    for (const centroid of centroids) expect(Math.sqrt(dot(centroid, centroid))).toBeCloseTo(1, 5);
  }
});
