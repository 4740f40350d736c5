// langgraph.json's `store.index`: the semantic index of the long-term store. `embed` names the
// embedding function as the official configuration does: `"openai:text-embedding-3-small"` (a
// provider and model; @langchain/openai must be installed) or a path `"./embed.ts:fn"` to a
// function `(texts: string[]) => Promise<number[][]>` or a LangChain Embeddings object. `fields`
// are the paths of a value whose text is embedded (default `["$"]`, the whole value).
import { getTextAtPath } from "@langchain/langgraph-checkpoint";
import { z } from "zod";
import { GraphConfigError, type GraphProject } from "../graphs/config";
import { loadModule, loadProjectExport } from "../graphs/modules";
import { DEFAULT_VECTOR_SEARCH, VectorLists, type VectorSearchSettings } from "./vector-lists";

const indexSection = z
  .object({
    dims: z.number().int().min(1).max(16_000),
    embed: z.string().min(1),
    fields: z.array(z.string().min(1)).min(1).optional(),
  })
  .loose();

export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

/** One text of an item to embed: where it came from, and its position among that path's texts. */
export interface IndexedText {
  path: string;
  position: number;
  text: string;
}

export interface IndexedVector {
  path: string;
  position: number;
  /** Unit length: cosine similarity is a dot product. */
  embedding: number[];
}

export class SemanticIndex {
  /** The IVF lists searches with `query` probe once trained (see vector-lists.ts). */
  readonly lists: VectorLists;

  constructor(
    readonly dims: number,
    readonly fields: string[],
    /** How `embed` was named, for logs. */
    readonly source: string,
    private readonly embedTexts: EmbedTexts,
    search: VectorSearchSettings = DEFAULT_VECTOR_SEARCH,
  ) {
    this.lists = new VectorLists(dims, search);
  }

  /** The texts of a value under `fields` (the item's own `index` list, or the configured one). */
  textsOf(value: Record<string, unknown>, fields: string[] = this.fields): IndexedText[] {
    const texts: IndexedText[] = [];
    for (const field of fields) {
      const found = field === "$" ? [JSON.stringify(value)] : getTextAtPath(value, field);
      found.forEach((text, position) => {
        if (text) texts.push({ path: field, position, text });
      });
    }
    return texts;
  }

  async vectorsOf(value: Record<string, unknown>, fields?: string[]): Promise<IndexedVector[]> {
    const texts = this.textsOf(value, fields);
    if (!texts.length) return [];
    const embeddings = await this.embed(texts.map((entry) => entry.text));
    return texts.map((entry, index) => ({ path: entry.path, position: entry.position, embedding: embeddings[index]! }));
  }

  async embedQuery(query: string): Promise<number[]> {
    return (await this.embed([query]))[0]!;
  }

  private async embed(texts: string[]): Promise<number[][]> {
    const vectors = await this.embedTexts(texts);
    if (!Array.isArray(vectors) || vectors.length !== texts.length)
      throw new Error(
        `store.index embed (${this.source}) answered ${vectors?.length} vectors for ${texts.length} texts`,
      );
    return vectors.map((vector) => {
      if (!Array.isArray(vector) || vector.length !== this.dims)
        throw new Error(
          `store.index embed (${this.source}) answered a vector of ${vector?.length} dims, not ${this.dims}`,
        );
      // NaN or Infinity would score nothing and quantize differently in SQL and here.
      const bad = vector.findIndex((x) => typeof x !== "number" || !Number.isFinite(x));
      if (bad >= 0)
        throw new Error(
          `store.index embed (${this.source}) answered ${vector[bad]} at dimension ${bad}, not a finite number`,
        );
      const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
      return norm > 0 ? vector.map((x) => x / norm) : vector.map(() => 0);
    });
  }
}

/**
 * The configured index, its embedding function loaded; undefined without `store.index`. A Python
 * function (`./embed.py:embed`) is called in the Python graph host (`hosted`).
 */
export async function loadSemanticIndex(
  project: GraphProject,
  hosted?: (spec: string) => EmbedTexts | undefined,
  search?: VectorSearchSettings,
): Promise<SemanticIndex | undefined> {
  const raw = (project.json as { store?: { index?: unknown } }).store?.index;
  if (raw === undefined || raw === null) return undefined;
  const parsed = indexSection.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new GraphConfigError(
      `invalid store.index.${issue.path.join(".")} in ${project.configPath}: ${issue.message}`,
    );
  }
  const { dims, embed, fields } = parsed.data;
  const embedTexts = hosted?.(embed) ?? (await embeddingFunction(project, embed, dims));
  return new SemanticIndex(dims, fields ?? ["$"], embed, embedTexts, search);
}

async function embeddingFunction(project: GraphProject, spec: string, dims: number): Promise<EmbedTexts> {
  // `provider:model`; a path has a `.` or a `/` before its `:`.
  const provider = /^([a-z][a-z0-9_-]*):([^/\\]+)$/i.exec(spec);
  if (provider) {
    if (provider[1] !== "openai")
      throw new GraphConfigError(
        `store.index.embed ${spec}: only the openai provider, or a path to a function, is supported`,
      );
    let module: { OpenAIEmbeddings?: new (options: object) => { embedDocuments: EmbedTexts } };
    try {
      module = (await loadModule(require.resolve("@langchain/openai"))) as typeof module;
    } catch {
      throw new GraphConfigError(`store.index.embed ${spec}: install @langchain/openai in the project to use it`);
    }
    const embeddings = new module.OpenAIEmbeddings!({ model: provider[2], dimensions: dims });
    return (texts) => embeddings.embedDocuments(texts);
  }
  const { exported, file, exportName } = await loadProjectExport(project.configPath, "store.index.embed", spec);
  if (typeof exported === "function") return (texts) => Promise.resolve((exported as EmbedTexts)(texts));
  const documents = (exported as { embedDocuments?: EmbedTexts } | undefined)?.embedDocuments;
  if (typeof documents === "function") return (texts) => documents.call(exported, texts);
  throw new GraphConfigError(
    `store.index.embed ${spec}: export "${exportName}" of ${file} is neither a function nor an Embeddings object`,
  );
}

/**
 * Says at start-up how searches with `query` are answered: by the IVF lists of vector-lists.ts
 * where they are trained and the prefix holds enough items, else by an exact scan. pgvector is not
 * used (nor needed); the log says whether the server has it.
 */
export async function logSearchMethod(
  db: { $queryRaw<T>(query: TemplateStringsArray, ...values: unknown[]): Promise<T> },
  index: SemanticIndex,
  logger: { info(object: object, message: string): void },
): Promise<void> {
  const [row] = await db.$queryRaw<{ available: boolean; lists: number | null; vectors: number | null }[]>`
    SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
           t.lists, t.vectors
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT lists, vectors FROM store_vector_trainings WHERE dims = ${index.dims}::int
                       ORDER BY generation DESC LIMIT 1) t ON true`;
  const { nprobe, exactBelow } = index.lists.settings;
  const trained = row?.lists ? `${row.lists} lists trained on ${row.vectors} vectors` : "not trained yet";
  logger.info(
    {
      dims: index.dims,
      fields: index.fields,
      embed: index.source,
      pgvector: row?.available ?? false,
      search: "ivf lists",
      lists: row?.lists ?? null,
      nprobe,
      exactBelow,
    },
    `store.index: semantic search probes the query's ${nprobe} nearest lists (k-means centroids, ${trained}; ` +
      `trained again when the vectors double), an exact scan under ${exactBelow} items under the prefix or before ` +
      `a training; pgvector is not used${row?.available ? " (though on this server)" : ""}`,
  );
}
