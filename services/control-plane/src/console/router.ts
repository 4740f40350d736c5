// The web console (packages/console, built to static files at `npm ci`) served under /console:
// hashed assets cached for good, every other /console path answered with the app's page (its
// router picks the screen), `/` sent to it. The console calls the same public API as any client.
import { existsSync } from "node:fs";
import path from "node:path";
import express, { Router, type Response } from "express";
import type { Logger } from "@lgp/server-kit";
import { CONSOLE_CALLBACK_PATH } from "../config";

export const CONSOLE_PATH = "/console";

/** packages/console/dist in this repository (the default of CONSOLE_DIR). */
export const DEFAULT_CONSOLE_DIR = path.resolve(__dirname, "../../../../packages/console/dist");

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
  // The links the official CLI prints, in the hosted platform's form (its dashboard is this
  // server when it deploys here): a deployment's status page, and the deployments list.
  router.get(/^\/o\/[\w-]{1,100}\/host\/deployments\/([0-9a-fA-F-]{36})\/?$/, (req, res) =>
    res.redirect(302, `${CONSOLE_PATH}/deployments/${(req.params as Record<string, string>)[0].toLowerCase()}`),
  );
  router.get(/^(\/o\/[\w-]{1,100})?\/host\/deployments\/?$/, (_req, res) =>
    res.redirect(302, `${CONSOLE_PATH}/deployments`),
  );
  router.use(
    CONSOLE_PATH,
    express.static(dir, {
      index: false,
      fallthrough: true,
      setHeaders: (res, file) => {
        secure(res);
        // Vite names assets by their content: they never change under one name.
        const asset = path.relative(dir, file).startsWith(`assets${path.sep}`);
        res.setHeader("Cache-Control", asset ? "public, max-age=31536000, immutable" : "no-cache");
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
    // Without a build the OAuth callback still tells the user how it went: on the plain page.
    if (req.path === CONSOLE_CALLBACK_PATH) {
      const query = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?")) : "";
      res.redirect(303, `/auth/done${query}`);
      return;
    }
    res
      .status(503)
      .type("text/plain")
      .send("The web console is not built. Run `npm run build -w packages/console` (npm ci does it) and restart.\n");
  });
  return router;
}
