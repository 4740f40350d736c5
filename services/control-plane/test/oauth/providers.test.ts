// Providers per tenant (client secret encrypted, never returned), tokens listing and deletion,
// and tenant isolation of providers, authorizations and tokens.
import request from "supertest";
import { createLogger } from "@lgp/server-kit";
import { createControlPlaneApp } from "../../src/app";
import { loadControlPlaneConfig } from "../../src/config";
import { generateKey } from "../../src/secrets/cipher";
import { Browser, startControlPlane, startOidcServer, type ControlPlane, type OidcServer } from "./support/harness";

let cp: ControlPlane & { database: { url: string } };
let oidc: OidcServer;
const SECRET = "super-secret-client-value-42";

beforeAll(async () => {
  cp = await startControlPlane();
  const redirect_uris = ["shared", "gh"].map((slug) => `${cp.url}/v2/auth/callback/${slug}`);
  oidc = await startOidcServer([
    { client_id: "client", client_secret: SECRET, token_endpoint_auth_method: "client_secret_post", redirect_uris },
  ]);
});

afterAll(async () => {
  await oidc?.stop();
  await cp?.stop();
});

const api = (key: string) => ({
  get: (path: string) => request(cp.app).get(path).set("X-Api-Key", key),
  post: (path: string, body: object) => request(cp.app).post(path).set("X-Api-Key", key).send(body),
  patch: (path: string, body: object) => request(cp.app).patch(path).set("X-Api-Key", key).send(body),
  delete: (path: string) => request(cp.app).delete(path).set("X-Api-Key", key),
});

function providerBody(providerId: string, extra: Record<string, unknown> = {}) {
  return {
    provider_id: providerId,
    name: `Provider ${providerId}`,
    client_id: "client",
    client_secret: SECRET,
    auth_url: `${oidc.issuer}/auth`,
    token_url: `${oidc.issuer}/token`,
    ...extra,
  };
}

/** Runs the whole flow for a tenant; answers the access token. */
async function connect(key: string, providerId: string, userId?: string): Promise<string> {
  const started = await api(key).post("/v2/auth/authenticate", {
    provider: providerId,
    scopes: ["repo"],
    user_id: userId,
    force_new: true,
  });
  expect(started.body.status).toBe("pending");
  const browser = new Browser();
  const callback = await browser.authorize(started.body.url, `${cp.url}/v2/auth/callback/`);
  const landed = await browser.request(callback);
  expect(new URL(landed.headers.get("location") as string).searchParams.get("status")).toBe("completed");
  const waited = await api(key).get(`/v2/auth/wait/${started.body.auth_id}?timeout=5`);
  expect(waited.body.status).toBe("completed");
  return waited.body.token;
}

test("provider CRUD: the client secret is encrypted at rest and never returned", async () => {
  const created = await api(cp.keyA).post("/v2/auth/providers", providerBody("gh"));
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    provider_id: "gh",
    name: "Provider gh",
    client_id: "client",
    uses_pkce: false,
    code_challenge_method: "S256",
    token_endpoint_auth_method: "client_secret_post",
    has_client_secret: true,
    issuer: null,
  });
  expect(JSON.stringify(created.body)).not.toContain(SECRET);
  const row = await cp.db.oAuthProvider.findFirstOrThrow({ where: { providerId: "gh" } });
  expect(row.clientSecretEncrypted).toMatch(/^v1:/);
  expect(row.clientSecretEncrypted).not.toContain(SECRET);

  const duplicate = await api(cp.keyA).post("/v2/auth/providers", providerBody("gh"));
  expect(duplicate.status).toBe(409);

  const read = await api(cp.keyA).get("/v2/auth/providers/gh");
  expect(read.status).toBe(200);
  expect(read.body).toEqual(created.body);
  const list = await api(cp.keyA).get("/v2/auth/providers");
  expect(list.body.map((provider: { provider_id: string }) => provider.provider_id)).toEqual(["gh"]);
  expect(JSON.stringify(list.body)).not.toContain(SECRET);

  const patched = await api(cp.keyA).patch("/v2/auth/providers/gh", {
    name: "GitHub",
    uses_pkce: true,
    token_endpoint_auth_method: "client_secret_basic",
  });
  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({
    name: "GitHub",
    uses_pkce: true,
    token_endpoint_auth_method: "client_secret_basic",
    has_client_secret: true,
  });
  // A confidential method cannot lose its secret; "none" can.
  expect((await api(cp.keyA).patch("/v2/auth/providers/gh", { client_secret: null })).status).toBe(422);
  const publicClient = await api(cp.keyA).patch("/v2/auth/providers/gh", {
    client_secret: null,
    token_endpoint_auth_method: "none",
  });
  expect(publicClient.body).toMatchObject({ has_client_secret: false, token_endpoint_auth_method: "none" });
  const restored = await api(cp.keyA).patch("/v2/auth/providers/gh", {
    client_secret: SECRET,
    token_endpoint_auth_method: "client_secret_post",
    uses_pkce: false,
  });
  expect(restored.body.has_client_secret).toBe(true);

  // The flow still works after the edits (the secret was re-encrypted and decrypts).
  expect(await connect(cp.keyA, "gh")).toEqual(expect.any(String));

  const deleted = await api(cp.keyA).delete("/v2/auth/providers/gh");
  expect(deleted.status).toBe(200);
  expect(deleted.body).toEqual({ message: "OAuth provider gh deleted" });
  expect((await api(cp.keyA).get("/v2/auth/providers/gh")).status).toBe(404);
  expect((await api(cp.keyA).delete("/v2/auth/providers/gh")).status).toBe(404);
  // Its tokens went with it.
  expect(await cp.db.oAuthToken.count({ where: { provider: { providerId: "gh" } } })).toBe(0);
});

test("provider validation: clear 422s", async () => {
  const cases: [Record<string, unknown>, (string | number)[]][] = [
    [{ provider_id: "bad id" }, ["body", "provider_id"]],
    [{ auth_url: "ftp://example.com/auth" }, ["body", "auth_url"]],
    [{ token_url: "http://provider.example.com/token" }, ["body", "token_url"]],
    [{ token_url: "not a url" }, ["body", "token_url"]],
    [{ client_secret: undefined }, ["body", "client_secret"]],
    [{ token_endpoint_auth_method: "private_key_jwt" }, ["body", "token_endpoint_auth_method"]],
    [{ code_challenge_method: "plain" }, ["body", "code_challenge_method"]],
    [{ unexpected: 1 }, ["body", "unexpected"]],
  ];
  for (const [extra, loc] of cases) {
    const response = await api(cp.keyA).post("/v2/auth/providers", providerBody("valid", extra));
    expect(response.status).toBe(422);
    expect(response.body.detail[0].loc).toEqual(expect.arrayContaining(loc.slice(0, 1)));
    expect(JSON.stringify(response.body.detail)).toContain(String(loc[1]));
  }
  // A public client needs no secret.
  const open = await api(cp.keyA).post(
    "/v2/auth/providers",
    providerBody("public", { client_secret: undefined, token_endpoint_auth_method: "none" }),
  );
  expect(open.status).toBe(201);
  expect((await api(cp.keyA).delete("/v2/auth/providers/public")).status).toBe(200);

  expect((await api(cp.keyA).post("/v2/auth/authenticate", { provider: "missing", scopes: ["a"] })).status).toBe(404);
  expect((await api(cp.keyA).post("/v2/auth/authenticate", { provider: "x", scopes: "a" })).status).toBe(422);
  expect((await api(cp.keyA).post("/v2/auth/authenticate", { scopes: ["a"] })).status).toBe(422);
  expect((await api(cp.keyA).post("/v2/auth/authenticate", { provider: "x", scopes: ["has space"] })).status).toBe(422);
  expect((await request(cp.app).get("/v2/auth/providers")).status).toBe(401);
});

test("tenant isolation: another tenant's providers, authorizations and tokens are not found", async () => {
  expect((await api(cp.keyA).post("/v2/auth/providers", providerBody("shared"))).status).toBe(201);
  const tokenA = await connect(cp.keyA, "shared", "alice");

  // Tenant B sees none of it.
  expect((await api(cp.keyB).get("/v2/auth/providers")).body).toEqual([]);
  expect((await api(cp.keyB).get("/v2/auth/providers/shared")).status).toBe(404);
  expect((await api(cp.keyB).patch("/v2/auth/providers/shared", { name: "mine" })).status).toBe(404);
  expect((await api(cp.keyB).delete("/v2/auth/providers/shared")).status).toBe(404);
  expect((await api(cp.keyB).post("/v2/auth/authenticate", { provider: "shared", scopes: ["repo"] })).status).toBe(404);
  expect((await api(cp.keyB).get("/v2/auth/tokens")).body).toEqual([]);
  expect((await api(cp.keyB).get("/v2/auth/tokens?provider_id=shared")).status).toBe(404);
  expect((await api(cp.keyB).delete("/v2/auth/tokens?provider_id=shared")).status).toBe(404);
  const tokensA = (await api(cp.keyA).get("/v2/auth/tokens?provider_id=shared")).body;
  expect(tokensA).toHaveLength(1);
  expect(tokensA[0]).toMatchObject({ access_token: tokenA, user_id: "alice", provider_id: "shared" });
  expect((await api(cp.keyB).delete(`/v2/auth/tokens/${tokensA[0].id}`)).status).toBe(404);
  const authorization = await cp.db.oAuthAuthorization.findFirstOrThrow({ where: { tokenId: tokensA[0].id } });
  expect((await api(cp.keyB).get(`/v2/auth/wait/${authorization.id}?timeout=0`)).body).toEqual({ status: "not_found" });

  // Tenant B may use the same provider_id for its own provider; each has its own tokens.
  expect((await api(cp.keyB).post("/v2/auth/providers", providerBody("shared", { name: "B's" }))).status).toBe(201);
  const tokenB = await connect(cp.keyB, "shared", "alice");
  expect(tokenB).not.toBe(tokenA);
  expect((await api(cp.keyA).get("/v2/auth/providers/shared")).body.name).toBe("Provider shared");
  expect(
    (await api(cp.keyB).get("/v2/auth/tokens")).body.map((token: { access_token: string }) => token.access_token),
  ).toEqual([tokenB]);
  expect(
    (await api(cp.keyA).get("/v2/auth/tokens")).body.map((token: { access_token: string }) => token.access_token),
  ).toEqual([tokenA]);
  // Each tenant's stored token answers its own authenticate.
  expect(
    (await api(cp.keyA).post("/v2/auth/authenticate", { provider: "shared", scopes: ["repo"], user_id: "alice" })).body,
  ).toEqual({
    status: "completed",
    token: tokenA,
  });
  expect(
    (await api(cp.keyB).post("/v2/auth/authenticate", { provider: "shared", scopes: ["repo"], user_id: "alice" })).body,
  ).toEqual({
    status: "completed",
    token: tokenB,
  });

  // Deleting B's tokens leaves A's.
  const deletedB = await api(cp.keyB).delete("/v2/auth/tokens?provider_id=shared&user_id=alice");
  expect(deletedB.body).toEqual({ message: "Deleted 1 token(s)", provider_id: "shared", deleted: 1 });
  expect((await api(cp.keyA).get("/v2/auth/tokens")).body).toHaveLength(1);
});

test("token deletion: one by id, all of a provider, all of one user", async () => {
  const first = await connect(cp.keyA, "shared", "u1");
  await connect(cp.keyA, "shared", "u2");
  const tokens = (await api(cp.keyA).get("/v2/auth/tokens?provider_id=shared")).body as {
    id: string;
    user_id: string;
    access_token: string;
  }[];
  expect(tokens.map((token) => token.user_id).sort()).toEqual(["alice", "u1", "u2"]);
  expect(
    (await api(cp.keyA).get("/v2/auth/tokens?user_id=u1")).body.map(
      (token: { access_token: string }) => token.access_token,
    ),
  ).toEqual([first]);

  const u1 = tokens.find((token) => token.user_id === "u1") as { id: string };
  expect((await api(cp.keyA).delete(`/v2/auth/tokens/${u1.id}`)).status).toBe(204);
  expect((await api(cp.keyA).delete(`/v2/auth/tokens/${u1.id}`)).status).toBe(404);
  expect((await api(cp.keyA).delete("/v2/auth/tokens/not-a-uuid")).status).toBe(422);
  expect((await api(cp.keyA).delete("/v2/auth/tokens")).status).toBe(422);

  const all = await api(cp.keyA).delete("/v2/auth/tokens?provider_id=shared");
  expect(all.body).toMatchObject({ provider_id: "shared", deleted: 2 });
  expect((await api(cp.keyA).get("/v2/auth/tokens")).body).toEqual([]);
  // With the token gone, authenticate starts a new flow.
  expect(
    (await api(cp.keyA).post("/v2/auth/authenticate", { provider: "shared", scopes: ["repo"], user_id: "u2" })).body
      .status,
  ).toBe("pending");
});

test("plain http to loopback is refused unless OAUTH_ALLOW_HTTP_LOOPBACK is set", async () => {
  const config = loadControlPlaneConfig({
    CONTROL_PLANE_DATABASE_URL: cp.database.url,
    SECRETS_ENCRYPTION_KEY: generateKey(),
    PUBLIC_URL: cp.url,
  });
  expect(config.OAUTH_ALLOW_HTTP_LOOPBACK).toBe(false);
  const strict = createControlPlaneApp({ config, db: cp.db, logger: createLogger("control-plane", "silent") });
  const response = await request(strict)
    .post("/v2/auth/providers")
    .set("X-Api-Key", cp.keyA)
    .send(providerBody("local-http"));
  expect(response.status).toBe(422);
  expect(response.body.detail[0]).toMatchObject({ loc: ["body", "auth_url"] });
  expect(response.body.detail[0].msg).toMatch(/OAUTH_ALLOW_HTTP_LOOPBACK/);
  const https = await request(strict)
    .post("/v2/auth/providers")
    .set("X-Api-Key", cp.keyA)
    .send(
      providerBody("remote", {
        auth_url: "https://login.example.com/authorize",
        token_url: "https://login.example.com/token",
      }),
    );
  expect(https.status).toBe(201);
});
