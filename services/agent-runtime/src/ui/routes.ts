// POST /ui/{graph} answers the tags that load a graph's components into a page (what the SDK's
// LoadExternalComponent asks for), GET /ui/{graph}/{file} the bundled files, as the official
// server serves them.
import path from "node:path";
import { Router } from "express";
import { NotFoundError } from "@lgp/server-kit";
import type { UiBundles } from "./bundle";

/**
 * `graphOf` names the graph of an assistant: LoadExternalComponent asks for the UI of the stream's
 * assistant id, which is a graph id only for default assistants.
 */
export function uiRouter(bundles: UiBundles, graphOf: (assistantId: string) => Promise<string | undefined>): Router {
  const router = Router();

  router.post("/ui/:graph", async (req, res) => {
    const asked = req.params.graph;
    const graph = bundles.has(asked) ? asked : ((await graphOf(asked)) ?? asked);
    const files = bundles.get(graph);
    if (!files?.length) throw new NotFoundError(`UI not found for graph "${asked}"`);
    // Absolute URLs without a scheme follow the page's; a local runtime is plain http.
    const host = req.get("host") ?? "localhost";
    const local = /^(localhost|127\.0\.0\.1)(:\d+)?$/.test(host);
    const base = `${local ? "http:" : ""}//${host}/ui/${encodeURIComponent(graph)}`;
    const name = JSON.stringify(String((req.body as { name: string }).name));
    const tags: string[] = [];
    for (const css of files.filter((file) => path.extname(file.basename) === ".css"))
      tags.push(`<link rel="stylesheet" href="${base}/${css.basename}" />`);
    const js = files.find((file) => path.extname(file.basename) === ".js");
    if (js) {
      const global = `__LGUI_${graph.replace(/[^a-zA-Z0-9]/g, "_")}`;
      tags.push(
        `<script src="${base}/${js.basename}" onload='${global}.render(${name}, "{{shadowRootId}}")'></script>`,
      );
    }
    res.type("text/html").send(tags.join("\n"));
  });

  router.get("/ui/:graph/:file", (req, res) => {
    const file = bundles.get(req.params.graph)?.find((item) => item.basename === req.params.file);
    if (!file) throw new NotFoundError(`UI file "${req.params.file}" not found for graph "${req.params.graph}"`);
    res
      // By extension (Express's mime types): text/javascript, text/css.
      .type(path.extname(file.basename))
      .setHeader("Cache-Control", "no-cache")
      .send(file.contents);
  });

  return router;
}
