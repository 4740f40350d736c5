// Custom routes (langgraph.json `http.app`): a Hono app, as the official JS server takes it. It is
// mounted after CORS and the deployment's auth, before the built-in routes.
import { Hono } from "hono";

export const app = new Hono();

/** What this deployment serves, for a front end's "about" box. */
app.get("/examples/about", (c) =>
  c.json({
    name: "langgraph-platform examples",
    graphs: ["agent", "approval", "steps", "tools"],
    memory: "POST /store/items/search with a `query` ranks the store's items by meaning",
  }),
);
