import { Router, type Request, type Response } from "express";
import { authOf } from "../auth";
import { flag } from "../common/flags";
import type { AssistantService } from "./service";
import type { ThreadService } from "../threads/service";

export function assistantsRouter(assistants: AssistantService, threads: ThreadService): Router {
  const router = Router();
  router.post("/assistants", async (req, res) => {
    res.json(await assistants.create(req.body, authOf(res)));
  });
  router.post("/assistants/search", async (req, res) => {
    const { assistants: items, total, next } = await assistants.search(req.body ?? {}, authOf(res));
    res.setHeader("X-Pagination-Total", String(total));
    if (next !== null) res.setHeader("X-Pagination-Next", String(next));
    res.json(items);
  });
  router.post("/assistants/count", async (req, res) => {
    res.json(await assistants.count(req.body ?? {}, authOf(res)));
  });
  router.get("/assistants/:assistant_id", async (req, res) => {
    res.json(await assistants.get(req.params.assistant_id, authOf(res)));
  });
  router.patch("/assistants/:assistant_id", async (req, res) => {
    res.json(await assistants.update(req.params.assistant_id, req.body ?? {}, authOf(res)));
  });
  router.delete("/assistants/:assistant_id", async (req, res) => {
    const assistantId = await assistants.delete(req.params.assistant_id, authOf(res));
    if (flag(req.query.delete_threads)) {
      await threads.deleteByMetadata({ assistant_id: assistantId }, authOf(res));
    }
    res.json({});
  });
  router.post("/assistants/:assistant_id/versions", async (req, res) => {
    res.json(await assistants.versions(req.params.assistant_id, req.body ?? {}, authOf(res)));
  });
  router.post("/assistants/:assistant_id/latest", async (req, res) => {
    res.json(await assistants.setLatest(req.params.assistant_id, req.body.version, authOf(res)));
  });
  router.get("/assistants/:assistant_id/graph", async (req, res) => {
    const raw = req.query.xray as string | undefined;
    const xray = raw === undefined ? undefined : /^\d+$/.test(raw) ? Number(raw) : raw === "true";
    res.json(await assistants.graph(req.params.assistant_id, xray, authOf(res)));
  });
  router.get("/assistants/:assistant_id/schemas", async (req, res) => {
    res.json(await assistants.schemas(req.params.assistant_id, authOf(res)));
  });
  const subgraphs = async (req: Request, res: Response) => {
    res.json(
      await assistants.subgraphs(
        String(req.params.assistant_id),
        {
          namespace: req.params.namespace as string | undefined,
          recurse: flag(req.query.recurse),
        },
        authOf(res),
      ),
    );
  };
  router.get("/assistants/:assistant_id/subgraphs", subgraphs);
  router.get("/assistants/:assistant_id/subgraphs/:namespace", subgraphs);
  return router;
}
