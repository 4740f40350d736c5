// How the control plane serves the console's files: the app's page for every /console path (its
// router picks the screen), hashed assets cached for good, the page never cached, security
// headers, `/` sent to it, a missing asset a 404; without a build a 503 that says what to run, and
// the OAuth callback sent on to the plain page; CONSOLE_ENABLED=false serves nothing and keeps /auth/done.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { startHarness, type Harness } from "../deployments/harness";

const DIST = path.join(REPO_ROOT, "packages/console/dist");

describe("a control plane with the built console", () => {
  let h: Harness;
  beforeAll(async () => {
    if (!existsSync(path.join(DIST, "index.html")))
      execFileSync("npm", ["run", "build", "-w", "packages/console"], { cwd: REPO_ROOT });
    h = await startHarness();
  });
  afterAll(() => h?.close());

  test("`/` and every /console path answer the app's page, uncached, with security headers", async () => {
    const root = await h.raw.get("/");
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe("/console/");
    const bare = await h.raw.get("/console");
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe("/console/");
    for (const url of [
      "/console/",
      "/console/deployments/some-id/playground/chat",
      "/console/oauth/callback?status=completed",
    ]) {
      const page = await h.raw.get(url);
      expect({ url, status: page.status }).toEqual({ url, status: 200 });
      expect(page.headers["content-type"]).toMatch(/text\/html/);
      expect(page.text).toContain('<div id="root">');
      expect(page.headers["cache-control"]).toBe("no-cache");
      expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
      expect(page.headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  test("the official CLI's hosted-form links land on the console's pages", async () => {
    const id = "0b7b2f7e-3f1c-4c55-9a53-6a1c1d2e3f40";
    const status = await h.raw.get(`/o/4f9d1a7c-2b6e-4e0a-8c31-9d2f5a6b7c80/host/deployments/${id}`);
    expect(status.status).toBe(302);
    expect(status.headers.location).toBe(`/console/deployments/${id}`);
    for (const url of ["/host/deployments", "/o/some-tenant/host/deployments/"]) {
      const list = await h.raw.get(url);
      expect({ url, status: list.status, location: list.headers.location }).toEqual({
        url,
        status: 302,
        location: "/console/deployments",
      });
    }
    // Only ids: nothing else is sent on.
    expect((await h.raw.get("/o/t/host/deployments/..%2F..%2Fevil")).status).toBe(404);
  });

  test("hashed assets are cached for good; an unknown asset is a 404, not the page", async () => {
    const asset = readdirSync(path.join(DIST, "assets")).find((name) => name.endsWith(".js"))!;
    const script = await h.raw.get(`/console/assets/${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/javascript/);
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const missing = await h.raw.get("/console/assets/nothing-here.js");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toMatch(/text\/plain/);
  });

  test("the API is untouched: /v2 still needs a key", async () => {
    expect((await h.raw.get("/v2/deployments")).status).toBe(401);
    expect((await h.api.get("/v2/deployments")).status).toBe(200);
  });
});

describe("a control plane whose console is not built, or is off", () => {
  test("without a build: a 503 that says what to run, and the OAuth callback still tells the outcome", async () => {
    const h = await startHarness({ env: { CONSOLE_DIR: mkdtempSync(path.join(os.tmpdir(), "no-console-")) } });
    try {
      const page = await h.raw.get("/console/deployments");
      expect(page.status).toBe(503);
      expect(page.text).toContain("npm run build -w packages/console");
      const callback = await h.raw.get("/console/oauth/callback?status=failed&provider_id=idp&error=access_denied");
      expect(callback.status).toBe(303);
      expect(callback.headers.location).toBe("/auth/done?status=failed&provider_id=idp&error=access_denied");
      const plain = await h.raw.get(callback.headers.location);
      expect(plain.status).toBe(200);
      expect(plain.text).toContain("Connection to idp failed");
    } finally {
      await h.close();
    }
  });

  test("CONSOLE_ENABLED=false: nothing under /console, and /auth/done stays the callback page", async () => {
    const h = await startHarness({ env: { CONSOLE_ENABLED: "false" } });
    try {
      expect((await h.raw.get("/console/")).status).toBe(404);
      const done = await h.raw.get("/auth/done?status=completed&provider_id=idp");
      expect(done.status).toBe(200);
      expect(done.text).toContain("Connected to idp");
    } finally {
      await h.close();
    }
  });
});
