import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createLogger, type Logger } from "@lgp/server-kit";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { createControlPlaneApp } from "../../../src/app";
import { loadControlPlaneConfig } from "../../../src/config";
import { createDb, type Db } from "../../../src/db";
import { generateKey } from "../../../src/secrets/cipher";
import { createTenantKey } from "../../../src/tenants/api-keys";

/** An oidc-provider client registration (snake_case metadata, as the package takes it). */
export interface OidcClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method: "client_secret_post" | "client_secret_basic" | "none";
  grant_types?: string[];
  response_types?: string[];
}

export interface OidcServer {
  issuer: string;
  stop(): Promise<void>;
}

/** Starts the real provider (support/oidc-server.mjs) in a child process and reads its issuer URL. */
export async function startOidcServer(clients: OidcClient[]): Promise<OidcServer> {
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, "oidc-server.mjs")], {
    env: {
      ...process.env,
      OIDC_CLIENTS: JSON.stringify(
        clients.map((client) => ({
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          ...client,
        })),
      ),
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n")) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.once("exit", (code) => reject(new Error(`oidc server exited (${code}): ${stderr}`)));
    setTimeout(() => reject(new Error(`oidc server did not start: ${stderr}`)), 20_000).unref();
  }).catch((error: unknown) => {
    child.kill("SIGKILL");
    throw error;
  });
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const force = setTimeout(() => child.kill("SIGKILL"), 3000);
        child.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

export interface ControlPlane {
  url: string;
  db: Db;
  server: http.Server;
  app: ReturnType<typeof createControlPlaneApp>;
  keyA: string;
  keyB: string;
  stop(): Promise<void>;
}

/** The control plane on a loopback port (its URL is PUBLIC_URL), a fresh database, two tenants. */
export async function startControlPlane(
  env: Record<string, string> = {},
  logger: Logger = createLogger("control-plane", process.env.LOG_LEVEL),
): Promise<ControlPlane & { database: TestDatabase }> {
  const database = await createTestDatabase("control-plane");
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const db = createDb(database.url, 4);
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.$disconnect();
    await database.drop();
  };
  let app: ReturnType<typeof createControlPlaneApp>;
  let keyA: string;
  let keyB: string;
  try {
    const config = loadControlPlaneConfig({
      CONTROL_PLANE_DATABASE_URL: database.url,
      SECRETS_ENCRYPTION_KEY: generateKey(),
      PUBLIC_URL: url,
      // The test provider listens on plain http on loopback.
      OAUTH_ALLOW_HTTP_LOOPBACK: "true",
      ...env,
    });
    app = createControlPlaneApp({ config, db, logger });
    server.on("request", app);
    keyA = (await createTenantKey(db, "tenant-a")).apiKey;
    keyB = (await createTenantKey(db, "tenant-b")).apiKey;
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url,
    db,
    server,
    app,
    keyA,
    keyB,
    database,
    stop: close,
  };
}

/**
 * A minimal browser: follows nothing by itself, keeps cookies per host, submits the provider's
 * development log-in and consent forms.
 */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const cookies = this.jar.get(target.host);
    const headers: Record<string, string> = {};
    if (cookies?.size) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, {
      method: init.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) this.store(target.host, line);
    return response;
  }

  private store(host: string, line: string): void {
    const [pair, ...attributes] = line.split(";");
    const index = pair.indexOf("=");
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    this.jar.set(host, cookies);
    const expired = attributes.some((attribute) => {
      const [key, val] = attribute.split("=").map((part) => part.trim().toLowerCase());
      return (key === "expires" && Date.parse(val) < Date.now()) || (key === "max-age" && Number(val) <= 0);
    });
    if (expired || value === "") cookies.delete(name);
    else cookies.set(name, value);
  }

  /**
   * Follows the provider from the authorization URL through its log-in and consent pages (or
   * aborts at the first page) until it redirects to `stopAt`; answers that redirect's URL.
   */
  async authorize(
    authorizationUrl: string,
    stopAt: string,
    options: { login?: string; abort?: boolean } = {},
  ): Promise<string> {
    let url = authorizationUrl;
    for (let hop = 0; hop < 20; hop++) {
      if (url.startsWith(stopAt)) return url;
      const response = await this.request(url);
      if (response.status >= 300 && response.status < 400) {
        url = new URL(response.headers.get("location") as string, url).toString();
        continue;
      }
      const page = await response.text();
      if (response.status !== 200 || !/\/interaction\/[^/]+$/.test(new URL(url).pathname)) {
        throw new Error(`unexpected provider answer ${response.status} at ${url}: ${page.slice(0, 300)}`);
      }
      if (options.abort) {
        url = `${url}/abort`;
        continue;
      }
      const form: Record<string, string> = page.includes('name="login"')
        ? { prompt: "login", login: options.login ?? "alice", password: "any" }
        : { prompt: "consent" };
      const submitted = await this.request(url, { form });
      if (submitted.status < 300 || submitted.status >= 400) {
        throw new Error(`interaction submit answered ${submitted.status}: ${(await submitted.text()).slice(0, 300)}`);
      }
      url = new URL(submitted.headers.get("location") as string, url).toString();
    }
    throw new Error("too many redirects at the provider");
  }
}
