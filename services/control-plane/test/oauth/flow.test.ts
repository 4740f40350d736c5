// The authorization-code flow end to end against a real OpenID provider (oidc-provider, started
// on loopback): authenticate -> the provider's log-in and consent -> callback -> 303 to the
// frontend page -> wait. Each client authentication method, PKCE on and off, provider errors,
// refresh of an expired token, and the long-poll.
import http from "node:http";
import pino from "pino";
import request from "supertest";
import { generateKey, SecretCipher } from "../../src/secrets/cipher";
import { Browser, startControlPlane, startOidcServer, type ControlPlane, type OidcServer } from "./support/harness";

let cp: ControlPlane;
let oidc: OidcServer;
const SECRETS = { post: "post-secret-value-123", basic: "basic-secret:with/odd+chars &=%" };
const SLUGS = ["post", "basic", "public", "post-pkce", "public-nopkce", "aborted", "refresh", "waiting", "reuse"];

// Every log line of the control plane, at the most verbose level, to prove no secret reaches them.
const logLines: string[] = [];
const encryptionKey = generateKey();
/** Access tokens the tests saw; none may appear in a log line. */
const seenTokens = new Set<string>();

beforeAll(async () => {
  const logger = pino({ level: "trace" }, { write: (line: string) => void logLines.push(line) });
  cp = await startControlPlane({ SECRETS_ENCRYPTION_KEY: encryptionKey }, logger);
  const redirect_uris = SLUGS.map((slug) => `${cp.url}/v2/auth/callback/${slug}`);
  oidc = await startOidcServer([
    {
      client_id: "post-client",
      client_secret: SECRETS.post,
      token_endpoint_auth_method: "client_secret_post",
      redirect_uris,
    },
    {
      client_id: "basic-client",
      client_secret: SECRETS.basic,
      token_endpoint_auth_method: "client_secret_basic",
      redirect_uris,
    },
    { client_id: "public-client", token_endpoint_auth_method: "none", redirect_uris },
  ]);
});

afterAll(async () => {
  await oidc?.stop();
  await cp?.stop();
});

const CLIENTS = {
  post: { client_id: "post-client", client_secret: SECRETS.post, token_endpoint_auth_method: "client_secret_post" },
  basic: { client_id: "basic-client", client_secret: SECRETS.basic, token_endpoint_auth_method: "client_secret_basic" },
  none: { client_id: "public-client", token_endpoint_auth_method: "none" },
};

async function createProvider(
  providerId: string,
  client: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const response = await request(cp.app)
    .post("/v2/auth/providers")
    .set("X-Api-Key", cp.keyA)
    .send({
      provider_id: providerId,
      name: providerId,
      auth_url: `${oidc.issuer}/auth`,
      token_url: `${oidc.issuer}/token`,
      ...client,
      ...extra,
    });
  expect(response.status).toBe(201);
  return response.body;
}

function authenticate(body: Record<string, unknown>, key = cp.keyA) {
  return request(cp.app).post("/v2/auth/authenticate").set("X-Api-Key", key).send(body);
}

async function wait(authId: string, timeout: number, key = cp.keyA) {
  const response = await request(cp.app).get(`/v2/auth/wait/${authId}?timeout=${timeout}`).set("X-Api-Key", key);
  if (typeof response.body?.token === "string") seenTokens.add(response.body.token);
  return response;
}

/** Follows `url` through the provider as a person would, then the callback; answers the frontend URL. */
async function completeInBrowser(url: string, options: { abort?: boolean } = {}) {
  const browser = new Browser();
  const callback = await browser.authorize(url, `${cp.url}/v2/auth/callback/`, options);
  const landed = await browser.request(callback);
  if (landed.status !== 303) throw new Error(`callback ${callback} answered ${landed.status}: ${await landed.text()}`);
  return { callback, browser, frontend: new URL(landed.headers.get("location") as string) };
}

async function userinfo(accessToken: string) {
  return fetch(`${oidc.issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
}

test("whole flow with client_secret_post: the token works at the provider and the frontend page says so", async () => {
  await createProvider("post", CLIENTS.post);
  const started = await authenticate({ provider: "post", scopes: ["openid", "repo"], user_id: "u1" });
  expect(started.status).toBe(200);
  expect(started.body).toMatchObject({ status: "pending", auth_id: expect.any(String) });

  const authUrl = new URL(started.body.url);
  expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${oidc.issuer}/auth`);
  expect(authUrl.searchParams.get("client_id")).toBe("post-client");
  expect(authUrl.searchParams.get("redirect_uri")).toBe(`${cp.url}/v2/auth/callback/post`);
  expect(authUrl.searchParams.get("scope")).toBe("openid repo");
  expect(authUrl.searchParams.get("response_type")).toBe("code");
  expect(authUrl.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(authUrl.searchParams.has("code_challenge")).toBe(false);

  const pending = await wait(started.body.auth_id, 0);
  expect(pending.body).toEqual({ status: "pending" });

  const { frontend, browser } = await completeInBrowser(started.body.url);
  expect(`${frontend.origin}${frontend.pathname}`).toBe(`${cp.url}/console/oauth/callback`);
  expect(Object.fromEntries(frontend.searchParams)).toEqual({
    status: "completed",
    provider_id: "post",
    auth_id: started.body.auth_id,
  });

  // The console's page renders in a browser (test/console); the plain page, for a control plane
  // without the console, says the same from the same parameters.
  const page = await browser.request(`${cp.url}/auth/done${frontend.search}`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/text\/html/);
  const html = await page.text();
  expect(html).toContain("Connected to post");
  expect(html).toContain("close this window");

  const done = await wait(started.body.auth_id, 5);
  expect(done.status).toBe(200);
  expect(done.body).toMatchObject({ status: "completed", token: expect.any(String) });
  const me = await userinfo(done.body.token);
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ sub: "alice" });

  // A stored token covering the scopes answers at once; force_new starts a new flow.
  const again = await authenticate({ provider: "post", scopes: ["repo"], user_id: "u1" });
  expect(again.body).toEqual({ status: "completed", token: done.body.token });
  const forced = await authenticate({ provider: "post", scopes: ["repo"], user_id: "u1", force_new: true });
  expect(forced.body.status).toBe("pending");
  // Another user, or more scopes, need their own authorization.
  expect((await authenticate({ provider: "post", scopes: ["repo"], user_id: "u2" })).body.status).toBe("pending");
  expect((await authenticate({ provider: "post", scopes: ["repo", "read:user"], user_id: "u1" })).body.status).toBe(
    "pending",
  );

  // At rest: the token is encrypted.
  const rows = await cp.db.oAuthToken.findMany();
  expect(rows).toHaveLength(1);
  expect(rows[0].accessTokenEncrypted).not.toContain(done.body.token);
  expect(rows[0].accessTokenEncrypted).toMatch(/^v1:/);
});

test.each([
  ["basic", CLIENTS.basic, false],
  ["public", CLIENTS.none, true],
  ["post-pkce", CLIENTS.post, true],
])("token exchange with provider %s (auth method and PKCE as configured)", async (slug, client, pkce) => {
  await createProvider(slug, client, { uses_pkce: pkce });
  const started = await authenticate({ provider: slug, scopes: ["openid", "repo"] });
  const authUrl = new URL(started.body.url);
  if (pkce) {
    expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authUrl.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  } else {
    expect(authUrl.searchParams.has("code_challenge")).toBe(false);
  }
  const { frontend } = await completeInBrowser(started.body.url);
  expect(frontend.searchParams.get("status")).toBe("completed");
  expect(frontend.searchParams.has("error")).toBe(false);
  const done = await wait(started.body.auth_id, 5);
  expect(done.body.status).toBe("completed");
  // The provider accepts the token: it is the real one.
  const me = await userinfo(done.body.token);
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ sub: "alice" });
});

test("a public client without PKCE: the provider's error is relayed to the frontend page and to wait", async () => {
  await createProvider("public-nopkce", CLIENTS.none, { uses_pkce: false });
  const started = await authenticate({ provider: "public-nopkce", scopes: ["repo"] });
  // oidc-provider requires PKCE of public clients and redirects back with an error at once.
  const { frontend } = await completeInBrowser(started.body.url);
  expect(frontend.searchParams.get("status")).toBe("failed");
  expect(frontend.searchParams.get("provider_id")).toBe("public-nopkce");
  expect(frontend.searchParams.get("auth_id")).toBe(started.body.auth_id);
  expect(frontend.searchParams.get("error")).toBe("invalid_request");
  expect(frontend.searchParams.get("error_description")).toMatch(/PKCE|code_challenge/i);
  const done = await wait(started.body.auth_id, 5);
  expect(done.body).toMatchObject({ status: "failed", error: "invalid_request" });
  expect(await cp.db.oAuthToken.count({ where: { provider: { providerId: "public-nopkce" } } })).toBe(0);
});

test("the person refuses at the provider: access_denied is relayed, no token is stored", async () => {
  await createProvider("aborted", CLIENTS.post);
  const started = await authenticate({ provider: "aborted", scopes: ["repo"] });
  const { frontend, browser } = await completeInBrowser(started.body.url, { abort: true });
  expect(Object.fromEntries(frontend.searchParams)).toMatchObject({
    status: "failed",
    provider_id: "aborted",
    auth_id: started.body.auth_id,
    error: "access_denied",
  });
  const page = await browser.request(`${cp.url}/auth/done${frontend.search}`);
  expect(await page.text()).toContain("Connection to aborted failed");
  expect((await wait(started.body.auth_id, 1)).body).toMatchObject({ status: "failed", error: "access_denied" });
  expect(await cp.db.oAuthToken.count({ where: { provider: { providerId: "aborted" } } })).toBe(0);
});

test("an expired token is refreshed with its refresh token when read", async () => {
  await createProvider("refresh", CLIENTS.basic);
  const started = await authenticate({ provider: "refresh", scopes: ["openid", "repo"], user_id: "r1" });
  await completeInBrowser(started.body.url);
  const first = (await wait(started.body.auth_id, 5)).body.token as string;

  const listed = await request(cp.app).get("/v2/auth/tokens?provider_id=refresh").set("X-Api-Key", cp.keyA);
  expect(listed.status).toBe(200);
  expect(listed.body).toHaveLength(1);
  expect(listed.body[0]).toMatchObject({
    access_token: first,
    has_refresh_token: true,
    user_id: "r1",
    scopes: ["openid", "repo"],
  });
  expect(JSON.stringify(listed.body)).not.toMatch(/"refresh_token"/);

  // Let it expire (in the database: no sleeping).
  const row = await cp.db.oAuthToken.findFirstOrThrow({ where: { provider: { providerId: "refresh" } } });
  await cp.db.oAuthToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });

  const refreshed = await request(cp.app).get("/v2/auth/tokens?provider_id=refresh").set("X-Api-Key", cp.keyA);
  expect(refreshed.status).toBe(200);
  const token = refreshed.body[0];
  expect(token.id).toBe(row.id);
  expect(token.access_token).not.toBe(first);
  expect(Date.parse(token.expires_at)).toBeGreaterThan(Date.now());
  expect((await userinfo(token.access_token)).status).toBe(200);

  // authenticate answers the refreshed token; when it expires again it is refreshed again.
  expect((await authenticate({ provider: "refresh", scopes: ["repo"], user_id: "r1" })).body).toEqual({
    status: "completed",
    token: token.access_token,
  });
  await cp.db.oAuthToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  const viaAuthenticate = await authenticate({ provider: "refresh", scopes: ["repo"], user_id: "r1" });
  expect(viaAuthenticate.body.status).toBe("completed");
  expect(viaAuthenticate.body.token).not.toBe(token.access_token);
  expect((await userinfo(viaAuthenticate.body.token)).status).toBe(200);
});

test("an expired token whose refresh fails is not answered by authenticate", async () => {
  const started = await authenticate({ provider: "refresh", scopes: ["repo"], user_id: "r2" });
  await completeInBrowser(started.body.url);
  const row = await cp.db.oAuthToken.findFirstOrThrow({ where: { userId: "r2" } });
  await cp.db.oAuthToken.update({
    where: { id: row.id },
    data: { expiresAt: new Date(Date.now() - 60_000), refreshTokenEncrypted: null },
  });
  expect((await authenticate({ provider: "refresh", scopes: ["repo"], user_id: "r2" })).body.status).toBe("pending");
});

test("wait: answers as soon as the callback completes; timeout, not_found, bounded timeout", async () => {
  await createProvider("waiting", CLIENTS.post);
  const started = await authenticate({ provider: "waiting", scopes: ["repo"] });
  const waiting = wait(started.body.auth_id, 30).then((response) => response.body);
  await completeInBrowser(started.body.url);
  expect(await waiting).toMatchObject({ status: "completed", token: expect.any(String) });

  const other = await authenticate({ provider: "waiting", scopes: ["read:user"] });
  expect((await wait(other.body.auth_id, 1)).body).toEqual({ status: "timeout" });
  expect((await wait("not-a-uuid", 1)).body).toEqual({ status: "not_found" });
  expect((await wait("00000000-0000-4000-8000-000000000000", 1)).body).toEqual({ status: "not_found" });
  expect((await wait(other.body.auth_id, -1)).status).toBe(422);
});

test("a long-poll does not hold up shutdown: it answers when the server stops listening", async () => {
  const started = await authenticate({ provider: "waiting", scopes: ["repo", "read:user"] });
  const server = http.createServer(cp.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const arrived = new Promise((resolve) => server.once("request", resolve));
  const answer = fetch(`http://127.0.0.1:${port}/v2/auth/wait/${started.body.auth_id}?timeout=60`, {
    headers: { "x-api-key": cp.keyA },
  });
  // Stop listening once the long-poll has reached the server, as a graceful shutdown does.
  await arrived;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const response = await answer;
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: "timeout" });
  server.closeIdleConnections();
  await closed;
}, 20_000);

test("no client secret, access token or refresh token ever reaches the logs", async () => {
  const cipher = SecretCipher.fromEncodedKey(encryptionKey);
  const rows = await cp.db.oAuthToken.findMany();
  const secrets = [
    SECRETS.post,
    SECRETS.basic,
    ...seenTokens,
    ...rows.map((row) => cipher.decrypt(row.accessTokenEncrypted)),
    ...rows.flatMap((row) => (row.refreshTokenEncrypted ? [cipher.decrypt(row.refreshTokenEncrypted)] : [])),
  ];
  expect(seenTokens.size).toBeGreaterThan(3);
  expect(rows.some((row) => row.refreshTokenEncrypted)).toBe(true);
  expect(logLines.length).toBeGreaterThan(10);
  const log = logLines.join("");
  for (const secret of secrets) expect(log).not.toContain(secret);
});
