// The web console (packages/console, built to static files at `npm ci`) served under /console:
// hashed assets cached for good, every other /console path answered with the app's page (its
// router picks the screen), `/` sent to it. The console calls the same public API as any client.
import { existsSync } from "node:fs";
import path from "node:path";
import express, { Router, type Response } from "express";
import type { Logger } from "@lgp/server-kit";
import { renderDonePage } from "../oauth/done-page";

export const CONSOLE_PATH = "/console";

/** packages/console/dist in this repository (the default of CONSOLE_DIR). */
export const DEFAULT_CONSOLE_DIR = path.resolve(__dirname, "../../../../packages/console/dist");

/** The console's OAuth callback page: the default FRONTEND_CALLBACK_URL while the console is on. */
export const CONSOLE_CALLBACK_PATH = `${CONSOLE_PATH}/oauth/callback`;

// The page's own scripts and styles only; API calls go to this origin and to deployments' runtimes
// (other origins, hence connect-src *); nobody may frame it.
const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'self'; connect-src *; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

function secure(res: Response): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}

export function consoleRouter(dir: string, logger: Logger): Router {
  const router = Router();
  const index = path.join(dir, "index.html");
  const built = existsSync(index);
  if (built) logger.info({ dir }, `web console at ${CONSOLE_PATH}/`);
  else logger.warn({ dir }, "web console not built (npm run build -w packages/console): /console explains");

  router.get("/", (_req, res) => res.redirect(302, `${CONSOLE_PATH}/`));
  router.use(
    CONSOLE_PATH,
    express.static(dir, {
      index: false,
      fallthrough: true,
      setHeaders: (res, file) => {
        secure(res);
        // Vite names assets by their content: they never change under one name.
        res.setHeader(
          "Cache-Control",
          file.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
        );
      },
    }),
  );
  router.get(/^\/console(\/.*)?$/, (req, res) => {
    secure(res);
    if (req.path.startsWith(`${CONSOLE_PATH}/assets/`)) {
      res.status(404).type("text/plain").send("no such asset\n");
      return;
    }
    if (built) {
      res.setHeader("Cache-Control", "no-cache");
      res.sendFile(index);
      return;
    }
    // Without a build the OAuth callback still tells the user how it went.
    if (req.path === CONSOLE_CALLBACK_PATH) {
      res.type("html").send(renderDonePage(req.query as Record<string, string>));
      return;
    }
    res
      .status(503)
      .type("text/plain")
      .send("The web console is not built. Run `npm run build -w packages/console` (npm ci does it) and restart.\n");
  });
  return router;
}
