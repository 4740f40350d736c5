import {
  BaseStore,
  type GetOperation,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import type { Db } from "../db";
import { StoreRepository, type StoredItem } from "./repository";
import type { StoreTtlSettings } from "../ttl/settings";
import type { SemanticIndex } from "./semantic-index";

/**
 * The store graphs receive (`config.store`, `getStore()`, `runtime.store`): LangGraph's BaseStore
 * over the same table as /store/items, with the same semantic index (store.index). Without one,
 * `query` is ignored and search is a filtered listing, as in LangGraph's own stores.
 */
export class PrismaStore extends BaseStore {
  constructor(readonly repository: StoreRepository) {
    super();
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    // In order: a put followed by a get of the same key in one batch must see the put.
    for (const operation of operations) results.push(await this.run(operation));
    return results as OperationResults<Op>;
  }

  private async run(operation: Operation): Promise<unknown> {
    if (isPut(operation)) {
      if (operation.value === null) await this.repository.delete(operation.namespace, operation.key);
      else await this.repository.put(operation.namespace, operation.key, operation.value, undefined, operation.index);
      return undefined;
    }
    if (isGet(operation)) return this.repository.get(operation.namespace, operation.key);
    if (isSearch(operation)) {
      const items: StoredItem[] = await this.repository.search({
        namespacePrefix: operation.namespacePrefix,
        filter: operation.filter,
        limit: operation.limit ?? 10,
        offset: operation.offset ?? 0,
        query: operation.query,
      });
      return items;
    }
    const list = operation as ListNamespacesOperation;
    const condition = (type: "prefix" | "suffix") =>
      list.matchConditions?.find((match) => match.matchType === type)?.path;
    return this.repository.listNamespaces({
      prefix: condition("prefix"),
      suffix: condition("suffix"),
      maxDepth: list.maxDepth,
      limit: list.limit ?? 100,
      offset: list.offset ?? 0,
    });
  }
}

const isPut = (operation: Operation): operation is PutOperation => "value" in operation && "key" in operation;
const isGet = (operation: Operation): operation is GetOperation => "key" in operation && !("value" in operation);
const isSearch = (operation: Operation): operation is SearchOperation => "namespacePrefix" in operation;

/** The store to hand a graph at compile/invoke time (`graph.compile({ store })` or `graph.store = ...`). */
export function createGraphStore(db: Db, index?: SemanticIndex, ttl?: StoreTtlSettings): PrismaStore {
  return new PrismaStore(new StoreRepository(db, index, ttl));
}
