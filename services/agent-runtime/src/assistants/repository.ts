// Assistant rows: the active version's fields on `assistants`, every version in `assistant_versions`.
import { Prisma } from "../generated/prisma/client";
import type { Db } from "../db";
import { keptCount, keptGraphCount, unfiltered } from "../common/row-counts";
import { filtersSql, type AuthFilters } from "../auth";

export interface AssistantRow {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export type AssistantVersionRow = Omit<AssistantRow, "updated_at">;

export interface AssistantFilter {
  graphId?: string;
  name?: string;
  metadata?: Record<string, unknown>;
  /** What the caller may see (its auth handler's filters on metadata). */
  access?: AuthFilters;
}

export interface NewAssistant {
  assistantId: string;
  graphId: string;
  name: string;
  description: string | null;
  config: object;
  context: object;
  metadata: object;
}

const SORT_COLUMNS = {
  assistant_id: Prisma.sql`assistant_id`,
  graph_id: Prisma.sql`graph_id`,
  name: Prisma.sql`name`,
  created_at: Prisma.sql`created_at`,
  updated_at: Prisma.sql`updated_at`,
} as const;

export type AssistantSortBy = keyof typeof SORT_COLUMNS;

function where(filter: AssistantFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (filter.graphId) conditions.push(Prisma.sql`graph_id = ${filter.graphId}`);
  if (filter.name) conditions.push(Prisma.sql`name ILIKE ${`%${filter.name.replace(/[\\%_]/g, "\\$&")}%`}`);
  if (filter.metadata && Object.keys(filter.metadata).length) {
    conditions.push(Prisma.sql`metadata @> ${JSON.stringify(filter.metadata)}::jsonb`);
  }
  if (filter.access) conditions.push(filtersSql(Prisma.sql`metadata`, filter.access));
  return Prisma.join(conditions, " AND ");
}

export class AssistantRepository {
  constructor(private readonly db: Db) {}

  /** The assistant, if it exists and `access` lets the caller see it. */
  async find(assistantId: string, access?: AuthFilters): Promise<AssistantRow | undefined> {
    const rows = await this.db.$queryRaw<AssistantRow[]>`
      SELECT * FROM assistants WHERE assistant_id = ${assistantId}::uuid AND ${filtersSql(Prisma.sql`metadata`, access)}`;
    return rows[0];
  }

  /** Inserts an assistant with its version 1; false when the id is taken. */
  async insert(assistant: NewAssistant): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const inserted = await tx.$executeRaw`
        INSERT INTO assistants (assistant_id, graph_id, name, description, config, context, metadata, version)
        VALUES (${assistant.assistantId}::uuid, ${assistant.graphId}, ${assistant.name}, ${assistant.description},
                ${JSON.stringify(assistant.config)}::jsonb, ${JSON.stringify(assistant.context)}::jsonb,
                ${JSON.stringify(assistant.metadata)}::jsonb, 1)
        ON CONFLICT (assistant_id) DO NOTHING`;
      if (inserted === 0) return false;
      await tx.$executeRaw`
        INSERT INTO assistant_versions (assistant_id, version, graph_id, name, description, config, context, metadata)
        VALUES (${assistant.assistantId}::uuid, 1, ${assistant.graphId}, ${assistant.name}, ${assistant.description},
                ${JSON.stringify(assistant.config)}::jsonb, ${JSON.stringify(assistant.context)}::jsonb,
                ${JSON.stringify(assistant.metadata)}::jsonb)`;
      return true;
    });
  }

  /** Adds a version (the next number) and makes it active. */
  async addVersion(assistantId: string, fields: Omit<NewAssistant, "assistantId">): Promise<AssistantRow | undefined> {
    return this.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ next: number }[]>`
        SELECT COALESCE((SELECT MAX(version) FROM assistant_versions WHERE assistant_id = ${assistantId}::uuid), 0) + 1 AS next
        FROM assistants WHERE assistant_id = ${assistantId}::uuid FOR UPDATE`;
      if (!locked.length) return undefined;
      const version = Number(locked[0].next);
      await tx.$executeRaw`
        INSERT INTO assistant_versions (assistant_id, version, graph_id, name, description, config, context, metadata)
        VALUES (${assistantId}::uuid, ${version}, ${fields.graphId}, ${fields.name}, ${fields.description},
                ${JSON.stringify(fields.config)}::jsonb, ${JSON.stringify(fields.context)}::jsonb, ${JSON.stringify(fields.metadata)}::jsonb)`;
      const rows = await tx.$queryRaw<AssistantRow[]>`
        UPDATE assistants SET graph_id = ${fields.graphId}, name = ${fields.name}, description = ${fields.description},
          config = ${JSON.stringify(fields.config)}::jsonb, context = ${JSON.stringify(fields.context)}::jsonb,
          metadata = ${JSON.stringify(fields.metadata)}::jsonb, version = ${version}, updated_at = now()
        WHERE assistant_id = ${assistantId}::uuid RETURNING *`;
      return rows[0];
    });
  }

  /** Makes an existing version the active one; undefined when the assistant or version is missing. */
  async activate(assistantId: string, version: number): Promise<AssistantRow | undefined> {
    const rows = await this.db.$queryRaw<AssistantRow[]>`
      UPDATE assistants a SET graph_id = v.graph_id, name = v.name, description = v.description, config = v.config,
        context = v.context, metadata = v.metadata, version = v.version, updated_at = now()
      FROM assistant_versions v
      WHERE a.assistant_id = ${assistantId}::uuid AND v.assistant_id = a.assistant_id AND v.version = ${version}
      RETURNING a.*`;
    return rows[0];
  }

  async versions(
    assistantId: string,
    options: { limit: number; offset: number; metadata?: object },
  ): Promise<AssistantVersionRow[]> {
    const metadata = options.metadata && Object.keys(options.metadata).length ? JSON.stringify(options.metadata) : null;
    return this.db.$queryRaw<AssistantVersionRow[]>`
      SELECT * FROM assistant_versions
      WHERE assistant_id = ${assistantId}::uuid AND (${metadata}::jsonb IS NULL OR metadata @> ${metadata}::jsonb)
      ORDER BY version DESC LIMIT ${options.limit} OFFSET ${options.offset}`;
  }

  async search(
    filter: AssistantFilter,
    options: { limit: number; offset: number; sortBy: AssistantSortBy; sortOrder: "asc" | "desc" },
  ): Promise<{ rows: AssistantRow[]; total: number }> {
    const order = options.sortOrder === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
    const condition = where(filter);
    const [rows, total] = await Promise.all([
      this.db.$queryRaw<AssistantRow[]>`
        SELECT * FROM assistants WHERE ${condition}
        ORDER BY ${SORT_COLUMNS[options.sortBy]} ${order}, assistant_id ${order}
        LIMIT ${options.limit} OFFSET ${options.offset}`,
      this.count(filter),
    ]);
    return { rows, total };
  }

  async count(filter: AssistantFilter): Promise<number> {
    // Narrowed by nothing but (maybe) a graph, the count is kept; an auth handler's filter narrows.
    if (!filter.name && unfiltered(filter.metadata, filter.access))
      return filter.graphId ? keptGraphCount(this.db, filter.graphId) : keptCount(this.db, "assistants");
    const rows = await this.db.$queryRaw<
      { count: bigint }[]
    >`SELECT COUNT(*) AS count FROM assistants WHERE ${where(filter)}`;
    return Number(rows[0].count);
  }

  async delete(assistantId: string): Promise<boolean> {
    const deleted = await this.db.$executeRaw`DELETE FROM assistants WHERE assistant_id = ${assistantId}::uuid`;
    return deleted > 0;
  }
}
