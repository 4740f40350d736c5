// The int8 copies of the semantic index's vectors (store/quantized.ts), at OpenAI's 1536 dims: a
// search by lists picks its candidates by their int8 copies (kept in the row, and read from the
// lists' covering index by index-only scans) and re-ranks the best by their float32 vectors,
// answering what the exact scan answers; a vector without its copy (written before it existed), or
// too long for the index with its namespace and key, is still found, from the table.
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { createDb, type Db } from "../../src/db";
import { Prisma } from "../../src/generated/prisma/client";
import { inlined } from "../../src/store/copy-rows";
import { StoreRepository } from "../../src/store/repository";
import { SemanticIndex } from "../../src/store/semantic-index";
import { scanExactly } from "../../src/store/quantized";
import { toF32Bytes, toI8Bytes } from "../../src/store/vectors";

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
    // The same scores, to the bit: the re-ranking computes them as the exact scan does.
    expect(found.map((item) => item.score)).toEqual(truth.map((item) => item.score));
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

it("reads the candidates' int8 copies by index-only scans of the lists' covering index", async () => {
  const index = lists();
  const repository = new StoreRepository(db, index);
  const exact = new StoreRepository(db, exactIndex());
  await db.$executeRawUnsafe("VACUUM (ANALYZE) store_vectors");
  const generations = await index.lists.live(db);
  const sql = index.lists.candidateSql(vectors.get("q:1")!, generations, Prisma.sql`starts_with(namespace, ${"docs"})`);
  // On 120 rows the planner would rather read them all: told not to, it shows which index serves.
  const plan = await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    return tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN (ANALYZE) ${inlined(sql)}`);
  });
  const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
  expect(text).toMatch(/Index Only Scan using store_vectors_list_codes_idx/);
  expect(text).not.toMatch(/Heap Fetches: [1-9]/);
  expect(text).toMatch(/store_vectors_list_uncovered_idx/);

  // A vector whose namespace, key and int8 copy exceed a btree entry is put all the same, left out
  // of the covering index, and found from the table; so is a vector in no list.
  const long = `k${"x".repeat(1100)}`;
  vectors.set("v:long", near(2));
  await repository.put(["docs"], long, { text: "v:long" });
  await db.$executeRaw`UPDATE store_vectors SET list_generation = NULL, list = NULL WHERE key = 'k7'`;
  const [covered] = await db.$queryRaw<{ long: number; unlisted: number }[]>`
    SELECT count(*) FILTER (WHERE key = ${long})::int AS long, count(*) FILTER (WHERE key = 'k7')::int AS unlisted
    FROM store_vectors WHERE octet_length(namespace) + octet_length(key) + octet_length(embedding_i8) < 2600`;
  expect(covered).toEqual({ long: 0, unlisted: 1 });
  for (const [query, key] of [
    ["v:long", long],
    ["v:7", "k7"],
  ]) {
    const found = await search(repository, query!);
    expect(found[0]).toMatchObject({ key });
    expect(found.map((item) => [item.key, item.score])).toEqual(
      (await search(exact, query!)).map((item) => [item.key, expect.closeTo(item.score!, 5)]),
    );
  }
});

it("scans a prefix of few items in the runtime, scoring each item to the bit as SQL's exact scan", async () => {
  // An item of two vectors, one of other dims (scored over the shorter, as SQL pairs elements), one
  // whose only vector is empty (no score), and ordinary ones.
  const rows: [key: string, position: number, vector: number[]][] = [
    ["two", 0, near(0)],
    ["two", 1, near(1)],
    ["short", 0, near(2).slice(0, 3)],
    ["empty", 0, []],
    ...Array.from({ length: 6 }, (_, i): [string, number, number[]] => [`plain${i}`, 0, near(i % CLUSTERS)]),
  ];
  // Elements exact in float32, so the real[] and its float32 copy hold the same values (this
  // test's vectors lie on a grid where rounding a double to float32 often meets a tie, which
  // PostgreSQL's parse of its decimal text and a put's own rounding may break differently).
  const exactly = (vector: number[]) => Array.from(Float32Array.from(vector));
  for (const [key, position, vector] of rows) {
    await db.$executeRaw`INSERT INTO store_items (namespace, key, value) VALUES ('few', ${key}, '{}') ON CONFLICT DO NOTHING`;
    await db.$executeRaw`
      INSERT INTO store_vectors (namespace, key, path, position, embedding, embedding_f32)
      VALUES ('few', ${key}, 'text', ${position}::int, ${exactly(vector)}::real[], ${toF32Bytes(exactly(vector))}::bytea)`;
  }
  const query = exactly(vectors.get("q:1")!);
  const bySql = await db.$queryRaw<{ key: string; score: number | null }[]>`
    SELECT key, max((SELECT sum(a * b) FROM unnest(v.embedding, ${query}::real[]) AS t(a, b)))::float8 AS score
    FROM store_vectors v WHERE namespace = 'few' GROUP BY key ORDER BY key`;
  const few = Prisma.sql`namespace = ${"few"}`;
  const scanned = (await scanExactly(db, Float32Array.from(query), 100, few))!;
  expect(scanned.map((item) => [item.key, item.score]).sort()).toEqual(
    bySql.filter((row) => row.score !== null).map((row) => [row.key, row.score]),
  );
  expect(bySql.find((row) => row.key === "empty")).toEqual({ key: "empty", score: null });

  // More vectors than asked for, or one without its float32 copy: SQL's scan answers.
  expect(await scanExactly(db, Float32Array.from(query), rows.length - 1, few)).toBeUndefined();
  await db.$executeRaw`UPDATE store_vectors SET embedding_f32 = NULL WHERE namespace = 'few' AND key = 'plain0'`;
  expect(await scanExactly(db, Float32Array.from(query), 100, few)).toBeUndefined();
});
