// The store of Python graphs: each batch their host sends (lgp_host.store) answered by the same
// repository as the /store endpoints and the JS graphs' store, so all of a deployment's graphs
// share one store, its semantic index and its TTLs.
import type { StoreRepository, StoredItem } from "../store/repository";

interface WireOp {
  op: "get" | "put" | "search" | "list";
  namespace?: string[];
  namespace_prefix?: string[];
  key?: string;
  value?: Record<string, unknown> | null;
  index?: false | string[] | null;
  ttl?: number | null;
  filter?: Record<string, unknown> | null;
  limit?: number;
  offset?: number;
  query?: string | null;
  refresh_ttl?: boolean | null;
  prefix?: string[] | null;
  suffix?: string[] | null;
  max_depth?: number | null;
}

const itemOf = (item: StoredItem) => ({
  namespace: item.namespace,
  key: item.key,
  value: item.value,
  created_at: item.createdAt.toISOString(),
  updated_at: item.updatedAt.toISOString(),
  ...(item.score !== undefined ? { score: item.score } : {}),
});

async function answer(repository: StoreRepository, op: WireOp): Promise<unknown> {
  switch (op.op) {
    case "get": {
      const item = await repository.get(op.namespace!, op.key!, op.refresh_ttl ?? undefined);
      return item ? itemOf(item) : null;
    }
    case "put":
      if (op.value === null || op.value === undefined) await repository.delete(op.namespace!, op.key!);
      else await repository.put(op.namespace!, op.key!, op.value, "ttl" in op ? op.ttl : undefined, op.index);
      return null;
    case "search": {
      const items = await repository.search({
        namespacePrefix: op.namespace_prefix ?? [],
        filter: op.filter,
        limit: op.limit ?? 10,
        offset: op.offset ?? 0,
        query: op.query,
        refreshTtl: op.refresh_ttl ?? undefined,
      });
      return items.map(itemOf);
    }
    case "list":
      return repository.listNamespaces({
        prefix: op.prefix ?? undefined,
        suffix: op.suffix ?? undefined,
        maxDepth: op.max_depth,
        limit: op.limit ?? 100,
        offset: op.offset ?? 0,
      });
    default:
      throw new Error(`unknown store operation ${JSON.stringify((op as { op?: unknown }).op)}`);
  }
}

/** Answers a batch in order (a put then a get of the same key in one batch sees the put). */
export async function answerStoreBatch(repository: StoreRepository, args: { ops: WireOp[] }): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const op of args.ops) results.push(await answer(repository, op));
  return results;
}
