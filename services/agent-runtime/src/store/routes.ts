import { Router } from "express";
import type { AgentRuntime } from "@lgp/contracts";
import { authOf } from "../auth";
import { parseDottedNamespace, type StoreService } from "./service";

type Schemas = AgentRuntime.components["schemas"];
type GetItemQuery = AgentRuntime.operations["getStoreItem"]["parameters"]["query"];

/** /store/*: the contract validator has already checked every body and query. */
export function storeRouter(service: StoreService): Router {
  const router = Router();

  router.put("/store/items", async (req, res) => {
    await service.put(req.body as Schemas["StorePutItem"], authOf(res));
    res.status(204).end();
  });

  router.get("/store/items", async (req, res) => {
    const query = req.query as unknown as GetItemQuery;
    const item = await service.get(parseDottedNamespace(query.namespace), query.key, query.refresh_ttl, authOf(res));
    // A literal null body, as the official client expects for a missing item (res.json(null) is
    // turned into a 204 by the response validator's hook).
    if (item === null) res.type("application/json").send("null");
    else res.json(item);
  });

  router.delete("/store/items", async (req, res) => {
    await service.delete(req.body as Schemas["StoreDeleteItem"], authOf(res));
    res.status(204).end();
  });

  router.post("/store/items/search", async (req, res) => {
    res.json({ items: await service.search((req.body ?? {}) as Schemas["StoreSearchItems"], authOf(res)) });
  });

  router.post("/store/namespaces", async (req, res) => {
    res.json({
      namespaces: await service.listNamespaces((req.body ?? {}) as Schemas["StoreListNamespaces"], authOf(res)),
    });
  });

  return router;
}
