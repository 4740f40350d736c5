// The growth bench's embedding function for its semantic part (`--dims`): a text about topic N
// ("document about topic 7") is topic N's centre, a pseudo-random vector the items semantic.ts
// seeds for that topic lie around (it computes the same centres in SQL); other texts are words
// hashed into buckets, as examples/src/embed.ts does. Clustered, as real embeddings are, so the
// index's lists split the items as they would a real store's.
import { createHash } from "node:crypto";

const DIMS = Number(process.env.GROWTH_DIMS ?? 64);

/** Topic `topic`'s centre: element d from md5("topic:d"), in [-0.5, 0.5) (independent across topics). */
export function topicCentre(topic: number, dims = DIMS): number[] {
  return Array.from(
    { length: dims },
    (_, d) => createHash("md5").update(`${topic}:${d}`).digest().readUInt32BE(0) / 2 ** 32 - 0.5,
  );
}

/** The same centre's element in SQL, of `topic` and `d` (from 0) columns or expressions. */
export const topicCentreSql = (topic: string, d: string) =>
  `(('x' || left(md5((${topic}) || ':' || (${d})), 8))::bit(32)::bigint::float8 / 4294967296 - 0.5)`;

function bucket(word: string): number {
  let hash = 2166136261;
  for (const char of word) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return (hash >>> 0) % DIMS;
}

export async function embed(texts: string[]): Promise<number[][]> {
  return texts.map((text) => {
    const topic = /\btopic (\d+)\b/.exec(text);
    if (topic) return topicCentre(Number(topic[1]));
    const vector = new Array<number>(DIMS).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) vector[bucket(word)] += 1;
    return vector;
  });
}
