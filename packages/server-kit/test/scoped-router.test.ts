import express, { Router, type RequestHandler } from "express";
import request from "supertest";
import { scopedRouter } from "../src";

/** A router whose every layer counts the requests that reach it, and answers with its name. */
function countingRouter(name: string, paths: string[], entered: Map<string, number>, middleware = false): Router {
  const router = Router();
  const count: RequestHandler = (_req, _res, next) => {
    entered.set(name, (entered.get(name) ?? 0) + 1);
    next();
  };
  if (middleware) router.use(count);
  for (const path of paths)
    router.get(path, middleware ? [] : [count], (_req: express.Request, res: express.Response) => {
      res.json({ router: name, path });
    });
  return router;
}

describe("scoped routers", () => {
  const entered = new Map<string, number>();
  const app = express();
  app.use(scopedRouter(countingRouter("things", ["/things", "/things/:id"], entered)));
  app.use(scopedRouter(countingRouter("store", ["/store/items", "/Store/search"], entered)));
  // A route that starts with a parameter, and plain middleware: entered by every path.
  app.use(scopedRouter(countingRouter("any", ["/:page/about"], entered)));
  app.use(scopedRouter(countingRouter("logged", ["/logged"], entered, true)));
  app.use((_req, res) => {
    res.status(404).json({ router: null });
  });

  beforeEach(() => entered.clear());

  it("answers every route as an unscoped router does", async () => {
    expect((await request(app).get("/things")).body).toEqual({ router: "things", path: "/things" });
    expect((await request(app).get("/things/7")).body).toEqual({ router: "things", path: "/things/:id" });
    expect((await request(app).get("/store/items")).body).toEqual({ router: "store", path: "/store/items" });
    expect((await request(app).get("/store/search")).body).toEqual({ router: "store", path: "/Store/search" });
    expect((await request(app).get("/team/about")).body).toEqual({ router: "any", path: "/:page/about" });
    expect((await request(app).get("/logged")).body).toEqual({ router: "logged", path: "/logged" });
    expect((await request(app).get("/nothing")).status).toBe(404);
  });

  it("matches the first segment without regard to case and a trailing slash, as Express does", async () => {
    expect((await request(app).get("/THINGS/")).body).toEqual({ router: "things", path: "/things" });
    expect((await request(app).get("/things?limit=1")).body).toEqual({ router: "things", path: "/things" });
  });

  it("skips a router none of whose routes can match the path: its routes are not even tried", async () => {
    const tried: string[] = [];
    const router = countingRouter("things", ["/things", "/things/:id"], entered);
    // Each route's pattern test, counted (Express tries every layer of a router it enters).
    for (const layer of router.stack as unknown as { match(path: string): boolean }[]) {
      const match = layer.match.bind(layer);
      layer.match = (path) => {
        tried.push(path);
        return match(path);
      };
    }
    const two = express();
    two.use(scopedRouter(router));
    two.use(scopedRouter(countingRouter("store", ["/store/items"], entered)));
    expect((await request(two).get("/store/items")).body).toEqual({ router: "store", path: "/store/items" });
    expect(tried).toEqual([]);
    expect((await request(two).get("/things/7")).body).toEqual({ router: "things", path: "/things/:id" });
    expect(tried).toEqual(["/things/7", "/things/7"]);
  });

  it("enters a router with plain middleware for every path", async () => {
    await request(app).get("/things");
    await request(app).get("/store/items");
    // The request for /things was answered before reaching it; /store/items too: neither entered.
    expect(entered.get("logged")).toBeUndefined();
    await request(app).get("/elsewhere");
    expect(entered.get("logged")).toBe(1);
  });

  it("takes in routes added after it was mounted", async () => {
    const late = express();
    const router = Router();
    late.use(scopedRouter(router));
    expect((await request(late).get("/late")).status).toBe(404);
    router.get("/late", (_req, res) => {
      res.json({ late: true });
    });
    expect((await request(late).get("/late")).body).toEqual({ late: true });
  });
});
