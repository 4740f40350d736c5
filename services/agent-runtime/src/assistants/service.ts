// Assistants: versioned configurations of the deployment's graphs. A graph id stands for the
// graph's default assistant (created at start-up with a uuid5 id).
import type { RunnableConfig } from "@langchain/core/runnables";
import type { AgentRuntime } from "@lgp/contracts";
import { ConflictError, NotFoundError } from "@lgp/server-kit";
import { defaultAssistantId, isUuid } from "../common/ids";
import { drawGraph, graphSchemas, subgraphSchemas } from "../graphs/describe";
import { allowAll, type AuthContext, type Authorize } from "../auth";
import type { GraphRegistry } from "../graphs/registry";
import { SourceSchemaReader } from "../graphs/source-schemas/reader";
import type { AssistantRepository, AssistantRow, AssistantSortBy, AssistantVersionRow } from "./repository";

type Schemas = AgentRuntime.components["schemas"];
export type Assistant = Schemas["Assistant"];
export type AssistantVersion = Schemas["AssistantVersion"];
type AssistantCreate = Schemas["AssistantCreate"];
type AssistantPatch = Schemas["AssistantPatch"];
type AssistantSearch = Schemas["AssistantSearch"];

function toVersion(row: AssistantVersionRow): AssistantVersion {
  return {
    assistant_id: row.assistant_id,
    graph_id: row.graph_id,
    name: row.name,
    description: row.description,
    config: row.config,
    context: row.context,
    metadata: row.metadata,
    version: row.version,
    created_at: row.created_at.toISOString(),
  };
}

/** An assistant is its active version plus when it last changed. */
export function toAssistant(row: AssistantRow): Assistant {
  return { ...toVersion(row), updated_at: row.updated_at.toISOString() };
}

export class AssistantService {
  /** Assistants rarely change and every run resolves one: a short cache saves a query per run. */
  private readonly cache = new Map<string, { row: AssistantRow; at: number }>();

  constructor(
    private readonly repository: AssistantRepository,
    private readonly graphs: GraphRegistry,
    private readonly sourceSchemas: SourceSchemaReader = new SourceSchemaReader(),
    private readonly authorize: Authorize = allowAll,
  ) {}

  /**
   * The assistant, if the caller may `action` it: one its handler's filters hide is absent (404).
   * Without `auth` (an internal call) every assistant is visible.
   */
  private async require(
    idOrGraph: string,
    auth: AuthContext | undefined,
    action: "read" | "update" | "delete",
  ): Promise<AssistantRow> {
    const row = await this.resolve(idOrGraph);
    if (!auth) return row;
    const { filters } = await this.authorize(auth, `assistants:${action}`, { assistant_id: row.assistant_id });
    if (filters && !(await this.repository.find(row.assistant_id, filters)))
      throw new NotFoundError(`Assistant "${idOrGraph}" not found`);
    return row;
  }

  /** One default assistant per graph (idempotent, so every process may call it at start-up). */
  async ensureDefaults(): Promise<void> {
    for (const graphId of this.graphs.ids()) {
      // LANGGRAPH_CONFIG's defaults apply when the assistant is created (an existing one is kept).
      const { config, context } = this.graphs.defaultsOf(graphId);
      await this.repository.insert({
        assistantId: defaultAssistantId(graphId),
        graphId,
        name: graphId,
        description: null,
        config,
        context,
        metadata: { created_by: "system" },
      });
    }
  }

  private requireGraph(graphId: string): void {
    if (!this.graphs.has(graphId)) throw new NotFoundError(`Graph "${graphId}" not found`);
  }

  /** Resolves a graph id or an assistant UUID to the assistant's row (its active version). */
  async resolve(idOrGraph: string, options: { cached?: boolean } = {}): Promise<AssistantRow> {
    const assistantId = isUuid(idOrGraph)
      ? idOrGraph.toLowerCase()
      : this.graphs.has(idOrGraph)
        ? defaultAssistantId(idOrGraph)
        : null;
    if (!assistantId)
      throw new NotFoundError(
        `No assistant found for "${idOrGraph}". Make sure the assistant ID is for a valid assistant or a valid graph ID.`,
      );
    if (options.cached) {
      const hit = this.cache.get(assistantId);
      if (hit && Date.now() - hit.at < 1000) return hit.row;
    }
    const row = await this.repository.find(assistantId);
    if (!row) throw new NotFoundError(`Assistant "${idOrGraph}" not found`);
    this.cache.set(assistantId, { row, at: Date.now() });
    return row;
  }

  async create(body: AssistantCreate, auth?: AuthContext): Promise<Assistant> {
    this.requireGraph(body.graph_id);
    const assistantId = body.assistant_id?.toLowerCase() ?? crypto.randomUUID();
    const { filters, value } = await this.authorize(auth, "assistants:create", {
      assistant_id: assistantId,
      graph_id: body.graph_id,
      name: body.name,
      description: body.description,
      config: body.config ?? {},
      context: body.context ?? {},
      metadata: { ...(body.metadata ?? {}) } as Record<string, unknown>,
      if_exists: body.if_exists,
    });
    const inserted = await this.repository.insert({
      assistantId,
      graphId: body.graph_id,
      name: body.name ?? "Untitled",
      description: body.description ?? null,
      config: body.config ?? {},
      context: body.context ?? {},
      metadata: value.metadata ?? {},
    });
    if (!inserted) {
      const existing = body.if_exists === "do_nothing" && (await this.repository.find(assistantId, filters));
      if (existing) return toAssistant(existing);
      throw new ConflictError(`Assistant "${assistantId}" already exists`);
    }
    return toAssistant(await this.resolve(assistantId));
  }

  async get(idOrGraph: string, auth?: AuthContext): Promise<Assistant> {
    return toAssistant(await this.require(idOrGraph, auth, "read"));
  }

  /** A new version, made active: config and context replaced whole when given, metadata merged. */
  async update(idOrGraph: string, patch: AssistantPatch, auth?: AuthContext): Promise<Assistant> {
    const current = await this.resolve(idOrGraph);
    const { filters, value } = await this.authorize(auth, "assistants:update", {
      assistant_id: current.assistant_id,
      graph_id: patch.graph_id,
      name: patch.name,
      description: patch.description,
      config: patch.config,
      context: patch.context,
      metadata: { ...(patch.metadata ?? {}) } as Record<string, unknown>,
    });
    if (filters && !(await this.repository.find(current.assistant_id, filters)))
      throw new NotFoundError(`Assistant "${idOrGraph}" not found`);
    patch = { ...patch, metadata: value.metadata };
    if (patch.graph_id) this.requireGraph(patch.graph_id);
    const row = await this.repository.addVersion(current.assistant_id, {
      graphId: patch.graph_id ?? current.graph_id,
      name: patch.name ?? current.name,
      description: patch.description === undefined ? current.description : patch.description,
      config: patch.config ?? current.config,
      context: patch.context ?? current.context,
      metadata: { ...current.metadata, ...(patch.metadata ?? {}) },
    });
    if (!row) throw new NotFoundError(`Assistant "${idOrGraph}" not found`);
    this.cache.delete(row.assistant_id);
    return toAssistant(row);
  }

  async setLatest(idOrGraph: string, version: number, auth?: AuthContext): Promise<Assistant> {
    const current = await this.require(idOrGraph, auth, "update");
    const row = await this.repository.activate(current.assistant_id, version);
    if (!row) throw new NotFoundError(`Version ${version} of assistant "${idOrGraph}" not found`);
    this.cache.delete(row.assistant_id);
    return toAssistant(row);
  }

  async versions(
    idOrGraph: string,
    query: { limit?: number; offset?: number; metadata?: object },
    auth?: AuthContext,
  ): Promise<AssistantVersion[]> {
    const current = await this.require(idOrGraph, auth, "read");
    const rows = await this.repository.versions(current.assistant_id, {
      limit: query.limit ?? 10,
      offset: query.offset ?? 0,
      metadata: query.metadata,
    });
    return rows.map(toVersion);
  }

  async search(
    query: AssistantSearch,
    auth?: AuthContext,
  ): Promise<{ assistants: Partial<Assistant>[]; total: number; next: number | null }> {
    const limit = query.limit ?? 10;
    const offset = query.offset ?? 0;
    const { filters, value } = await this.authorize(auth, "assistants:search", {
      graph_id: query.graph_id,
      name: query.name,
      metadata: query.metadata,
      limit,
      offset,
    });
    const { rows, total } = await this.repository.search(
      { graphId: value.graph_id, name: value.name, metadata: value.metadata, access: filters },
      {
        limit,
        offset,
        sortBy: (query.sort_by ?? "created_at") as AssistantSortBy,
        sortOrder: query.sort_order ?? "desc",
      },
    );
    const assistants = rows
      .map(toAssistant)
      .map((assistant) =>
        query.select?.length
          ? (Object.fromEntries(query.select.map((key) => [key, assistant[key]])) as Partial<Assistant>)
          : assistant,
      );
    return { assistants, total, next: offset + rows.length < total ? offset + rows.length : null };
  }

  async count(
    query: { graph_id?: string; name?: string; metadata?: Record<string, unknown> },
    auth?: AuthContext,
  ): Promise<number> {
    const { filters, value } = await this.authorize(auth, "assistants:search", { ...query, limit: 0, offset: 0 });
    return this.repository.count({
      graphId: value.graph_id,
      name: value.name,
      metadata: value.metadata,
      access: filters,
    });
  }

  async delete(idOrGraph: string, auth?: AuthContext): Promise<string> {
    const current = await this.require(idOrGraph, auth, "delete");
    if (!(await this.repository.delete(current.assistant_id)))
      throw new NotFoundError(`Assistant "${idOrGraph}" not found`);
    this.cache.delete(current.assistant_id);
    return current.assistant_id;
  }

  /** The assistant's graph, a factory called with the assistant's config as the official server does. */
  private graphOf(assistant: { graph_id: string; config: Record<string, unknown> }) {
    return this.graphs.get(assistant.graph_id, assistant.config as RunnableConfig, { access: "assistants.read" });
  }

  async graph(
    idOrGraph: string,
    xray?: boolean | number,
    auth?: AuthContext,
  ): Promise<{ nodes: object[]; edges: object[] }> {
    const assistant = await this.require(idOrGraph, auth, "read");
    const graph = await this.graphOf(assistant);
    return drawGraph(graph, xray);
  }

  async schemas(idOrGraph: string, auth?: AuthContext): Promise<Record<string, unknown>> {
    const assistant = await this.require(idOrGraph, auth, "read");
    const graph = await this.graphOf(assistant);
    return graphSchemas(assistant.graph_id, graph, this.sourceSchemasOf(assistant.graph_id));
  }

  /** Schemas of the subgraphs (those of `namespace` only when given; their own subgraphs with `recurse`). */
  async subgraphs(
    idOrGraph: string,
    options: { namespace?: string; recurse?: boolean },
    auth?: AuthContext,
  ): Promise<Record<string, Record<string, unknown>>> {
    const assistant = await this.require(idOrGraph, auth, "read");
    const graph = await this.graphOf(assistant);
    return subgraphSchemas(graph, options, this.sourceSchemasOf(assistant.graph_id));
  }

  /** The graph's types read from its source, only if a part of its schemas needs them (then once). */
  private sourceSchemasOf(graphId: string) {
    return async () => {
      const entry = this.graphs.entry(graphId);
      return entry ? this.sourceSchemas.read(graphId, { file: entry.file, exportName: entry.exportName }) : undefined;
    };
  }
}
