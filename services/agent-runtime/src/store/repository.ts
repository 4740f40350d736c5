import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { filtersSql, type AuthFilters } from "../auth";
import type { StoreTtlSettings } from "../ttl/settings";
import type { SemanticIndex } from "./semantic-index";
import { exactScores, itemId, rankCandidates, scanExactly } from "./quantized";
import { toF32Bytes, toI8Bytes } from "./vectors";

/** One stored item as the store hands it out (namespace split back into labels). */
export interface StoredItem {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  /** Similarity to a search's query vector (cosine); null for an item with no vector, absent without a query. */
  score?: number | null;
}

export interface SearchQuery {
  /** Labels the namespace starts with; empty for every namespace. */
  namespacePrefix: string[];
  filter?: Record<string, unknown> | null;
  limit: number;
  offset: number;
  refreshTtl?: boolean;
  /** The caller's auth filters, on the item's value with its `namespace` and `key`. */
  access?: AuthFilters;
  /** Natural-language query: with a semantic index, items rank by similarity, those without vectors last. */
  query?: string | null;
}

export interface NamespaceQuery {
  /** Leading labels; "*" matches any one label. */
  prefix?: string[];
  /** Trailing labels; "*" matches any one label. */
  suffix?: string[];
  maxDepth?: number | null;
  limit: number;
  offset: number;
  /** The caller's auth filters, on `{namespace}`. */
  access?: AuthFilters;
}

/** A filter the store cannot evaluate (unknown operator, bad operand). */
export class StoreFilterError extends Error {}

const SEPARATOR = ".";
const join = (namespace: string[]) => namespace.join(SEPARATOR);
const split = (namespace: string) => (namespace === "" ? [] : namespace.split(SEPARATOR));
const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

interface Row {
  namespace: string;
  key: string;
  value: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  score?: number | null;
}

const toItem = (row: Row): StoredItem => ({
  namespace: split(row.namespace),
  key: row.key,
  value: row.value,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  ...(row.score === undefined ? {} : { score: row.score }),
});

// What auth filters see of an item, as the official server builds it: its value, its namespace's
// labels and its key.
const AUTH_DOCUMENT = Prisma.sql`(value || jsonb_build_object('namespace', to_jsonb(string_to_array(namespace, '.')), 'key', key))`;
const NAMESPACE_DOCUMENT = Prisma.sql`jsonb_build_object('namespace', to_jsonb(string_to_array(namespace, '.')))`;

// Items past their TTL stay in the table until swept but are never visible.
const LIVE = Prisma.sql`(expires_at IS NULL OR expires_at > now())`;

/**
 * The store's table. Both the HTTP API and the graphs' BaseStore go through this one class, so an
 * item written by a graph is what /store/items returns and vice versa.
 */
export class StoreRepository {
  constructor(
    private readonly db: Db,
    /** langgraph.json's store.index: puts embed the indexed fields, searches with `query` rank by similarity. */
    readonly index?: SemanticIndex,
    /** langgraph.json's store.ttl: the TTL of items written without one, and whether reads refresh by default. */
    private readonly ttl: Pick<StoreTtlSettings, "defaultTtlMinutes" | "refreshOnRead"> = { refreshOnRead: true },
  ) {}

  /**
   * Creates or replaces an item; `ttlMinutes` null means it never expires, absent the configured
   * default (store.ttl.default_ttl; none: never). With a
   * semantic index, the item's vectors are replaced in the same transaction: its `fields` (or
   * these), none for `index: false`.
   */
  async put(
    namespace: string[],
    key: string,
    value: Record<string, unknown>,
    ttlMinutes?: number | null,
    index?: false | string[] | null,
  ): Promise<void> {
    const vectors = this.index
      ? index === false
        ? []
        : await this.index.vectorsOf(value, index ?? undefined)
      : undefined;
    const ttl = ttlMinutes === undefined ? (this.ttl.defaultTtlMinutes ?? null) : ttlMinutes;
    const json = JSON.stringify(value);
    const name = join(namespace);
    // An expired row still present counts as new: its created_at restarts.
    const upsert = this.db.$executeRaw`
      INSERT INTO store_items (namespace, key, value, created_at, updated_at, expires_at, ttl_minutes)
      VALUES (${name}, ${key}, ${json}::jsonb, now(), now(),
              CASE WHEN ${ttl}::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => ${ttl}::float8 * 60) END,
              ${ttl}::float8)
      ON CONFLICT (namespace, key) DO UPDATE SET
        value = EXCLUDED.value,
        updated_at = EXCLUDED.updated_at,
        created_at = CASE WHEN store_items.expires_at <= now() THEN EXCLUDED.created_at ELSE store_items.created_at END,
        expires_at = EXCLUDED.expires_at,
        ttl_minutes = EXCLUDED.ttl_minutes`;
    if (!vectors) {
      await upsert;
      return;
    }
    // Each vector goes in its nearest list of the newest training (none before one).
    const lists = await Promise.all(vectors.map((vector) => this.index!.lists.assign(this.db, vector.embedding)));
    await this.db.$transaction([
      upsert,
      this.db.$executeRaw`DELETE FROM store_vectors WHERE namespace = ${name} AND key = ${key}`,
      ...(vectors.length
        ? [
            this.db.$executeRaw`
              INSERT INTO store_vectors (namespace, key, path, position, embedding, embedding_f32, embedding_i8, list_generation, list)
              VALUES ${Prisma.join(
                vectors.map(
                  (vector, i) =>
                    Prisma.sql`(${name}, ${key}, ${vector.path}, ${vector.position}, ${vector.embedding}::real[],
                                ${toF32Bytes(vector.embedding)}::bytea, ${toI8Bytes(vector.embedding)}::bytea,
                                ${lists[i]?.generation ?? null}::int, ${lists[i]?.list ?? null}::int)`,
                ),
              )}`,
          ]
        : []),
    ]);
  }

  async delete(namespace: string[], key: string): Promise<void> {
    await this.db.storeItem.deleteMany({ where: { namespace: join(namespace), key } });
  }

  /** The item, or null; `refreshTtl` (default store.ttl.refresh_on_read, else true) restarts its TTL. */
  async get(namespace: string[], key: string, refreshTtl = this.ttl.refreshOnRead): Promise<StoredItem | null> {
    const rows = await this.db.$queryRaw<Row[]>`
      ${refreshTtl ? this.refreshing(Prisma.sql`namespace = ${join(namespace)} AND key = ${key}`) : Prisma.empty}
      SELECT namespace, key, value, created_at, updated_at FROM store_items
      WHERE namespace = ${join(namespace)} AND key = ${key} AND ${LIVE}`;
    return rows[0] ? toItem(rows[0]) : null;
  }

  /** Items under a namespace prefix matching the filter, most recently updated first. */
  async search(query: SearchQuery): Promise<StoredItem[]> {
    const conditions = [
      LIVE,
      ...this.prefixCondition(query.namespacePrefix),
      ...filterConditions(query.filter ?? {}),
      filtersSql(AUTH_DOCUMENT, query.access),
    ];
    const where = Prisma.join(conditions, " AND ");
    const queryVector = this.index && query.query ? await this.index.embedQuery(query.query) : undefined;
    // With a query vector: by the index's lists where it can answer, else an exact scan, each item
    // scored by its best vector (a dot product of unit vectors), items without one after every
    // scored item.
    const listed = queryVector ? await this.searchByLists(query, where, queryVector) : undefined;
    const rows =
      listed ??
      (queryVector
        ? await this.db.$queryRaw<Row[]>`
          SELECT namespace, key, value, created_at, updated_at, scored.score FROM store_items
          LEFT JOIN LATERAL (
            SELECT max((SELECT sum(a * b) FROM unnest(v.embedding, ${queryVector}::real[]) AS t(a, b)))::float8 AS score
            FROM store_vectors v WHERE v.namespace = store_items.namespace AND v.key = store_items.key
          ) scored ON true
          WHERE ${where}
          ORDER BY scored.score DESC NULLS LAST, updated_at DESC, namespace, key
          LIMIT ${query.limit}::int OFFSET ${query.offset}::bigint`
        : await this.db.$queryRaw<Row[]>`
          SELECT namespace, key, value, created_at, updated_at FROM store_items
          WHERE ${where}
          ORDER BY updated_at DESC, namespace, key
          LIMIT ${query.limit}::int OFFSET ${query.offset}::bigint`);
    if ((query.refreshTtl ?? this.ttl.refreshOnRead) && rows.length > 0) {
      await this.db.$executeRaw`
        UPDATE store_items SET expires_at = now() + make_interval(secs => ttl_minutes * 60)
        WHERE ttl_minutes IS NOT NULL AND (namespace, key) IN (${Prisma.join(
          rows.map((row) => Prisma.sql`(${row.namespace}, ${row.key})`),
        )})`;
    }
    return rows.map(toItem);
  }

  /**
   * A search through the index's lists: the vectors of the query's nearest lists (and those in no
   * list) under the prefix are read by their int8 copies and scored here, the best of each item
   * kept (quantized.ts rankCandidates); the best-scored items are re-scored by their float32
   * vectors (exactScores) and then go through the search's conditions and paging in SQL, ranked
   * as the exact scan ranks. Undefined where the exact scan must answer: no training yet, few
   * items under the prefix, or a page that reaches past the candidates (items outside the probed
   * lists and items without vectors come after them, and only the exact scan knows their order).
   */
  private async searchByLists(query: SearchQuery, where: Prisma.Sql, vector: number[]): Promise<Row[] | undefined> {
    const lists = this.index!.lists;
    const prefix = this.prefixCondition(query.namespacePrefix);
    const [{ items }] = await this.db.$queryRaw<{ items: number }[]>`
      SELECT count(*)::int AS items FROM (
        SELECT 1 FROM store_items ${prefix.length ? Prisma.sql`WHERE ${prefix[0]}` : Prisma.empty}
        LIMIT ${lists.settings.exactBelow}::int) AS under`;
    if (items < lists.settings.exactBelow) return this.searchFew(query, where, vector, prefix[0]);
    const generations = await lists.live(this.db);
    if (!generations.length) return undefined;
    const candidates = await lists.readCandidates(this.db, vector, generations, prefix[0]);
    const target = Float32Array.from(vector);
    const page = query.offset + query.limit;
    // The best few first: most searches filter little, and joining back 1,000 items to page 10
    // cost more than the candidates' scoring. Where the conditions leave too few, wider sets. Each
    // set's items are re-scored by their float32 vectors first (out of line: a few, not thousands).
    // The first set is the same for every page within its first 100 items: sets that grew with the
    // offset re-ranked page 2 deeper than page 1, so an item could be on both pages, or on neither.
    const sizes = new Set([Math.max(100, 4 * page), Math.max(1000, 10 * page)]);
    const ranked = rankCandidates(candidates, target, Math.max(...sizes));
    candidates.release();
    if (ranked.length < page) return undefined;
    for (const size of sizes) {
      const top = ranked.slice(0, size);
      const rescore = top.filter((item) => !item.exact);
      const exact = await exactScores(this.db, rescore, target);
      for (const item of rescore) {
        item.score = exact.get(itemId(item.namespace, item.key)) ?? item.score;
        item.exact = true;
      }
      const rows = await this.db.$queryRaw<Row[]>`
        SELECT namespace, key, value, created_at, updated_at, c.score FROM store_items
        JOIN unnest(${top.map((item) => item.namespace)}::text[], ${top.map((item) => item.key)}::text[],
                    ${top.map((item) => item.score)}::float8[]) AS c(namespace, key, score) USING (namespace, key)
        WHERE ${where}
        ORDER BY c.score DESC, updated_at DESC, namespace, key
        LIMIT ${query.limit}::int OFFSET ${query.offset}::bigint`;
      if (rows.length === query.limit) return rows;
      if (top.length === ranked.length) break;
    }
    return undefined;
  }

  /**
   * The exact scan of a prefix with few items, its dot products taken here (quantized.ts
   * scanExactly: SQL's sum over each vector's elements took 130 ms for 1,000 items of 1536 dims),
   * then the search's conditions, order and paging in SQL as the exact scan's, items without a
   * vector last. Undefined (the scan in SQL answers) where scanExactly cannot.
   */
  private async searchFew(
    query: SearchQuery,
    where: Prisma.Sql,
    vector: number[],
    prefix?: Prisma.Sql,
  ): Promise<Row[] | undefined> {
    const scored = await scanExactly(
      this.db,
      Float32Array.from(vector),
      4 * this.index!.lists.settings.exactBelow,
      prefix,
    );
    if (!scored) return undefined;
    return this.db.$queryRaw<Row[]>`
      SELECT namespace, key, value, created_at, updated_at, c.score FROM store_items
      LEFT JOIN unnest(${scored.map((item) => item.namespace)}::text[], ${scored.map((item) => item.key)}::text[],
                       ${scored.map((item) => item.score)}::float8[]) AS c(namespace, key, score) USING (namespace, key)
      WHERE ${where}
      ORDER BY c.score DESC NULLS LAST, updated_at DESC, namespace, key
      LIMIT ${query.limit}::int OFFSET ${query.offset}::bigint`;
  }

  /** Distinct namespaces (truncated to `maxDepth` labels) matching the prefix and suffix. */
  async listNamespaces(query: NamespaceQuery): Promise<string[][]> {
    const conditions = [
      ...labelConditions(query.prefix ?? [], (index) => Prisma.sql`labels[${index + 1}::int]`),
      ...labelConditions(
        query.suffix ?? [],
        (index, length) => Prisma.sql`labels[cardinality(labels) - ${length - index - 1}::int]`,
      ),
    ];
    const minLength = Math.max(query.prefix?.length ?? 0, query.suffix?.length ?? 0);
    const where = Prisma.join([Prisma.sql`cardinality(labels) >= ${minLength}::int`, ...conditions], " AND ");
    // Deeper than any namespace is no limit; PostgreSQL's slice bound is an int.
    const depth = query.maxDepth == null ? null : Math.min(query.maxDepth, 100_000);
    const rows = await this.db.$queryRaw<{ namespace: string }[]>`
      SELECT DISTINCT
        CASE WHEN ${depth}::int IS NULL THEN namespace ELSE array_to_string(labels[1:${depth}::int], '.') END COLLATE "C" AS namespace
      FROM (SELECT namespace, string_to_array(namespace, '.') AS labels FROM store_items
            WHERE ${LIVE} AND ${filtersSql(NAMESPACE_DOCUMENT, query.access)}) AS items
      WHERE ${where}
      ORDER BY 1
      LIMIT ${query.limit}::int OFFSET ${query.offset}::bigint`;
    return rows.map((row) => split(row.namespace));
  }

  /** Deletes expired items; returns how many. */
  async sweepExpired(): Promise<number> {
    return this.db.$executeRaw`DELETE FROM store_items WHERE expires_at <= now()`;
  }

  private refreshing(match: Prisma.Sql): Prisma.Sql {
    // A CTE so the refresh and the read are one statement; the read sees the row as it was.
    return Prisma.sql`WITH refreshed AS (
      UPDATE store_items SET expires_at = now() + make_interval(secs => ttl_minutes * 60)
      WHERE ${match} AND ttl_minutes IS NOT NULL AND ${LIVE} RETURNING 1)`;
  }

  private prefixCondition(prefix: string[]): Prisma.Sql[] {
    if (prefix.length === 0) return [];
    const joined = join(prefix);
    return [Prisma.sql`(namespace = ${joined} OR starts_with(namespace, ${joined + SEPARATOR}))`];
  }
}

function labelConditions(path: string[], at: (index: number, length: number) => Prisma.Sql): Prisma.Sql[] {
  return path.flatMap((label, index) => (label === "*" ? [] : [Prisma.sql`${at(index, path.length)} = ${label}`]));
}

/**
 * SQL for a filter on top-level fields of the value, with the operators of LangGraph's stores. A
 * field asked to equal a value is also asked as the item's containment of `{field: value}`: implied
 * by the equality, and what the value's GIN index answers, so the search reads the matching items
 * instead of every item under the prefix (the equality stays: `[1, 2]` contains `[1]`).
 */
function filterConditions(filter: Record<string, unknown>): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [];
  const contained: Record<string, unknown> = {};
  for (const [field, condition] of Object.entries(filter)) {
    const target = Prisma.sql`(value -> ${field}::text)`;
    if (isOperatorObject(condition)) {
      for (const [operator, operand] of Object.entries(condition)) {
        conditions.push(operatorCondition(target, field, operator, operand));
        if (operator === "$eq" && operand !== undefined) contained[field] = operand;
      }
    } else {
      conditions.push(Prisma.sql`${target} = ${JSON.stringify(condition)}::jsonb`);
      if (condition !== undefined) contained[field] = condition;
    }
  }
  if (Object.keys(contained).length) conditions.unshift(Prisma.sql`value @> ${JSON.stringify(contained)}::jsonb`);
  return conditions;
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith("$"));
}

function operatorCondition(target: Prisma.Sql, field: string, operator: string, operand: unknown): Prisma.Sql {
  if (!OPERATORS.has(operator)) throw new StoreFilterError(`filter.${field}: unknown operator ${operator}`);
  const json = (value: unknown) => Prisma.sql`${JSON.stringify(value)}::jsonb`;
  switch (operator) {
    case "$eq":
      return Prisma.sql`${target} = ${json(operand)}`;
    case "$ne":
      return Prisma.sql`${target} IS DISTINCT FROM ${json(operand)}`;
    case "$in":
    case "$nin": {
      if (!Array.isArray(operand)) throw new StoreFilterError(`filter.${field}.${operator} must be an array`);
      const within =
        operand.length === 0 ? Prisma.sql`false` : Prisma.sql`${target} IN (${Prisma.join(operand.map(json))})`;
      return operator === "$in" ? within : Prisma.sql`(${target} IS NULL OR NOT ${within})`;
    }
    default: {
      const sqlOperator = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" }[operator]!;
      // Compare only values of the operand's type, so a string never reaches a numeric cast.
      if (typeof operand === "number" && Number.isFinite(operand)) {
        return Prisma.sql`(CASE WHEN jsonb_typeof(${target}) = 'number' THEN (${target})::text::numeric ${Prisma.raw(sqlOperator)} ${operand}::numeric ELSE false END)`;
      }
      if (typeof operand === "string") {
        return Prisma.sql`(CASE WHEN jsonb_typeof(${target}) = 'string' THEN (${target} #>> '{}') COLLATE "C" ${Prisma.raw(sqlOperator)} ${operand} ELSE false END)`;
      }
      throw new StoreFilterError(`filter.${field}.${operator} must be a number or a string`);
    }
  }
}
