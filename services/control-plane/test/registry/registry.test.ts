// langgraph deploy's image path against a real Docker registry (distribution, token auth pointed at
// this control plane): a deployment with no image, a push token scoped to its repositories, the
// image pushed as docker pushes it, the PATCH naming it, and the kubernetes deployer rolling it out
// with a pull credential of that deployment only. Refusals: another deployment's repositories,
// another tenant, forged, expired and revoked credentials.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { credentialKey, signCredential } from "../../src/registry";
import { signUpload, uploadSigningKey } from "../../src/uploads";
import { createTenantKey } from "../../src/tenants/api-keys";
import { FakeApiServer, writeKubeconfig } from "../kubernetes/fake-apiserver";
import { startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";
import {
  RegistryClient,
  freePort,
  jwtClaims,
  registryAvailable,
  startRegistry,
  tokenKeyPair,
  type RunningRegistry,
} from "./registry-server";

const describeWithRegistry = registryAvailable("the registry test") ? describe : describe.skip;

describeWithRegistry("the control plane's registry tokens, with a real registry", () => {
  const cluster = new FakeApiServer();
  let work: string;
  let h: ReconcilerHarness;
  let registry: RunningRegistry;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), "lgp-registry-test-"));
    const { keyFile, certFile } = tokenKeyPair(work);
    const port = await freePort();
    const server = await cluster.start();
    h = await startReconcilerHarness({
      sweepSeconds: 1,
      env: {
        REGISTRY_URL: `127.0.0.1:${port}`,
        REGISTRY_TOKEN_KEY_FILE: keyFile,
        DEPLOYER: "kubernetes",
        KUBECONFIG: writeKubeconfig(work, server, cluster.token),
        K8S_REDIS_URL: "redis://redis.cluster.test:6379/0",
        K8S_PROGRESS_DEADLINE_SECONDS: "10",
      },
    });
    registry = await startRegistry({
      dir: work,
      port,
      realm: `${h.url}/registry/token`,
      service: "lgp-registry",
      issuer: "lgp-control-plane",
      certFile,
    });
  });
  afterAll(async () => {
    await registry?.close();
    await h?.close();
    await cluster.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** A deployment as `langgraph deploy` creates it before it has an image. */
  async function imageDeployment(name: string): Promise<string> {
    const created = await h.api.post("/v2/deployments").send({
      name,
      source: "internal_docker",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
    });
    expect(created.status).toBe(201);
    expect(created.body.latest_revision_id).toBeNull();
    return created.body.id;
  }

  async function pushToken(deploymentId: string): Promise<{ token: string; registry_url: string }> {
    const answer = await h.api.post(`/v2/deployments/${deploymentId}/push-token`);
    expect(answer.status).toBe(200);
    return answer.body;
  }

  /** The repository path below the registry host, as the registry's API names it. */
  const repository = (registryUrl: string, name: string) => `${registryUrl.slice(registry.host.length + 1)}/${name}`;

  it("pushes with the push token, deploys the pushed image and pulls it with the deployment's own pull credential", async () => {
    const id = await imageDeployment("cli-image");
    const { token, registry_url } = await pushToken(id);
    expect(registry_url).toBe(`${registry.host}/deployments/${id}`);

    const docker = new RegistryClient(registry.url, token);
    const repo = repository(registry_url, "cli-image");
    expect(await docker.push(repo, "v1")).toEqual([202, 201, 202, 201, 201]);
    const claims = jwtClaims(docker.tokens.at(-1)!);
    expect(claims).toMatchObject({
      iss: "lgp-control-plane",
      aud: "lgp-registry",
      sub: `deployment:${id}`,
      access: [{ type: "repository", name: repo, actions: ["pull", "push"] }],
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(300);

    const patched = await h.api.patch(`/v2/deployments/${id}`).send({
      revision_source: "internal_docker",
      source_revision_config: { image_uri: `${registry_url}/cli-image:v1` },
    });
    expect(patched.status).toBe(200);
    const revisionId = patched.body.latest_revision_id;
    await h.waitForRevision(id, revisionId, ["DEPLOYED"], 30_000);
    // What the CLI prints next: the revision's deploy log, through its endpoint, levels in upper case.
    const logs = await h.api
      .post(`/v1/projects/${id}/revisions/${revisionId}/deploy_logs`)
      .send({ limit: 100, order: "desc", level: "info" });
    expect(logs.status).toBe(200);
    const messages = logs.body.logs.map((line: { message: string }) => line.message);
    expect(messages[0]).toMatch(/^status DEPLOYING -> DEPLOYED/);
    expect(messages).toContain(`applied Secret default/cli-image-${id.replace(/-/g, "").slice(0, 8)}-pull`);
    expect(new Set(logs.body.logs.map((line: { level: string }) => line.level))).toEqual(new Set(["INFO"]));

    // The pods pull with a docker config Secret of this deployment, as the kubelet reads it.
    const base = `cli-image-${id.replace(/-/g, "").slice(0, 8)}`;
    const api = cluster.objects.get(`/apis/apps/v1/namespaces/default/deployments/${base}`);
    expect(api.spec.template.spec.imagePullSecrets).toEqual([{ name: `${base}-pull` }]);
    expect(api.spec.template.spec.containers[0].image).toBe(`${registry_url}/cli-image:v1`);
    const secret = cluster.objects.get(`/api/v1/namespaces/default/secrets/${base}-pull`);
    expect(secret.type).toBe("kubernetes.io/dockerconfigjson");
    const config = JSON.parse(Buffer.from(secret.data[".dockerconfigjson"], "base64").toString()) as {
      auths: Record<string, { username: string; password: string; auth: string }>;
    };
    const entry = config.auths[registry.host]!;
    expect(Buffer.from(entry.auth, "base64").toString()).toBe(`${entry.username}:${entry.password}`);

    const kubelet = new RegistryClient(registry.url, entry.password, entry.username);
    const pulled = await kubelet.pullManifest(repo, "v1");
    expect(pulled.status).toBe(200);
    expect(((await pulled.json()) as { layers: unknown[] }).layers).toHaveLength(1);
    // A pull credential pulls and nothing more.
    expect((await kubelet.push(repo, "v2"))[0]).toBe(401);
    expect(jwtClaims(kubelet.tokens.at(-1)!).access).toEqual([{ type: "repository", name: repo, actions: ["pull"] }]);
  });

  it("reaches only its own deployment's repositories", async () => {
    const mine = await imageDeployment("cli-mine");
    const theirs = await imageDeployment("cli-theirs");
    const { token } = await pushToken(mine);
    const { registry_url: theirUrl } = await pushToken(theirs);
    const docker = new RegistryClient(registry.url, token);

    for (const repo of [
      repository(theirUrl, "agent"),
      `deployments/${mine}-x/agent`, // a prefix of its name is not its repository
      "library/agent",
    ]) {
      expect([repo, (await docker.push(repo, "v1"))[0]]).toEqual([repo, 401]);
      expect(jwtClaims(docker.tokens.at(-1)!).access).toEqual([]);
    }
    expect((await docker.pullManifest(repository(theirUrl, "agent"), "v1")).status).toBe(401);
    const catalog = await docker.request("GET", "/v2/_catalog");
    expect(catalog.status).toBe(401);

    // Another tenant cannot ask for a push token of this deployment.
    const other = await createTenantKey(h.db, "tenant-registry-b");
    const refused = await h.raw.post(`/v2/deployments/${mine}/push-token`).set("X-Api-Key", other.apiKey);
    expect(refused.status).toBe(404);
  });

  it("refuses what is not a live credential of a live deployment at the token endpoint", async () => {
    const id = await imageDeployment("cli-refusals");
    const key = credentialKey(h.config.SECRETS_ENCRYPTION_KEY);
    const basic = (password: string) => `Basic ${Buffer.from(`oauth2accesstoken:${password}`).toString("base64")}`;
    const ask = (authorization?: string, service = "lgp-registry") => {
      const request = h.raw.get("/registry/token").query({ service, scope: `repository:deployments/${id}/a:push` });
      return authorization ? request.set("Authorization", authorization) : request;
    };

    const anonymous = await ask();
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers["www-authenticate"]).toBe('Basic realm="lgp-registry"');
    expect((await ask(basic("not-a-token"))).status).toBe(401);
    // A credential signed for another purpose (an upload URL) is not a registry credential.
    const upload = signUpload(
      { deploymentId: id, uploadId: id, expiresAt: Date.now() + 60_000 },
      uploadSigningKey(h.config.SECRETS_ENCRYPTION_KEY),
    );
    expect((await ask(basic(upload))).status).toBe(401);
    const expired = signCredential(
      { tenantId: h.tenantId, deploymentId: id, actions: ["pull", "push"], expiresAt: Date.now() - 1 },
      key,
    );
    const late = await ask(basic(expired));
    expect(late.status).toBe(401);
    expect(late.body.detail).toMatch(/expired.*push-token/);

    const { token } = await pushToken(id);
    expect((await ask(basic(token), "another-registry")).status).toBe(400);
    const granted = await ask(basic(token));
    expect(granted.status).toBe(200);
    expect(granted.headers["cache-control"]).toBe("no-store");
    expect(jwtClaims(granted.body.token).access).toEqual([
      { type: "repository", name: `deployments/${id}/a`, actions: ["push"] },
    ]);

    // Deleting the deployment revokes its push token and pull credentials at once.
    expect((await h.api.delete(`/v2/deployments/${id}`)).status).toBe(204);
    const revoked = await ask(basic(token));
    expect(revoked.status).toBe(401);
    expect(revoked.body.detail).toMatch(/no longer exists/);
  });
});
