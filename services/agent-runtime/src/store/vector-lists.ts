// The semantic index's lists (issue 40): an IVF index in plain PostgreSQL. k-means centroids of a
// sample of store_vectors split the vectors into about sqrt(n) lists; a vector is put in its
// nearest list when written, and a search with `query` reads and scores only the vectors of the
// query's `nprobe` nearest lists, instead of every vector under the namespace prefix.
//
// A training is a generation. Vectors in an older generation's lists are moved to the newest in
// the background, and meanwhile searched through their own generation's centroids, which stay
// until no vector is in them; a vector in no list (written before any training, by a process whose
// centroids were not loaded yet, or of a generation gone) is always a candidate. So a search never
// misses a vector for want of its list: what it trades for speed is only the probe's recall.
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { CentroidWorker } from "./centroid-worker";
import { binaryRows, type BinaryRows } from "./copy-rows";
import { fillI8 } from "./quantized";
import { readRows } from "./read-rows";
import { fromF32Bytes, nearest, nearestOne, rowsOf, toF32Bytes } from "./vectors";

export interface VectorSearchSettings {
  /** Lists a search reads: the query's nearest centroids (of each live generation). */
  nprobe: number;
  /**
   * Below this many items under the namespace prefix (or before any training) a search is an
   * exact scan; a training starts once the store holds this many vectors.
   */
  exactBelow: number;
}

export const DEFAULT_VECTOR_SEARCH: VectorSearchSettings = { nprobe: 12, exactBelow: 2000 };

interface Generation {
  generation: number;
  centroids: Float32Array[];
}

/** Vectors sampled per list for k-means, and its rounds: a few seconds' CPU at 100k vectors of 1536 dims. */
const SAMPLE_PER_LIST = 24;
const MIN_SAMPLE = 2048;
const ROUNDS = 6;
/** How long a process trusts its centroids before asking which generations there are. */
const CACHE_MS = 5_000;
const BATCH = 500;
/**
 * Float32 vectors read at once by the upkeep (a training's sample, the vectors moved to new lists):
 * 200 of 1536 dims are 1.2 MB, a few ms of the API's thread to take in.
 */
const READ_BATCH = 200;
/** Batches of 1,000 int8 copies the upkeep fills per pass (quantized.ts fillI8). */
const FILL_BATCHES_PER_PASS = 20;

type VectorKey = { namespace: string; key: string; path: string; position: number };

// The predicates of store_vectors_list_codes_idx and of the index of the vectors it leaves out
// (a btree entry holds at most 2,704 bytes), as their migration writes them: a query uses a
// partial index only where its conditions imply the index's, literals included.
const CODES_COVERED = Prisma.raw("octet_length(namespace) + octet_length(key) + octet_length(embedding_i8) < 2600");
const CODES_UNCOVERED = Prisma.raw(
  "(embedding_i8 IS NULL OR octet_length(namespace) + octet_length(key) + octet_length(embedding_i8) >= 2600)",
);

// A real[]'s float32 bytes, big-endian: how SQL fills embedding_f32 of vectors written before it.
// An empty vector's is empty bytes, not null: a null would be chosen to fill again on every pass,
// and 2,000 of them (a batch) kept the fill from ever ending.
const F32_OF_EMBEDDING = Prisma.sql`(SELECT coalesce(string_agg(float4send(x), ''::bytea ORDER BY i), ''::bytea) FROM unnest(embedding) WITH ORDINALITY AS u(x, i))`;

export class VectorLists {
  private generations: Generation[] = [];
  private checkedAt = -Infinity;
  private loading?: Promise<Generation[]>;

  constructor(
    readonly dims: number,
    readonly settings: VectorSearchSettings = DEFAULT_VECTOR_SEARCH,
  ) {}

  /** The generations with centroids of these dims, oldest first (cached for a few seconds). */
  async live(db: Db): Promise<Generation[]> {
    if (Date.now() - this.checkedAt < CACHE_MS) return this.generations;
    this.loading ??= this.load(db).finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** Where a vector written now goes: the newest generation's nearest list; null before any training. */
  async assign(db: Db, vector: ArrayLike<number>): Promise<{ generation: number; list: number } | null> {
    const newest = (await this.live(db)).at(-1);
    return newest ? { generation: newest.generation, list: nearestOne(vector, newest.centroids) } : null;
  }

  /**
   * The statement of a search's candidates (namespace, key, int8 copy, float32 bytes where there is
   * no int8 copy), under `prefix` when given. The int8 copies come from store_vectors_list_codes_idx
   * by index-only scans, a list's copies together in its leaf pages, one branch per probed
   * generation and per range of unlisted vectors (their OR would be a bitmap scan, which reads the
   * table); the vectors that index leaves out (no int8 copy yet, or too long for a btree entry)
   * from the table, found by the index of those (both indexes: migration 20261207010000).
   */
  candidateSql(query: ArrayLike<number>, generations: Generation[], prefix?: Prisma.Sql): Prisma.Sql {
    const under = prefix ? Prisma.sql`AND ${prefix}` : Prisma.empty;
    const ranges = [
      ...this.probes(query, generations),
      ...unlistedRanges(generations.map((entry) => entry.generation)),
    ];
    return Prisma.join(
      [
        ...ranges.map(
          (range) =>
            Prisma.sql`SELECT namespace, key, embedding_i8, NULL::bytea FROM store_vectors WHERE ${range} AND ${CODES_COVERED} ${under}`,
        ),
        Prisma.sql`SELECT namespace, key, embedding_i8, CASE WHEN embedding_i8 IS NULL THEN embedding_f32 END
          FROM store_vectors WHERE (${Prisma.join(ranges, " OR ")}) AND ${CODES_UNCOVERED} ${under}`,
      ],
      " UNION ALL ",
    );
  }

  /**
   * The vectors of a search's candidates (candidateSql; quantized.ts CANDIDATE names their
   * columns): by a binary COPY where the client's pool is at hand (copy-rows.ts: the bytes
   * themselves, not hex text of twice their size), else through Prisma. The float32 copy, out of
   * line at realistic dims, is read only for a vector without its int8 copy.
   */
  async readCandidates(
    db: Db,
    query: ArrayLike<number>,
    generations: Generation[],
    prefix?: Prisma.Sql,
  ): Promise<BinaryRows> {
    const sql = this.candidateSql(query, generations, prefix);
    return binaryRows(db, sql, 4);
  }

  /** The query's `nprobe` nearest lists of each live generation, a condition each. */
  private probes(query: ArrayLike<number>, generations: Generation[]): Prisma.Sql[] {
    return generations.map(({ generation, centroids }) => {
      const lists = nearest(query, centroids, this.settings.nprobe);
      return Prisma.sql`(list_generation = ${generation}::int AND list = ANY(${lists}::int[]))`;
    });
  }

  /**
   * The background upkeep: a first training once the store holds `exactBelow` vectors, a new one
   * when they have doubled since; then vectors not in the newest generation's lists are put there,
   * and the centroids of generations no vector is in any more are dropped.
   */
  async maintain(db: Db): Promise<{ trained: boolean; assigned: number }> {
    const [{ vectors }] = await db.$queryRaw<{ vectors: number }[]>`SELECT count(*)::int AS vectors FROM store_vectors`;
    const last = await this.lastTraining(db);
    const due = last ? vectors >= 2 * last.vectors : vectors >= this.settings.exactBelow;
    if (due) {
      const { assigned } = await this.train(db);
      return { trained: true, assigned };
    }
    return { trained: false, assigned: await this.assignUnlisted(db) };
  }

  /** Trains a new generation now (`lists` centroids, default sqrt of the vectors) and moves every vector to it. */
  async train(db: Db, lists?: number): Promise<{ generation: number; lists: number; assigned: number }> {
    await this.fillF32(db);
    const [{ vectors }] = await db.$queryRaw<{ vectors: number }[]>`
      SELECT count(*)::int AS vectors FROM store_vectors WHERE octet_length(embedding_f32) = ${this.dims * 4}::int`;
    if (vectors === 0) throw new Error("the store has no vectors to train the semantic index's lists on");
    const k = Math.min(vectors, lists ?? Math.max(1, Math.round(Math.sqrt(vectors))));
    // The sample's keys first, then its vectors a few hundred at a time (READ_BATCH): read at once,
    // 7,600 vectors of 1536 dims held the API's thread for hundreds of ms.
    const keys = await db.$queryRaw<VectorKey[]>`
      SELECT namespace, key, path, position FROM store_vectors WHERE octet_length(embedding_f32) = ${this.dims * 4}::int
      ORDER BY random() LIMIT ${Math.max(MIN_SAMPLE, k * SAMPLE_PER_LIST)}::int`;
    const sample = new Float32Array(keys.length * this.dims);
    let read = 0;
    for (let start = 0; start < keys.length; start += READ_BATCH) {
      const batch = keys.slice(start, start + READ_BATCH);
      const rows = await readRows<[f32: Uint8Array]>(
        db,
        Prisma.sql`SELECT embedding_f32 FROM store_vectors WHERE ${keyIn(batch)} AND octet_length(embedding_f32) = ${this.dims * 4}::int`,
      );
      for (const [f32] of rows) fromF32Bytes(f32, sample.subarray(read * this.dims, ++read * this.dims));
    }
    // The CPU goes to a worker thread: k-means here, the vectors' nearest lists in assignUnlisted.
    const worker = new CentroidWorker();
    try {
      const centroids = rowsOf(await worker.kmeans(sample.slice(0, read * this.dims), this.dims, k, ROUNDS), this.dims);
      return await this.saveGeneration(db, centroids, vectors, worker);
    } finally {
      await worker.close();
    }
  }

  /** The new generation's centroids saved, and every vector moved to its lists. */
  private async saveGeneration(
    db: Db,
    centroids: Float32Array[],
    vectors: number,
    worker: CentroidWorker,
  ): Promise<{ generation: number; lists: number; assigned: number }> {
    const k = centroids.length;
    const generation = await db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ generation: number }[]>`
        INSERT INTO store_vector_trainings (dims, lists, vectors) VALUES (${this.dims}::int, ${k}::int, ${vectors}::int)
        RETURNING generation`;
      for (let start = 0; start < centroids.length; start += 100) {
        const chunk = centroids.slice(start, start + 100);
        await tx.$executeRaw`
          INSERT INTO store_vector_lists (generation, list, centroid)
          SELECT ${row!.generation}::int, list, centroid
          FROM unnest(${chunk.map((_, i) => start + i)}::int[], ${chunk.map((centroid) => toF32Bytes(centroid))}::bytea[]) AS c(list, centroid)`;
      }
      return row!.generation;
    });
    this.checkedAt = -Infinity;
    return { generation, lists: k, assigned: await this.assignUnlisted(db, worker, Infinity) };
  }

  /**
   * Puts every vector not in the newest generation's lists into them, in batches, their nearest
   * lists found in `worker` (one of its own if any must move); how many moved.
   */
  async assignUnlisted(db: Db, worker?: CentroidWorker, fillBatches = FILL_BATCHES_PER_PASS): Promise<number> {
    this.checkedAt = -Infinity;
    await this.fillF32(db);
    const newest = (await this.live(db)).at(-1);
    if (!newest) return 0;
    let moved = 0;
    let thread = worker;
    let own: CentroidWorker | undefined;
    let ready = false;
    // One walk along the primary key (each batch after the last), not a rescan from the start.
    let after: [string, string, string, number] = ["", "", "", -1];
    try {
      for (;;) {
        const rows = await readRows<[namespace: string, key: string, path: string, position: number, f32: Uint8Array]>(
          db,
          Prisma.sql`
          SELECT namespace, key, path, position, embedding_f32 FROM store_vectors
          WHERE (namespace, key, path, position) > (${after[0]}, ${after[1]}, ${after[2]}, ${after[3]}::int)
            AND ${unlisted([newest.generation])} AND octet_length(embedding_f32) = ${this.dims * 4}::int
          ORDER BY namespace, key, path, position
          LIMIT ${READ_BATCH}::int`,
        );
        if (!rows.length) break;
        if (!thread) thread = own = new CentroidWorker();
        if (!ready) await thread.setCentroids(newest.centroids, this.dims);
        ready = true;
        const batch = new Float32Array(rows.length * this.dims);
        rows.forEach((row, i) => fromF32Bytes(row[4], batch.subarray(i * this.dims, (i + 1) * this.dims)));
        const lists = Array.from(await thread.nearest(batch, this.dims));
        moved += await db.$executeRaw`
        UPDATE store_vectors v SET list_generation = ${newest.generation}::int, list = u.list
        FROM unnest(${rows.map((row) => row[0])}::text[], ${rows.map((row) => row[1])}::text[],
                    ${rows.map((row) => row[2])}::text[], ${rows.map((row) => row[3])}::int[], ${lists}::int[])
             AS u(namespace, key, path, position, list)
        WHERE v.namespace = u.namespace AND v.key = u.key AND v.path = u.path AND v.position = u.position`;
        const last = rows.at(-1)!;
        after = [last[0], last[1], last[2], last[3]];
        if (rows.length < READ_BATCH) break;
      }
    } finally {
      await own?.close();
    }
    // Every moved row left a dead version in the lists' index under its old list (null before a
    // first training): until vacuumed, a search's `list_generation IS NULL` (or older generation)
    // range visits each of those heap pages, the whole table at 100k vectors (65 ms, not 11 ms).
    // And the planner must know the new lists, and the visibility map must say the moved rows'
    // pages are all visible, or the index-only reads of candidateSql visit the table for each.
    // VACUUM cannot run in a transaction: none is open here.
    // Then int8 copies for vectors written before they existed (scored by float32 until then): after
    // the lists, so new vectors are listed first, and in the background a share per pass, not a
    // whole table at once (a training, `npm run store:train` too, fills them all).
    const filled = await fillI8(db, fillBatches);
    if (moved + filled >= 1000) await db.$executeRawUnsafe("VACUUM (ANALYZE) store_vectors");
    await db.$executeRaw`
      DELETE FROM store_vector_lists l WHERE generation < ${newest.generation}::int
        AND NOT EXISTS (SELECT 1 FROM store_vectors v WHERE v.list_generation = l.generation)`;
    this.checkedAt = -Infinity;
    return moved;
  }

  private async lastTraining(db: Db): Promise<{ generation: number; vectors: number } | undefined> {
    const [row] = await db.$queryRaw<{ generation: number; vectors: number }[]>`
      SELECT generation, vectors FROM store_vector_trainings WHERE dims = ${this.dims}::int
      ORDER BY generation DESC LIMIT 1`;
    return row;
  }

  /** Vectors written before embedding_f32 existed get it from their real[]. */
  private async fillF32(db: Db): Promise<void> {
    for (;;) {
      const filled = await db.$executeRaw`
        UPDATE store_vectors SET embedding_f32 = ${F32_OF_EMBEDDING}
        WHERE (namespace, key, path, position) IN (
          SELECT namespace, key, path, position FROM store_vectors
          WHERE embedding_f32 IS NULL AND embedding IS NOT NULL LIMIT ${BATCH * 4}::int)`;
      if (filled < BATCH * 4) return;
    }
  }

  private async load(db: Db): Promise<Generation[]> {
    const rows = await db.$queryRaw<{ generation: number }[]>`
      SELECT DISTINCT l.generation FROM store_vector_lists l
      JOIN store_vector_trainings t ON t.generation = l.generation AND t.dims = ${this.dims}::int
      ORDER BY 1`;
    const known = new Map(this.generations.map((entry) => [entry.generation, entry]));
    const generations: Generation[] = [];
    for (const { generation } of rows) {
      const cached = known.get(generation);
      if (cached) {
        generations.push(cached);
        continue;
      }
      const lists = await db.$queryRaw<{ centroid: Uint8Array }[]>`
        SELECT centroid FROM store_vector_lists WHERE generation = ${generation}::int ORDER BY list`;
      generations.push({ generation, centroids: lists.map((row) => fromF32Bytes(row.centroid)) });
    }
    this.generations = generations;
    this.checkedAt = Date.now();
    return generations;
  }
}

/**
 * Vectors in none of these generations' lists, as ranges the (list_generation, list) index reads.
 * `generations` ascending.
 */
function unlisted(generations: number[]): Prisma.Sql {
  return Prisma.sql`(${Prisma.join(unlistedRanges(generations), " OR ")})`;
}

/** unlisted()'s ranges, each a condition. */
function unlistedRanges(generations: number[]): Prisma.Sql[] {
  const ranges = [Prisma.sql`list_generation IS NULL`];
  generations.forEach((generation, index) => {
    const previous = generations[index - 1];
    ranges.push(
      previous === undefined
        ? Prisma.sql`list_generation < ${generation}::int`
        : Prisma.sql`(list_generation > ${previous}::int AND list_generation < ${generation}::int)`,
    );
  });
  const last = generations.at(-1);
  if (last !== undefined) ranges.push(Prisma.sql`list_generation > ${last}::int`);
  return ranges;
}

/** The vectors with these primary keys, as a condition on store_vectors. */
function keyIn(keys: VectorKey[]): Prisma.Sql {
  return Prisma.sql`(namespace, key, path, position) IN (
    SELECT * FROM unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.key)}::text[],
                         ${keys.map((k) => k.path)}::text[], ${keys.map((k) => k.position)}::int[]))`;
}
