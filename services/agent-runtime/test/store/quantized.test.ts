// The int8 copies of the semantic index's vectors (store/quantized.ts), at OpenAI's 1536 dims: a
// search by lists picks its candidates by their int8 copies (kept in the row) and re-ranks the best
// by their float32 vectors, answering what the exact scan answers; a vector without its copy
// (written before it existed) is still found, by its float32 copy, until the upkeep fills it.
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { createDb, type Db } from "../../src/db";
import { StoreRepository } from "../../src/store/repository";
import { SemanticIndex } from "../../src/store/semantic-index";
import { toI8Bytes } from "../../src/store/vectors";

const DIMS = 1536;
const CLUSTERS = 4;
const ITEMS = 120;
let database: TestDatabase;
let db: Db;

let seed = 11;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const centers = Array.from({ length: CLUSTERS }, () => Array.from({ length: DIMS }, () => random() - 0.5));
const near = (cluster: number) => centers[cluster]!.map((x) => x + 0.8 * (random() - 0.5));
// Texts name their vectors (`v:3`), so the embedding is exact and needs no model.
const vectors = new Map<string, number[]>();
const embed = async (texts: string[]) => texts.map((text) => vectors.get(text)!);

// Every list probed, and the lists answer from 50 items: any difference from the exact scan's
// answer is the int8 copies', not the probe's.
const lists = () => new SemanticIndex(DIMS, ["text"], "test", embed, { nprobe: CLUSTERS, exactBelow: 50 });
const exactIndex = () => new SemanticIndex(DIMS, ["text"], "test", embed, { nprobe: 1, exactBelow: 2 ** 31 - 1 });

beforeAll(async () => {
  database = await createTestDatabase("agent-runtime");
  db = createDb(database.url, 4);
  for (let i = 0; i < ITEMS; i++) vectors.set(`v:${i}`, near(i % CLUSTERS));
  for (let i = 0; i < CLUSTERS; i++) vectors.set(`q:${i}`, near(i));
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const search = (repository: StoreRepository, query: string, limit = 10) =>
  repository.search({ namespacePrefix: ["docs"], query, limit, offset: 0, refreshTtl: false });

async function expectExactAnswers(repository: StoreRepository, exact: StoreRepository): Promise<void> {
  for (const query of ["q:0", "q:1", "q:2", "q:3", "v:5"]) {
    const truth = await search(exact, query);
    const found = await search(repository, query);
    expect(found.map((item) => item.key)).toEqual(truth.map((item) => item.key));
    found.forEach((item, i) => expect(item.score).toBeCloseTo(truth[i]!.score!, 5));
  }
}

it("picks candidates by int8 copies kept in the row, and answers the exact scan's ranking", async () => {
  const index = lists();
  const repository = new StoreRepository(db, index);
  const exact = new StoreRepository(db, exactIndex());
  for (let i = 0; i < ITEMS; i += 30)
    await Promise.all(
      Array.from({ length: 30 }, (_, j) => repository.put(["docs"], `k${i + j}`, { text: `v:${i + j}` })),
    );
  await index.lists.train(db, CLUSTERS);

  // A put writes the copy: a scale and a byte per dimension, stored in the row (MAIN), not out of line.
  const [copies] = await db.$queryRaw<{ count: number; bytes: number; storage: string }[]>`
    SELECT count(*)::int AS count, min(octet_length(embedding_i8))::int AS bytes,
           (SELECT attstorage::text FROM pg_attribute WHERE attrelid = 'store_vectors'::regclass AND attname = 'embedding_i8') AS storage
    FROM store_vectors WHERE octet_length(embedding_i8) = ${DIMS + 4}::int`;
  expect(copies).toEqual({ count: ITEMS, bytes: DIMS + 4, storage: "m" });

  await expectExactAnswers(repository, exact);

  // The candidates are chosen by the int8 copy: the best item's copy made to point away from the
  // query (its float32 vector untouched) drops it out of the re-ranked few; the exact scan keeps it.
  const best = (await search(exact, "v:5"))[0]!;
  expect(best.key).toBe("k5");
  const away = toI8Bytes(vectors.get("v:5")!.map((x) => -x));
  await db.$executeRaw`UPDATE store_vectors SET embedding_i8 = ${away}::bytea WHERE key = 'k5'`;
  expect((await search(repository, "v:5")).map((item) => item.key)).not.toContain("k5");
  await db.$executeRaw`UPDATE store_vectors SET embedding_i8 = ${toI8Bytes(vectors.get("v:5")!)}::bytea WHERE key = 'k5'`;
});

it("finds vectors without an int8 copy by their float32 one, and the upkeep fills their copies", async () => {
  const index = lists();
  const repository = new StoreRepository(db, index);
  const exact = new StoreRepository(db, exactIndex());
  // As if written before the copy existed: every other vector, k5 (the best for v:5) among them.
  const removed = await db.$executeRaw`UPDATE store_vectors SET embedding_i8 = NULL WHERE substr(key, 2)::int % 2 = 1`;
  expect(removed).toBe(ITEMS / 2);
  await expectExactAnswers(repository, exact);
  expect((await search(repository, "v:5"))[0]).toMatchObject({ key: "k5" });

  // The upkeep's pass fills them by SQL, as a put would have written them (to a unit in the last
  // place: SQL rounds the stored float32 values, a put the embedding's own).
  await index.lists.maintain(db);
  const rows = await db.$queryRaw<{ key: string; i8: Uint8Array | null; embedding: number[] }[]>`
    SELECT key, embedding_i8 AS i8, embedding FROM store_vectors ORDER BY key`;
  expect(rows.filter((row) => row.i8?.length !== DIMS + 4)).toEqual([]);
  for (const row of rows.slice(0, 10)) {
    const expected = toI8Bytes(row.embedding);
    const got = Buffer.from(row.i8!);
    expect(got.readFloatBE(0)).toBeCloseTo(expected.readFloatBE(0), 9);
    for (let i = 4; i < expected.length; i++)
      expect(Math.abs(got.readInt8(i) - expected.readInt8(i))).toBeLessThanOrEqual(1);
  }
  await expectExactAnswers(repository, exact);
});
