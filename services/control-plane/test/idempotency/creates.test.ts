// Idempotent creates on the control plane: deployments, revisions (a PATCH that makes one, a
// redeploy, a key rotation, whose answer is the new key's only copy), listeners and OAuth providers sent twice with one Idempotency-Key are made once and
// answered the same status and body; another body is a 422 naming the header; a repeat of a
// request in flight waits for it; keys are per tenant, expire, and are swept; a kept answer (a
// new deployment's carries its API key) is encrypted at rest.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { controlPlaneIdempotencyStorage } from "../../src/idempotency";
import { createTenantKey } from "../../src/tenants/api-keys";
import { sourceBody, startHarness, type Harness } from "../deployments/harness";

const TTL_SECONDS = 7_200;
let h: Harness;
let otherTenantKey: string;

beforeAll(async () => {
  h = await startHarness({ env: { IDEMPOTENCY_KEY_TTL_SECONDS: String(TTL_SECONDS) } });
  otherTenantKey = (await createTenantKey(h.db, "tenant-b")).apiKey;
});
afterAll(async () => {
  await h?.close();
});

interface Answer {
  status: number;
  body: unknown;
  replayed: boolean;
}

async function send(
  method: "post" | "patch",
  path: string,
  body: object,
  key?: string,
  apiKey = h.apiKey,
): Promise<Answer> {
  let test = h.raw[method](path).set("X-Api-Key", apiKey);
  if (key) test = test.set("Idempotency-Key", key);
  const res = await test.send(body);
  return { status: res.status, body: res.body, replayed: res.headers["idempotent-replayed"] === "true" };
}

const deploymentsNamed = (name: string) => h.db.deployment.count({ where: { name } });
const revisionsOf = (deploymentId: string) => h.db.revision.count({ where: { deploymentId } });

async function newDeployment(): Promise<{ id: string; latest_revision_id: string }> {
  const res = await send("post", "/v2/deployments", sourceBody(`d-${randomUUID().slice(0, 8)}`));
  expect(res.status).toBe(201);
  return res.body as { id: string; latest_revision_id: string };
}

/** Each create: its request, and what counts the resources it makes. */
const creates: {
  name: string;
  request: () => Promise<{
    method: "post" | "patch";
    path: string;
    body: object;
    other: object;
    count: () => Promise<number>;
  }>;
  status: number;
}[] = [
  {
    name: "deployment",
    status: 201,
    request: async () => {
      const name = `d-${randomUUID().slice(0, 8)}`;
      return {
        method: "post",
        path: "/v2/deployments",
        body: sourceBody(name),
        other: sourceBody(`${name}-other`),
        count: () => deploymentsNamed(name),
      };
    },
  },
  {
    name: "revision made by a PATCH",
    status: 200,
    request: async () => {
      const { id } = await newDeployment();
      return {
        method: "patch",
        path: `/v2/deployments/${id}`,
        body: { source_revision_config: { repo_ref: "release" } },
        other: { source_revision_config: { repo_ref: "hotfix" } },
        count: () => revisionsOf(id),
      };
    },
  },
  {
    name: "revision made by a redeploy",
    status: 200,
    request: async () => {
      const { id, latest_revision_id: revision } = await newDeployment();
      return {
        method: "post",
        path: `/v2/deployments/${id}/revisions/${revision}/redeploy`,
        body: {},
        other: { note: "another body" },
        count: () => revisionsOf(id),
      };
    },
  },
  {
    name: "API key rotation",
    status: 200,
    request: async () => {
      const { id } = await newDeployment();
      return {
        method: "post",
        path: `/v2/deployments/${id}/api-key`,
        body: {},
        other: { note: "another body" },
        count: () => revisionsOf(id),
      };
    },
  },
  {
    name: "listener",
    status: 201,
    request: async () => {
      const computeId = `cluster-${randomUUID().slice(0, 8)}`;
      const body = (namespaces: string[]) => ({
        compute_type: "k8s",
        compute_id: computeId,
        compute_config: { k8s_namespaces: namespaces },
      });
      return {
        method: "post",
        path: "/v2/listeners",
        body: body(["team-a"]),
        other: body(["team-b"]),
        count: () => h.db.listener.count({ where: { computeId } }),
      };
    },
  },
  {
    name: "OAuth provider",
    status: 201,
    request: async () => {
      const providerId = `p-${randomUUID().slice(0, 8)}`;
      const body = (name: string) => ({
        provider_id: providerId,
        name,
        client_id: "client",
        client_secret: "a-client-secret",
        auth_url: "https://idp.example.com/auth",
        token_url: "https://idp.example.com/token",
      });
      return {
        method: "post",
        path: "/v2/auth/providers",
        body: body("GitHub"),
        other: body("GitLab"),
        count: () => h.db.oAuthProvider.count({ where: { providerId } }),
      };
    },
  },
];

describe.each(creates)("$name", ({ request, status }) => {
  test("sent twice with one key: made once, the repeat answered the same status and body", async () => {
    const { method, path, body, count } = await request();
    const before = await count();
    const key = randomUUID();
    const first = await send(method, path, body, key);
    expect(first.status).toBe(status);
    expect(await send(method, path, body, key)).toEqual({ ...first, replayed: true });
    expect(await count()).toBe(before + 1);
  });

  test("another body under the same key: a 422 naming the header, and nothing made", async () => {
    const { method, path, body, other, count } = await request();
    const key = randomUUID();
    await send(method, path, body, key);
    const made = await count();
    const refused = await send(method, path, other, key);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      detail: [
        expect.objectContaining({
          loc: ["header", "Idempotency-Key"],
          msg: expect.stringMatching(/different request/),
        }),
      ],
    });
    expect(await count()).toBe(made);
  });

  test("another tenant sending the same key is not answered this tenant's result", async () => {
    const { method, path, body, count } = await request();
    const key = randomUUID();
    const before = await count();
    const mine = await send(method, path, body, key);
    const theirs = await send(method, path, body, key, otherTenantKey);
    expect(theirs.replayed).toBe(false);
    if (path.startsWith("/v2/deployments/")) {
      // A revision of this tenant's deployment: absent for the other tenant, whatever the key.
      expect(theirs.status).toBe(404);
    } else {
      // Made afresh for the other tenant: a resource of its own.
      expect(theirs.status).toBe(status);
      expect((theirs.body as { id: string }).id).not.toBe((mine.body as { id: string }).id);
      expect(await count()).toBe(before + 2);
      expect(await send(method, path, body, key, otherTenantKey)).toEqual({ ...theirs, replayed: true });
    }
    // This tenant's key still answers this tenant's result.
    expect(await send(method, path, body, key)).toEqual({ ...mine, replayed: true });
  });
});

test("a deployment's kept answer holds its API key only encrypted, and the repeat still shows it", async () => {
  const key = randomUUID();
  const body = sourceBody(`d-${randomUUID().slice(0, 8)}`);
  const first = await send("post", "/v2/deployments", body, key);
  const apiKey = (first.body as { api_key: string }).api_key;
  expect(apiKey).toMatch(/^lgp_/);
  const [row] = await h.db.$queryRawUnsafe<{ body: string }[]>("SELECT body FROM idempotency_keys WHERE key = $1", key);
  expect(row!.body).not.toContain(apiKey);
  expect(row!.body).toMatch(/^v\d+:/);
  expect((await send("post", "/v2/deployments", body, key)).body).toEqual(first.body);
});

test("a repeat while the first create is in flight waits for it: one deployment, one answer", async () => {
  const name = `d-${randomUUID().slice(0, 8)}`;
  const key = randomUUID();
  const lock = new pg.Client({ connectionString: h.database.url });
  await lock.connect();
  await lock.query("BEGIN");
  await lock.query("LOCK TABLE deployments IN EXCLUSIVE MODE");
  let settled = 0;
  const first = send("post", "/v2/deployments", sourceBody(name), key).finally(() => (settled += 1));
  const pending = async () =>
    (await lock.query("SELECT 1 FROM idempotency_keys WHERE key = $1 AND state = 'pending'", [key])).rowCount === 1;
  while (!(await pending())) await new Promise((resolve) => setTimeout(resolve, 20));
  const repeat = send("post", "/v2/deployments", sourceBody(name), key).finally(() => (settled += 1));
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(settled).toBe(0);
  await lock.query("COMMIT");
  await lock.end();
  const [a, b] = await Promise.all([first, repeat]);
  expect(a.status).toBe(201);
  expect(b).toEqual({ ...a, replayed: true });
  expect(await deploymentsNamed(name)).toBe(1);
});

test("a key is kept IDEMPOTENCY_KEY_TTL_SECONDS; once expired its request is done afresh; the sweep deletes expired keys", async () => {
  const name = `d-${randomUUID().slice(0, 8)}`;
  const key = randomUUID();
  await send("post", "/v2/deployments", sourceBody(name), key);
  const [row] = await h.db.$queryRawUnsafe<{ ttl: number }[]>(
    "SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM idempotency_keys WHERE key = $1",
    key,
  );
  expect(row!.ttl).toBe(TTL_SECONDS);
  await h.db.$executeRawUnsafe(
    "UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1",
    key,
  );
  // A second deployment of that name is refused by the deployment's own rules (409), not replayed.
  const again = await send("post", "/v2/deployments", sourceBody(name), key);
  expect(again.replayed).toBe(false);
  expect(again.status).toBe(409);
  await h.db.$executeRawUnsafe("UPDATE idempotency_keys SET expires_at = now() - interval '1 second'");
  expect(await controlPlaneIdempotencyStorage(h.db, h.cipher).sweep()).toBeGreaterThanOrEqual(1);
  expect(await h.db.idempotencyKey.count()).toBe(0);
});
