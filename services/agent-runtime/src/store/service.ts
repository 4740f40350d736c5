import { InvalidNamespaceError, validateNamespace } from "@langchain/langgraph-checkpoint";
import { ForbiddenError, NotFoundError, invalid } from "@lgp/server-kit";
import { allowAll, matchesFilters, type AuthContext, type AuthFilters, type Authorize } from "../auth";
import type { AgentRuntime } from "@lgp/contracts";
import { StoreFilterError, type StoreRepository, type StoredItem } from "./repository";

type Schemas = AgentRuntime.components["schemas"];
export type ApiStoreItem = Schemas["StoreItem"];
export type ApiStoreSearchItem = Schemas["StoreSearchItem"];

/** What auth filters see of an item: its value, its namespace and its key (as the official server). */
function authDocument(namespace: string[], key?: string, value?: Record<string, unknown> | null) {
  return { ...(value ?? {}), namespace, ...(key === undefined ? {} : { key }) };
}

/**
 * The /store/* operations: the caller's `store` auth handler (which may rewrite the namespace, deny,
 * or filter), LangGraph's namespace rules, then the repository.
 */
export class StoreService {
  constructor(
    private readonly repository: StoreRepository,
    private readonly authorize: Authorize = allowAll,
  ) {}

  /** An item the caller's filters hide is absent: 404, never its content. */
  private async assertVisible(namespace: string[], key: string, filters: AuthFilters | undefined): Promise<boolean> {
    if (!filters) return true;
    const existing = await this.repository.get(namespace, key, false);
    if (existing && !matchesFilters(authDocument(existing.namespace, existing.key, existing.value), filters))
      throw new NotFoundError("Item not found");
    return !!existing;
  }

  async put(body: Schemas["StorePutItem"], auth?: AuthContext): Promise<void> {
    checkNamespace(body.namespace, ["body", "namespace"]);
    const { filters, value } = await this.authorize(auth, "store:put", {
      namespace: body.namespace,
      key: body.key,
      value: body.value,
    });
    checkNamespace(value.namespace, ["body", "namespace"]);
    await this.assertVisible(value.namespace, value.key, filters);
    // What it writes must be something it could read back.
    if (filters && !matchesFilters(authDocument(value.namespace, value.key, value.value), filters))
      throw new ForbiddenError("Not authorized");
    if (body.index === true) throw invalid(["body", "index"], "must be false or a list of field paths");
    await this.repository.put(value.namespace, value.key, value.value, body.ttl, body.index);
  }

  async get(namespace: string[], key: string, refreshTtl?: boolean, auth?: AuthContext): Promise<ApiStoreItem | null> {
    checkNamespace(namespace, ["query", "namespace"], { allowEmpty: true, allowReservedRoot: true });
    const { filters, value } = await this.authorize(auth, "store:get", { namespace, key });
    const item = await this.repository.get(value.namespace ?? [], value.key, refreshTtl ?? undefined);
    if (item && !matchesFilters(authDocument(item.namespace, item.key, item.value), filters))
      throw new NotFoundError("Item not found");
    return item ? toApi(item) : null;
  }

  async delete(body: Schemas["StoreDeleteItem"], auth?: AuthContext): Promise<void> {
    checkNamespace(body.namespace ?? [], ["body", "namespace"], { allowEmpty: true, allowReservedRoot: true });
    const { filters, value } = await this.authorize(auth, "store:delete", {
      namespace: body.namespace ?? [],
      key: body.key,
    });
    const namespace = value.namespace ?? [];
    const exists = await this.assertVisible(namespace, value.key, filters);
    if (!exists && filters && !matchesFilters(authDocument(namespace, value.key), filters))
      throw new ForbiddenError("Not authorized");
    await this.repository.delete(namespace, value.key);
  }

  async search(body: Schemas["StoreSearchItems"], auth?: AuthContext): Promise<ApiStoreSearchItem[]> {
    checkNamespace(body.namespace_prefix ?? [], ["body", "namespace_prefix"], {
      allowEmpty: true,
      allowReservedRoot: true,
    });
    const { filters, value } = await this.authorize(auth, "store:search", {
      namespace: body.namespace_prefix ?? [],
      filter: body.filter,
      limit: body.limit ?? 10,
      offset: body.offset ?? 0,
      query: body.query,
    });
    try {
      const items = await this.repository.search({
        namespacePrefix: value.namespace ?? [],
        filter: value.filter,
        limit: value.limit,
        offset: value.offset,
        refreshTtl: body.refresh_ttl ?? undefined,
        access: filters,
        query: value.query,
      });
      // A score only where a semantic index ranked the items.
      return items.map((item) => ({ ...toApi(item), score: item.score ?? null }));
    } catch (error) {
      if (error instanceof StoreFilterError) throw invalid(["body", "filter"], error.message);
      throw error;
    }
  }

  async listNamespaces(body: Schemas["StoreListNamespaces"], auth?: AuthContext): Promise<string[][]> {
    const { filters, value } = await this.authorize(auth, "store:list_namespaces", {
      namespace: body.prefix,
      suffix: body.suffix,
      max_depth: body.max_depth,
      limit: body.limit ?? 100,
      offset: body.offset ?? 0,
    });
    return this.repository.listNamespaces({
      prefix: value.namespace,
      suffix: value.suffix,
      maxDepth: value.max_depth,
      limit: value.limit,
      offset: value.offset,
      access: filters,
    });
  }
}

function checkNamespace(
  namespace: string[],
  loc: string[],
  options?: { allowEmpty?: boolean; allowReservedRoot?: boolean },
): void {
  try {
    validateNamespace(namespace, options);
  } catch (error) {
    if (error instanceof InvalidNamespaceError) throw invalid(loc, error.message);
    throw error;
  }
}

function toApi(item: StoredItem): ApiStoreItem {
  return {
    namespace: item.namespace,
    key: item.key,
    value: item.value,
    created_at: item.createdAt.toISOString(),
    updated_at: item.updatedAt.toISOString(),
  };
}

/** `namespace=a.b` as the official client sends it in GET /store/items. */
export function parseDottedNamespace(value: string | undefined): string[] {
  return value ? value.split(".") : [];
}
