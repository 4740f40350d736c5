// Rotating SECRETS_ENCRYPTION_KEY on one database, as an operator does it: everything written under
// key A (OAuth client secrets, a token and its refresh token, a PKCE verifier in flight, deployment
// and revision secrets, upload URLs and registry push tokens signed with it); the control plane
// started again with B current and A old reads and uses all of it; `npm run secrets:rotate` moves
// every ciphertext to B and says none needs A any more; started with B alone, everything still
// works, and what A signed (URLs, tokens: nothing stored) is refused from then on.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "pg";
import request from "supertest";
import { generateKey, SecretCipher } from "../../src/secrets/cipher";
import { createTenantKey } from "../../src/tenants/api-keys";
import { Browser, startOidcServer, type OidcServer } from "../oauth/support/harness";
import { tokenKeyPair } from "../registry/registry-server";
import { connect, ControlPlaneOnOneDatabase, npmRotate, rotateEnv, storedCiphertexts, type Served } from "./support";

const KEY_A = generateKey();
// Hex, the other form the variable takes.
const KEY_B = Buffer.from(generateKey(), "base64").toString("hex");
const CLIENT_SECRET = "rotation-client-secret-4711";
const DEPLOYMENT_SECRET = "sk-rotation-deployment-secret";

let work: string;
let oidc: OidcServer;
let cp: ControlPlaneOnOneDatabase;
let sql: Client;
let apiKey: string;
let tarball: Buffer;
const EXAMPLES = path.resolve(__dirname, "../../../../examples");

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "lgp-rotation-"));
  const { keyFile } = tokenKeyPair(work);
  execFileSync("tar", ["-czf", path.join(work, "project.tar.gz"), "-C", EXAMPLES, "langgraph.json"]);
  tarball = readFileSync(path.join(work, "project.tar.gz"));
  cp = await ControlPlaneOnOneDatabase.start({
    OAUTH_ALLOW_HTTP_LOOPBACK: "true",
    UPLOADS_DIR: path.join(work, "uploads"),
    // Push tokens are issued and checked here; no registry needs to run for that.
    REGISTRY_URL: "127.0.0.1:9",
    REGISTRY_TOKEN_KEY_FILE: keyFile,
  });
  oidc = await startOidcServer([
    {
      client_id: "rotation-client",
      client_secret: CLIENT_SECRET,
      token_endpoint_auth_method: "client_secret_post",
      redirect_uris: ["rot", "rot-pkce"].map((slug) => `${cp.url}/v2/auth/callback/${slug}`),
    },
  ]);
  sql = await connect(cp.database.url);
});

afterAll(async () => {
  await sql?.end();
  await oidc?.stop();
  await cp?.close();
  rmSync(work, { recursive: true, force: true });
});

const api = () => ({
  get: (route: string) => request(cp.url).get(route).set("X-Api-Key", apiKey),
  post: (route: string) => request(cp.url).post(route).set("X-Api-Key", apiKey),
  patch: (route: string) => request(cp.url).patch(route).set("X-Api-Key", apiKey),
});

async function completeInBrowser(url: string): Promise<void> {
  const browser = new Browser();
  const callback = await browser.authorize(url, `${cp.url}/v2/auth/callback/`);
  expect((await browser.request(callback)).status).toBe(303);
}

async function waitForToken(authId: string): Promise<string> {
  const done = await api().get(`/v2/auth/wait/${authId}?timeout=5`);
  expect(done.body).toMatchObject({ status: "completed", token: expect.any(String) });
  return done.body.token as string;
}

const userinfo = (token: string) =>
  fetch(`${oidc.issuer}/me`, { headers: { authorization: `Bearer ${token}` } }).then((answer) => answer.status);

/** The stored token, made to expire (in the database: no sleeping), then read: it is refreshed. */
async function refreshedToken(previous: string): Promise<string> {
  await sql.query("UPDATE oauth_tokens SET expires_at = now() - interval '1 minute'");
  const listed = await api().get("/v2/auth/tokens?provider_id=rot");
  expect(listed.status).toBe(200);
  const token = listed.body[0].access_token as string;
  expect(token).not.toBe(previous);
  expect(Date.parse(listed.body[0].expires_at)).toBeGreaterThan(Date.now());
  expect(await userinfo(token)).toBe(200);
  return token;
}

const basic = (password: string) => `Basic ${Buffer.from(`oauth2accesstoken:${password}`).toString("base64")}`;
const registryToken = (deploymentId: string, pushToken: string) =>
  request(cp.url)
    .get("/registry/token")
    .query({ service: "lgp-registry", scope: `repository:deployments/${deploymentId}/agent:push` })
    .set("Authorization", basic(pushToken));

/** PUTs a small project tarball (examples/langgraph.json) to an upload URL. */
const uploadTo = (uploadUrl: string) =>
  request(cp.url).put(new URL(uploadUrl).pathname).set("Content-Type", "application/gzip").send(tarball);

/** Every stored ciphertext, opened by `cipher`: which key each needs, and its plain value. */
async function openAll(cipher: SecretCipher) {
  return (await storedCiphertexts(sql)).map((found) => ({ ...found, ...cipher.open(found.value) }));
}

test("key A's data is read with B current and A old, rotated to B, then read with B alone", async () => {
  // Under key A.
  let served: Served = await cp.serve({ SECRETS_ENCRYPTION_KEY: KEY_A });
  apiKey = (await createTenantKey(served.db, "tenant-a")).apiKey;
  for (const [slug, pkce] of [
    ["rot", false],
    ["rot-pkce", true],
  ] as const) {
    const created = await api()
      .post("/v2/auth/providers")
      .send({
        provider_id: slug,
        name: slug,
        auth_url: `${oidc.issuer}/auth`,
        token_url: `${oidc.issuer}/token`,
        client_id: "rotation-client",
        client_secret: CLIENT_SECRET,
        token_endpoint_auth_method: "client_secret_post",
        uses_pkce: pkce,
      });
    expect(created.status).toBe(201);
  }
  const first = await api()
    .post("/v2/auth/authenticate")
    .send({ provider: "rot", scopes: ["openid"], user_id: "u1" });
  await completeInBrowser(first.body.url);
  const tokenA = await waitForToken(first.body.auth_id);
  // A flow in flight across the restarts: its PKCE verifier is stored under A.
  const inFlight = await api()
    .post("/v2/auth/authenticate")
    .send({ provider: "rot-pkce", scopes: ["openid"], user_id: "u2" });
  expect(inFlight.body.status).toBe("pending");

  // Created with an Idempotency-Key: its answer (with the deployment's API key) is kept, encrypted.
  const createSource = () =>
    api()
      .post("/v2/deployments")
      .set("Idempotency-Key", "create-with-secrets")
      .send({
        name: "with-secrets",
        source: "internal_source",
        source_config: { deployment_type: "dev" },
        source_revision_config: { langgraph_config_path: "langgraph.json" },
        secrets: [{ name: "OPENAI_API_KEY", value: DEPLOYMENT_SECRET }],
      });
  const source = await createSource();
  expect(source.status).toBe(201);
  const repeated = async () => {
    const again = await createSource();
    expect([again.status, again.body]).toEqual([201, source.body]);
  };
  const uploadUrls = await Promise.all(
    [1, 2].map(
      async () => (await api().post(`/v2/deployments/${source.body.id}/upload-url`)).body.upload_url as string,
    ),
  );
  const image = await api()
    .post("/v2/deployments")
    .send({
      name: "image",
      source: "internal_docker",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
    });
  const pushTokenA = (await api().post(`/v2/deployments/${image.body.id}/push-token`)).body.token as string;
  expect((await registryToken(image.body.id, pushTokenA)).status).toBe(200);

  const underA = await openAll(SecretCipher.fromEncodedKey(KEY_A));
  expect(underA.map((found) => found.plain)).toEqual(
    expect.arrayContaining([CLIENT_SECRET, DEPLOYMENT_SECRET, tokenA]),
  );
  // Key B alone cannot read A's data: that is what the old keys are for.
  for (const { value } of underA) expect(() => SecretCipher.fromEncodedKey(KEY_B).decrypt(value)).toThrow();

  // Started again with B current and A old: everything A wrote is read and used.
  served = await cp.serve({ SECRETS_ENCRYPTION_KEY: KEY_B, SECRETS_ENCRYPTION_OLD_KEYS: KEY_A });
  const listed = await api().get("/v2/auth/tokens?provider_id=rot");
  expect(listed.body[0].access_token).toBe(tokenA);
  // A refresh sends A's refresh token and A's client secret to the provider; its answer is stored under B.
  const tokenB = await refreshedToken(tokenA);
  // The flow started under A ends under B: its verifier and client secret reach the provider.
  await completeInBrowser(inFlight.body.url);
  expect(await userinfo(await waitForToken(inFlight.body.auth_id))).toBe(200);
  await repeated();
  // What A signed keeps working while A is an old key.
  const uploaded = await uploadTo(uploadUrls[0]!);
  expect(uploaded.status).toBe(200);
  expect((await registryToken(image.body.id, pushTokenA)).status).toBe(200);
  // The upload's revision copies the deployment's secrets as stored: still under A.
  const patched = await api()
    .patch(`/v2/deployments/${source.body.id}`)
    .send({
      source_revision_config: {
        source_tarball_path: uploaded.body.object_path,
        langgraph_config_path: "langgraph.json",
      },
    });
  expect(patched.status).toBe(200);
  expect(patched.body.latest_revision_id).toEqual(expect.any(String));

  const ring = SecretCipher.fromConfig(served.config);
  const before = await openAll(ring);
  expect(before.filter((found) => found.key === 1).length).toBeGreaterThan(0);
  expect(before.filter((found) => found.key === 0).length).toBeGreaterThan(0);
  for (const table of ["deployments", "revisions"]) {
    const secrets = before.filter((found) => found.where.startsWith(`${table} `));
    expect(secrets.map(({ plain, key }) => [plain, key])).toEqual([[DEPLOYMENT_SECRET, 1]]);
  }
  const { rows: stamps } = await sql.query("SELECT id, updated_at FROM deployments ORDER BY id");

  // The operator asks what still needs A, then rotates.
  const env = rotateEnv(cp.database.url, KEY_B, [KEY_A]);
  const check = await npmRotate(["--check"], env);
  const needA = before.filter((found) => found.key === 1).length;
  expect(check.stdout).toContain(`${needA} of ${before.length} ciphertexts still need an old key`);
  expect(check.code).toBe(1);
  const rotated = await npmRotate([], env);
  expect(rotated.code).toBe(0);
  expect(rotated.stdout).toMatch(/^deployments: 1\/1 rows, 1 ciphertexts re-encrypted$/m);
  expect(rotated.stdout).toMatch(/^revisions: 1\/1 rows, 1 ciphertexts re-encrypted$/m);
  expect(rotated.stdout).toMatch(/^oauth_tokens: \d+\/\d+ rows, \d+ ciphertexts re-encrypted$/m);
  expect(rotated.stdout).toMatch(/^idempotency_keys: 1\/1 rows, 1 ciphertexts re-encrypted$/m);
  expect(rotated.stdout).toContain(`re-encrypted ${needA} ciphertexts`);
  expect(rotated.stdout).toContain(`0 of ${before.length} ciphertexts still need an old key`);
  // Neither key nor any plain value reaches the command's output.
  for (const secret of [KEY_A, KEY_B, CLIENT_SECRET, DEPLOYMENT_SECRET, tokenA, tokenB])
    expect(check.stdout + rotated.stdout + rotated.stderr).not.toContain(secret);

  const after = await openAll(SecretCipher.fromEncodedKey(KEY_B));
  expect(after.map(({ where, plain }) => [where, plain])).toEqual(before.map(({ where, plain }) => [where, plain]));
  // Rotation changes no value: the API's compare-and-swap on updated_at is not disturbed by it.
  expect((await sql.query("SELECT id, updated_at FROM deployments ORDER BY id")).rows).toEqual(stamps);
  // Run again: nothing to do.
  const again = await npmRotate([], env);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain("re-encrypted 0 ciphertexts in 0 rows");

  // Started with B alone: everything still reads; what A signed is refused from now on.
  await cp.serve({ SECRETS_ENCRYPTION_KEY: KEY_B });
  expect((await api().get("/v2/auth/tokens?provider_id=rot")).body[0].access_token).toBe(tokenB);
  await refreshedToken(tokenB);
  await repeated();
  expect((await uploadTo(uploadUrls[1]!)).status).toBe(403);
  expect((await registryToken(image.body.id, pushTokenA)).status).toBe(401);
  const pushTokenB = (await api().post(`/v2/deployments/${image.body.id}/push-token`)).body.token as string;
  expect((await registryToken(image.body.id, pushTokenB)).status).toBe(200);
  const fresh = (await api().post(`/v2/deployments/${source.body.id}/upload-url`)).body.upload_url as string;
  expect((await uploadTo(fresh)).status).toBe(200);
  expect((await npmRotate(["--check"], rotateEnv(cp.database.url, KEY_B))).code).toBe(0);
}, 120_000);
