// The int8 copies of the semantic index's vectors (issue 40): what a search by lists scores its
// candidates by. At 1536 dims the float32 copy (6 KB) lives out of line (TOAST), and reading one
// per candidate, thousands per search, was most of a search's time; the int8 copy (1.5 KB, the
// column's storage MAIN) is read with the row. The best few are then re-ranked by their float32
// vectors, so the scores a search answers are the exact scan's. Vectors written before the copy
// existed get theirs from the background upkeep, and are scored by their float32 copy meanwhile.
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { readRows } from "./read-rows";
import { dotF32, fromF32Bytes } from "./vectors";

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
  const rows = await readRows<[namespace: string, key: string, f32: Uint8Array | null]>(db, sql);
  const scratch = new Float32Array(target.length);
  for (const [namespace, key, f32] of rows) {
    if (!f32 || f32.length !== target.length * 4) continue;
    const score = dotF32(fromF32Bytes(f32, scratch), target);
    const id = itemId(namespace, key);
    if (!(scores.get(id)! >= score)) scores.set(id, score);
  }
  return scores;
}
