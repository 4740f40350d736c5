// Semantic store search, exact scan against the index's lists (issue 40): recall@10 of the lists
// against the exact scan, and p50/p95 of each, at 1k, 10k and 100k items of clustered synthetic
// vectors, in a database of its own. Not in CI (minutes at 100k x 1536 dims). The repository is
// called in process (no HTTP), one search at a time.
//   tsx scripts/store-semantic-recall.ts [dims...]        (default: 256 1536)
//   SIZES=1000,10000 NPROBES=4,8,12,16 QUERIES=100 tsx scripts/store-semantic-recall.ts 256
import { createTestDatabase } from "@lgp/server-kit/src/testing";
import { createDb } from "../services/agent-runtime/src/db";
import { StoreRepository } from "../services/agent-runtime/src/store/repository";
import { SemanticIndex } from "../services/agent-runtime/src/store/semantic-index";
import { DEFAULT_VECTOR_SEARCH } from "../services/agent-runtime/src/store/vector-lists";
import { toF32Bytes } from "../services/agent-runtime/src/store/vectors";

const CLUSTERS = 200;
/** Noise per dimension against a centre's: cosine to the centre about 0.78. */
const NOISE = 0.8;
const SIZES = (process.env.SIZES ?? "1000,10000,100000").split(",").map(Number);
const NPROBES = (process.env.NPROBES ?? `${DEFAULT_VECTOR_SEARCH.nprobe}`).split(",").map(Number);
const QUERIES = Number(process.env.QUERIES ?? 100);

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

function around(center: Float64Array): number[] {
  const vector = Array.from(center, (x) => x + NOISE * (random() - 0.5));
  const norm = Math.hypot(...vector);
  return vector.map((x) => Number((x / norm).toFixed(6)));
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function measure(dims: number): Promise<void> {
  const database = await createTestDatabase("agent-runtime");
  const db = createDb(database.url, 4);
  try {
    const centers = Array.from({ length: CLUSTERS }, () => Float64Array.from({ length: dims }, () => random() - 0.5));
    const queries = Array.from({ length: QUERIES }, (_, i) => around(centers[(i * 7) % CLUSTERS]!));
    const embed = async (texts: string[]) => texts.map((text) => queries[Number(text.slice(2))]!);
    const search = (repository: StoreRepository, i: number) =>
      repository.search({ namespacePrefix: ["docs"], query: `q:${i}`, limit: 10, offset: 0, refreshTtl: false });
    let seeded = 0;
    for (const size of SIZES) {
      for (let from = seeded; from < size; from += 1000) {
        const keys: string[] = [];
        const embeddings: string[] = [];
        const f32: Buffer[] = [];
        for (let i = from; i < Math.min(size, from + 1000); i++) {
          const vector = around(centers[i % CLUSTERS]!);
          keys.push(`k${i}`);
          embeddings.push(`{${vector.join(",")}}`);
          f32.push(toF32Bytes(vector));
        }
        await db.$executeRaw`INSERT INTO store_items (namespace, key, value)
          SELECT 'docs', k, jsonb_build_object('text', k) FROM unnest(${keys}::text[]) AS k`;
        await db.$executeRaw`INSERT INTO store_vectors (namespace, key, path, position, embedding, embedding_f32)
          SELECT 'docs', k, 'text', 0, e::real[], f FROM unnest(${keys}::text[], ${embeddings}::text[], ${f32}::bytea[]) AS u(k, e, f)`;
      }
      seeded = size;
      await db.$executeRawUnsafe("VACUUM ANALYZE store_items");
      await db.$executeRawUnsafe("VACUUM ANALYZE store_vectors");
      const exact = new StoreRepository(
        db,
        new SemanticIndex(dims, ["text"], "synthetic", embed, { nprobe: 1, exactBelow: 2 ** 31 - 1 }),
      );
      const truth: string[][] = [];
      const exactMs: number[] = [];
      for (let i = 0; i < QUERIES; i++) {
        const started = performance.now();
        truth.push((await search(exact, i)).map((item) => item.key));
        exactMs.push(performance.now() - started);
      }
      const trainStarted = performance.now();
      const index = new SemanticIndex(dims, ["text"], "synthetic", embed, DEFAULT_VECTOR_SEARCH);
      const trained = await index.lists.train(db);
      const trainMs = performance.now() - trainStarted;
      for (const nprobe of NPROBES) {
        const lists = new SemanticIndex(dims, ["text"], "synthetic", embed, { ...DEFAULT_VECTOR_SEARCH, nprobe });
        const repository = new StoreRepository(db, lists);
        await search(repository, 0);
        const ms: number[] = [];
        let found = 0;
        for (let i = 0; i < QUERIES; i++) {
          const started = performance.now();
          const keys = (await search(repository, i)).map((item) => item.key);
          ms.push(performance.now() - started);
          found += keys.filter((key) => truth[i]!.includes(key)).length / Math.max(1, truth[i]!.length);
        }
        console.log(
          JSON.stringify({
            dims,
            items: size,
            lists: trained.lists,
            trainMs: Math.round(trainMs),
            nprobe,
            exactP50: +percentile(exactMs, 50).toFixed(1),
            exactP95: +percentile(exactMs, 95).toFixed(1),
            recallAt10: +(found / QUERIES).toFixed(3),
            p50: +percentile(ms, 50).toFixed(1),
            p95: +percentile(ms, 95).toFixed(1),
          }),
        );
      }
    }
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}

async function main(): Promise<void> {
  const dims = process.argv.slice(2).map(Number);
  for (const d of dims.length ? dims : [256, 1536]) await measure(d);
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
