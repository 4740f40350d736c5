import request from "supertest";
import { Browser, startControlPlane, startOidcServer, type ControlPlane, type OidcServer } from "./support/harness";

let cp: ControlPlane & { database: { drop(): Promise<void> } };
let oidc: OidcServer;
const SLUGS = ["post", "basic", "public-pkce", "post-pkce", "public-nopkce", "openid"];

beforeAll(async () => {
  cp = await startControlPlane();
  const redirect_uris = SLUGS.map((slug) => `${cp.url}/v2/auth/callback/${slug}`);
  oidc = await startOidcServer([
    {
      client_id: "post-client",
      client_secret: "post-secret-value-123",
      token_endpoint_auth_method: "client_secret_post",
      redirect_uris,
    },
    {
      client_id: "basic-client",
      client_secret: "basic-secret:with/odd+chars",
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

function createProvider(key: string, body: Record<string, unknown>) {
  return request(cp.app)
    .post("/v2/auth/providers")
    .set("X-Api-Key", key)
    .send({ name: "Test", auth_url: `${oidc.issuer}/auth`, token_url: `${oidc.issuer}/token`, ...body });
}

test("the whole flow: authenticate -> provider log-in and consent -> callback -> frontend page -> wait", async () => {
  const created = await createProvider(cp.keyA, {
    provider_id: "post",
    client_id: "post-client",
    client_secret: "post-secret-value-123",
  });
  expect(created.status).toBe(201);
  const started = await request(cp.app)
    .post("/v2/auth/authenticate")
    .set("X-Api-Key", cp.keyA)
    .send({ provider: "post", scopes: ["repo"], user_id: "u1" });
  expect(started.status).toBe(200);
  console.log(started.body);
  const browser = new Browser();
  const callback = await browser.authorize(started.body.url, `${cp.url}/v2/auth/callback/`);
  console.log(callback);
  const landed = await browser.request(callback);
  console.log(landed.status, landed.headers.get("location"));
  const waited = await request(cp.app).get(`/v2/auth/wait/${started.body.auth_id}?timeout=1`).set("X-Api-Key", cp.keyA);
  console.log(waited.body);
});
