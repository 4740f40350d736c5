import { InvalidNamespaceError, validateNamespace } from "@langchain/langgraph-checkpoint";
import { invalid } from "@lgp/server-kit";
import type { AgentRuntime } from "@lgp/contracts";
import { StoreFilterError, type StoreRepository, type StoredItem } from "./repository";

type Schemas = AgentRuntime.components["schemas"];
export type ApiStoreItem = Schemas["StoreItem"];
export type ApiStoreSearchItem = Schemas["StoreSearchItem"];

/** The /store/* operations: LangGraph's namespace rules, then the repository. */
export class StoreService {
  constructor(private readonly repository: StoreRepository) {}

  async put(body: Schemas["StorePutItem"]): Promise<void> {
    checkNamespace(body.namespace, ["body", "namespace"]);
    await this.repository.put(body.namespace, body.key, body.value, body.ttl ?? null);
  }

  async get(namespace: string[], key: string, refreshTtl?: boolean): Promise<ApiStoreItem | null> {
    checkNamespace(namespace, ["query", "namespace"], { allowEmpty: true, allowReservedRoot: true });
    const item = await this.repository.get(namespace, key, refreshTtl ?? true);
    return item ? toApi(item) : null;
  }

  async delete(body: Schemas["StoreDeleteItem"]): Promise<void> {
    const namespace = body.namespace ?? [];
    checkNamespace(namespace, ["body", "namespace"], { allowEmpty: true, allowReservedRoot: true });
    await this.repository.delete(namespace, body.key);
  }

  async search(body: Schemas["StoreSearchItems"]): Promise<ApiStoreSearchItem[]> {
    const prefix = body.namespace_prefix ?? [];
    checkNamespace(prefix, ["body", "namespace_prefix"], { allowEmpty: true, allowReservedRoot: true });
    try {
      const items = await this.repository.search({
        namespacePrefix: prefix,
        filter: body.filter,
        limit: body.limit ?? 10,
        offset: body.offset ?? 0,
        refreshTtl: body.refresh_ttl ?? true,
      });
      // No embedding index, so there is no relevance score.
      return items.map((item) => ({ ...toApi(item), score: null }));
    } catch (error) {
      if (error instanceof StoreFilterError) throw invalid(["body", "filter"], error.message);
      throw error;
    }
  }

  async listNamespaces(body: Schemas["StoreListNamespaces"]): Promise<string[][]> {
    return this.repository.listNamespaces({
      prefix: body.prefix,
      suffix: body.suffix,
      maxDepth: body.max_depth,
      limit: body.limit ?? 100,
      offset: body.offset ?? 0,
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
