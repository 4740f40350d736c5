// The int8 copies of the semantic index's vectors (issue 40): what a search by lists scores its
// candidates by. At 1536 dims the float32 copy (6 KB) lives out of line (TOAST), and reading one
// per candidate, thousands per search, was most of a search's time; the int8 copy (1.5 KB, the
// column's storage MAIN) is kept in the row and, with the namespace and key, in an index ordered
// by list, which a search reads by index-only scans (vector-lists.ts candidateSql). The best few
// are then re-ranked by their float32 vectors, so the scores a search answers are the exact
// scan's. Vectors written before the copy existed get theirs from the background upkeep, and are
// scored by their float32 copy meanwhile.
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { binaryRows, type BinaryRows } from "./copy-rows";
import { dotAsSql, dotF32, dotI8At, fromF32Bytes } from "./vectors";

const BATCH = 1000;

// A real[]'s int8 copy (vectors.ts toI8Bytes) in SQL: the float32 scale, then each element over
// it as a byte (two's complement, by hex). An empty vector gets the scale alone; a scale is at
// least 1e-37 (a vector of tiny values would underflow a real, an error that stopped the upkeep).
const I8_OF_EMBEDDING = Prisma.sql`(
  SELECT float4send(m.scale::real) || coalesce(decode(string_agg(
           lpad(to_hex(greatest(-127, least(127, round(u.x / m.scale)))::int & 255), 2, '0'), '' ORDER BY u.i), 'hex'), ''::bytea)
  FROM (SELECT greatest(coalesce(nullif(max(abs(x)), 0) / 127, 1), 1e-37)::real::float8 AS scale FROM unnest(v.embedding) AS x) m
  LEFT JOIN unnest(v.embedding) WITH ORDINALITY AS u(x, i) ON true
  GROUP BY m.scale)`;

/**
 * Gives vectors without an int8 copy their copy, in batches (the partial index of the vectors
 * without one finds them, and holds none once they are filled: the copy is never null), at most
 * `batches` of them (the upkeep's pass does a share, the rest waits for the next). Computed by SQL,
 * so the API's thread only waits. How many were filled.
 */
export async function fillI8(db: Db, batches = Infinity): Promise<number> {
  let filled = 0;
  for (let batch = 0; batch < batches; batch++) {
    const count = await db.$executeRaw`
      UPDATE store_vectors v SET embedding_i8 = ${I8_OF_EMBEDDING}
      WHERE (v.namespace, v.key, v.path, v.position) IN (
        SELECT namespace, key, path, position FROM store_vectors WHERE embedding_i8 IS NULL LIMIT ${BATCH}::int)`;
    filled += count;
    if (count < BATCH) break;
  }
  return filled;
}

/**
 * The columns of a search's candidate vectors (vector-lists.ts readCandidates): their item's
 * namespace and key, their int8 copy, and their float32 bytes (big-endian) only where they have no
 * int8 copy yet.
 */
export const CANDIDATE = { namespace: 0, key: 1, i8: 2, f32: 3 } as const;

/** An item's id in a search's maps: its namespace and key. */
export const itemId = (namespace: string, key: string) => `${namespace}\u0000${key}`;

/**
 * The exact scores (best dot product of its vectors' float32 copies with `target`) of a few items:
 * the re-ranking of the best candidates by their int8 copies. Every vector of an item counts, as
 * in the exact scan; an item none of whose vectors has a float32 copy of these dims is left out.
 */
export async function exactScores(
  db: Db,
  items: { namespace: string; key: string }[],
  target: Float32Array,
): Promise<Map<string, number>> {
  const scores = new Map<string, number>();
  if (!items.length) return scores;
  const sql = Prisma.sql`SELECT namespace, key, embedding_f32 FROM store_vectors
    WHERE (namespace, key) IN (SELECT * FROM unnest(${items.map((item) => item.namespace)}::text[],
                                                     ${items.map((item) => item.key)}::text[]))`;
  // By a binary COPY where it can (copy-rows.ts): 100 float32 vectors are 600 KB, 1.2 MB as hex.
  const rows = await binaryRows(db, sql, 3);
  const scratch = new Float32Array(target.length);
  for (let row = 0; row < rows.count; row++) {
    const f32 = rows.bytes(row, 2);
    if (!f32 || f32.length !== target.length * 4) continue;
    // As the exact scan computes it (float32 arithmetic), so both answer an item the same score.
    const score = dotAsSql(fromF32Bytes(f32, scratch), target);
    const id = itemId(rows.text(row, 0)!, rows.text(row, 1)!);
    if (!(scores.get(id)! >= score)) scores.set(id, score);
  }
  rows.release();
  return scores;
}

/**
 * Every item with a vector under `prefix` (a condition on store_vectors; every item without one),
 * scored from its vectors' float32 copies as the exact scan in SQL scores it, to the bit (vectors.ts
 * dotAsSql): its vectors' best dot product with `target`. (To the bit where the copy holds the
 * real[]'s values: a put rounds each element to float32 itself, which differs from PostgreSQL's
 * parse of its text only at an exact tie, not met by an embedding's doubles.) For a prefix of few
 * items: undefined where there are more than `most` vectors, or a vector has no float32 copy yet
 * (SQL's scan answers those).
 */
export async function scanExactly(
  db: Db,
  target: Float32Array,
  most: number,
  prefix?: Prisma.Sql,
): Promise<RankedItem[] | undefined> {
  const sql = Prisma.sql`SELECT namespace, key, embedding_f32 FROM store_vectors
    ${prefix ? Prisma.sql`WHERE ${prefix}` : Prisma.empty} LIMIT ${most + 1}::bigint`;
  const rows = await binaryRows(db, sql, 3);
  try {
    if (rows.count > most) return undefined;
    const best = new Map<string, RankedItem>();
    const scratch = new Float32Array(target.length);
    for (let row = 0; row < rows.count; row++) {
      const f32 = rows.bytes(row, 2);
      if (!f32) return undefined;
      // An empty vector scores nothing, as in SQL (a sum of no pairs is null).
      if (f32.length === 0) continue;
      const score = dotAsSql(fromF32Bytes(f32, f32.length === target.length * 4 ? scratch : undefined), target);
      const namespace = rows.text(row, 0)!;
      const key = rows.text(row, 1)!;
      const id = itemId(namespace, key);
      const seen = best.get(id);
      if (!seen) best.set(id, { namespace, key, score, exact: true });
      else if (score > seen.score) seen.score = score;
    }
    return [...best.values()];
  } finally {
    rows.release();
  }
}

/** A search's item by its best vector: scored by int8 copies, or exactly (float32) once re-ranked. */
export interface RankedItem {
  namespace: string;
  key: string;
  score: number;
  exact: boolean;
}

/**
 * The best `most` items of a search's candidates (vector-lists.ts readCandidates), best first,
 * each scored by its best vector: by the int8 copy, or by the float32 one where the upkeep has not
 * filled the int8 copy yet. A vector of other dims (the index's were changed) scores nothing, as
 * in the exact scan's sum over the shorter vector. The vectors are scored in place and ranked by
 * their scores; an item's first vector in that order is its best, so names are read only for the
 * vectors walked until `most` items are found (a few thousand strings and map entries per search
 * cost more than the scoring of those vectors).
 */
export function rankCandidates(rows: BinaryRows, target: Float32Array, most: number): RankedItem[] {
  const { data } = rows;
  const codes = new Int8Array(data.buffer, data.byteOffset, data.length);
  const scratch = new Float32Array(target.length);
  const scores = new Float64Array(rows.count);
  const scored: number[] = [];
  for (let row = 0; row < rows.count; row++) {
    const i8 = rows.length(row, CANDIDATE.i8);
    if (i8 === target.length + 4) scores[row] = dotI8At(codes, rows.start(row, CANDIDATE.i8), target);
    else if (rows.length(row, CANDIDATE.f32) === target.length * 4)
      scores[row] = dotF32(fromF32Bytes(rows.bytes(row, CANDIDATE.f32)!, scratch), target);
    else continue;
    scored.push(row);
  }
  scored.sort((a, b) => scores[b]! - scores[a]!);
  const ranked: RankedItem[] = [];
  const seen = new Set<string>();
  for (const row of scored) {
    const namespace = rows.text(row, CANDIDATE.namespace)!;
    const key = rows.text(row, CANDIDATE.key)!;
    const id = itemId(namespace, key);
    if (seen.has(id)) continue;
    seen.add(id);
    ranked.push({ namespace, key, score: scores[row]!, exact: false });
    if (ranked.length >= most) break;
  }
  return ranked;
}
