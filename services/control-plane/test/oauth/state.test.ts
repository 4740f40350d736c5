// The callback's `state` checks: unknown, missing, expired, replayed or issued for another provider
// means no token exchange and a 303 to the frontend page with the error, never a 5xx.
import request from "supertest";
import { Browser, startControlPlane, startOidcServer, type ControlPlane, type OidcServer } from "./support/harness";

let cp: ControlPlane;
let oidc: OidcServer;
const FRONTEND = "https://frontend.example/oauth/callback?app=1";

beforeAll(async () => {
  cp = await startControlPlane({ FRONTEND_CALLBACK_URL: FRONTEND });
  const redirect_uris = ["alpha", "beta"].map((slug) => `${cp.url}/v2/auth/callback/${slug}`);
  oidc = await startOidcServer([
    {
      client_id: "client",
      client_secret: "client-secret-1",
      token_endpoint_auth_method: "client_secret_post",
      redirect_uris,
    },
  ]);
  for (const slug of ["alpha", "beta"]) {
    const created = await request(cp.app)
      .post("/v2/auth/providers")
      .set("X-Api-Key", cp.keyA)
      .send({
        provider_id: slug,
        name: slug,
        client_id: "client",
        client_secret: "client-secret-1",
        auth_url: `${oidc.issuer}/auth`,
        token_url: `${oidc.issuer}/token`,
      });
    expect(created.status).toBe(201);
  }
});

afterAll(async () => {
  await oidc?.stop();
  await cp?.stop();
});

async function start(provider = "alpha") {
  const started = await request(cp.app)
    .post("/v2/auth/authenticate")
    .set("X-Api-Key", cp.keyA)
    .send({ provider, scopes: ["repo"], force_new: true });
  expect(started.body.status).toBe("pending");
  return {
    authId: started.body.auth_id as string,
    url: started.body.url as string,
    state: new URL(started.body.url).searchParams.get("state") as string,
  };
}

/** The provider's redirect back to us after log-in and consent (not yet followed). */
async function providerRedirect(url: string): Promise<URL> {
  return new URL(await new Browser().authorize(url, `${cp.url}/v2/auth/callback/`));
}

/** Calls the callback and answers the frontend page's parameters. */
async function callback(pathAndQuery: string) {
  const response = await request(cp.app).get(pathAndQuery);
  expect(response.status).toBe(303);
  expect(response.headers["cache-control"]).toBe("no-store");
  expect(response.headers["referrer-policy"]).toBe("no-referrer");
  const location = new URL(response.headers.location);
  expect(`${location.origin}${location.pathname}`).toBe("https://frontend.example/oauth/callback");
  expect(location.searchParams.get("app")).toBe("1");
  return Object.fromEntries(location.searchParams);
}

const tokens = () => cp.db.oAuthToken.count();

test("unknown and missing state: refused, nothing exchanged", async () => {
  expect(await callback("/v2/auth/callback/alpha?code=abc&state=not-a-state")).toMatchObject({
    status: "failed",
    provider_id: "alpha",
    error: "invalid_state",
    error_description: expect.stringMatching(/does not match/),
  });
  expect(await callback("/v2/auth/callback/alpha?code=abc")).toMatchObject({
    status: "failed",
    error: "invalid_state",
  });
  expect(await callback("/v2/auth/callback/alpha")).toMatchObject({ status: "failed", error: "invalid_state" });
  // A provider error without a state we issued is not trusted either.
  expect(await callback("/v2/auth/callback/alpha?error=access_denied")).toMatchObject({ error: "invalid_state" });
  expect(await callback("/v2/auth/callback/no-such-provider?code=abc&state=xyz")).toMatchObject({
    error: "invalid_state",
  });
  expect(await tokens()).toBe(0);
});

test("a state issued for another provider is refused and stays usable for its own", async () => {
  const { authId, url } = await start("alpha");
  const redirect = await providerRedirect(url);
  // The same code and state presented at beta's callback.
  const wrong = await callback(`/v2/auth/callback/beta${redirect.search}`);
  expect(wrong).toMatchObject({ status: "failed", provider_id: "beta", error: "invalid_state" });
  expect(wrong.error_description).toMatch(/another provider/);
  expect(wrong.auth_id).toBeUndefined();
  expect(await tokens()).toBe(0);
  // The code was not spent: alpha's own callback exchanges it.
  expect(await callback(`/v2/auth/callback/alpha${redirect.search}`)).toEqual({
    app: "1",
    status: "completed",
    provider_id: "alpha",
    auth_id: authId,
  });
  expect(await tokens()).toBe(1);
});

test("a replayed state is refused: no second exchange, the first token stands", async () => {
  const { authId, url } = await start("beta");
  const redirect = await providerRedirect(url);
  expect((await callback(`/v2/auth/callback/beta${redirect.search}`)).status).toBe("completed");
  const before = await cp.db.oAuthToken.findMany({ orderBy: { createdAt: "asc" } });
  const replay = await callback(`/v2/auth/callback/beta${redirect.search}`);
  expect(replay).toMatchObject({ status: "failed", error: "invalid_state", auth_id: authId });
  expect(replay.error_description).toMatch(/already used/);
  // With a fresh code too: the state is spent.
  const replayOtherCode = await callback(
    `/v2/auth/callback/beta?code=another&state=${encodeURIComponent(redirect.searchParams.get("state") as string)}`,
  );
  expect(replayOtherCode).toMatchObject({ error: "invalid_state" });
  expect(await cp.db.oAuthToken.findMany({ orderBy: { createdAt: "asc" } })).toEqual(before);
  const waited = await request(cp.app).get(`/v2/auth/wait/${authId}?timeout=0`).set("X-Api-Key", cp.keyA);
  expect(waited.body).toMatchObject({ status: "completed", token: expect.any(String) });
});

test("two callbacks racing with one state: exactly one exchanges", async () => {
  const { url } = await start("alpha");
  const redirect = await providerRedirect(url);
  const since = new Date();
  const results = await Promise.all([1, 2, 3].map(() => callback(`/v2/auth/callback/alpha${redirect.search}`)));
  expect(results.filter((result) => result.status === "completed")).toHaveLength(1);
  expect(results.filter((result) => result.error === "invalid_state")).toHaveLength(2);
  expect(await cp.db.oAuthToken.count({ where: { createdAt: { gte: since } } })).toBe(1);
});

test("an expired state (over 10 minutes old) is refused without exchange; wait reports it", async () => {
  const { authId, url } = await start("alpha");
  const redirect = await providerRedirect(url);
  await cp.db.oAuthAuthorization.update({ where: { id: authId }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const before = await tokens();
  const expired = await callback(`/v2/auth/callback/alpha${redirect.search}`);
  expect(expired).toMatchObject({ status: "failed", error: "invalid_state", auth_id: authId });
  expect(expired.error_description).toMatch(/expired/);
  expect(await tokens()).toBe(before);
  const waited = await request(cp.app).get(`/v2/auth/wait/${authId}?timeout=1`).set("X-Api-Key", cp.keyA);
  expect(waited.body).toMatchObject({ status: "failed", error: "expired" });
});

test("a valid state with a bad code: the token endpoint's error is relayed, never a 5xx", async () => {
  const { authId, state } = await start("alpha");
  const result = await callback(`/v2/auth/callback/alpha?code=forged-code&state=${encodeURIComponent(state)}`);
  expect(result).toMatchObject({ status: "failed", auth_id: authId, error: "invalid_grant" });
  const waited = await request(cp.app).get(`/v2/auth/wait/${authId}?timeout=0`).set("X-Api-Key", cp.keyA);
  expect(waited.body).toMatchObject({ status: "failed", error: "invalid_grant" });
});

test("a valid state with neither code nor error, and odd parameters, still end on the frontend page", async () => {
  const { authId, state } = await start("alpha");
  const result = await callback(
    `/v2/auth/callback/alpha?state=${encodeURIComponent(state)}&session_state=x+y&scope=a%20b&code=&hd=example.com`,
  );
  expect(result).toMatchObject({ status: "failed", auth_id: authId, error: "invalid_request" });
  // The authorization server's iss must match when present (mix-up defence).
  const second = await start("alpha");
  const redirect = await providerRedirect(second.url);
  redirect.searchParams.set("iss", "https://evil.example");
  expect(await callback(`/v2/auth/callback/alpha${redirect.search}`)).toMatchObject({
    status: "failed",
    auth_id: second.authId,
    error: "token_exchange_failed",
  });
});

test("the state is stored only as a hash and expires 10 minutes after issue", async () => {
  const { authId, state } = await start("alpha");
  const row = await cp.db.oAuthAuthorization.findUniqueOrThrow({ where: { id: authId } });
  expect(row.stateHash).not.toContain(state);
  expect(row.stateHash).toMatch(/^[0-9a-f]{64}$/);
  // Ten minutes after issue (the row's created_at comes from the database clock: allow a second).
  expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - 10 * 60 * 1000)).toBeLessThan(1000);
});

test("a failure on our side fails the authorization at once and still lands on the frontend page", async () => {
  const { authId, url } = await start("alpha");
  const redirect = await providerRedirect(url);
  // A stored value that no longer decrypts (a rotated key, say): our fault, not the provider's.
  await cp.db.oAuthAuthorization.update({ where: { id: authId }, data: { codeVerifierEncrypted: "v1:broken" } });
  expect(await callback(`/v2/auth/callback/alpha${redirect.search}`)).toMatchObject({
    status: "failed",
    provider_id: "alpha",
    auth_id: authId,
    error: "server_error",
  });
  const waited = await request(cp.app).get(`/v2/auth/wait/${authId}?timeout=1`).set("X-Api-Key", cp.keyA);
  expect(waited.body).toMatchObject({ status: "failed", error: "server_error" });
});
