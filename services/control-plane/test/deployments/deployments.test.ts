import { createHash, randomUUID } from "node:crypto";
import { SECRET_MASK } from "../../src/deployments/model";
import { CURSOR_BASE } from "../../src/deployments/paging";
import { dockerBody, sourceBody, startHarness, type Harness } from "./harness";

// No reconciler runs in this file: revisions stay CREATING and deletions stay AWAITING_DELETE,
// which is what lets the API's own rules be checked in isolation.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function create(body: Record<string, unknown>) {
  const res = await h.api.post("/v2/deployments").send(body);
  expect(res.status).toBe(201);
  return res.body;
}

/** A listener of the tenant: a deployment naming a listener_id must be placed in one of its namespaces. */
async function listener(computeId: string, namespaces: string[]): Promise<string> {
  const res = await h.api
    .post("/v2/listeners")
    .send({ compute_type: "k8s", compute_id: computeId, compute_config: { k8s_namespaces: namespaces } });
  expect(res.status).toBe(201);
  return res.body.id;
}

function expect422(
  res: { status: number; body: { detail: { loc: unknown[]; msg: string }[] } },
  loc: unknown[],
  text?: RegExp,
) {
  expect(res.status).toBe(422);
  expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
  if (text) expect(res.body.detail.find((item) => JSON.stringify(item.loc) === JSON.stringify(loc))!.msg).toMatch(text);
}

describe("create and read", () => {
  it("answers 201 with the deployment, its first revision, both config path names and masked secrets", async () => {
    const body = await create(sourceBody("create-read"));
    expect(body).toMatchObject({
      name: "create-read",
      source: "internal_source",
      tenant_id: h.tenantId,
      status: "AWAITING_DATABASE",
      active_revision_id: null,
      source_revision_config: {
        langgraph_config_path: "langgraph.json",
        graph_config_path: "langgraph.json",
        repo_ref: "main",
      },
      secrets: [{ name: "OPENAI_API_KEY", value: SECRET_MASK }],
    });
    expect(body.latest_revision_id).toEqual(expect.any(String));
    const { api_key: apiKey, ...shown } = body;
    expect(apiKey).toMatch(/^lgp_[0-9a-f]{40}$/);
    expect(shown.api_key_prefix).toBe(apiKey.slice(0, 12));
    // The key is in the create answer only.
    const read = await h.api.get(`/v2/deployments/${body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(shown);
    const revision = await h.api.get(`/v2/deployments/${body.id}/revisions/${body.latest_revision_id}`);
    expect(revision.status).toBe(200);
    expect(revision.body).toMatchObject({ id: body.latest_revision_id, status: "CREATING", source: "internal_source" });
  });

  it("stores secrets encrypted, never in plain text", async () => {
    const body = await create(sourceBody("secret-at-rest"));
    const [row] = await h.db.$queryRaw<{ secrets: { name: string; value: string }[] }[]>`
      SELECT secrets FROM deployments WHERE id = ${body.id}::uuid`;
    expect(JSON.stringify(row.secrets)).not.toContain("sk-plain-value");
    expect(h.cipher.decrypt(row.secrets[0].value)).toBe("sk-plain-value");
    const [revision] = await h.db.$queryRaw<
      { secrets: unknown }[]
    >`SELECT secrets FROM revisions WHERE deployment_id = ${body.id}::uuid`;
    expect(JSON.stringify(revision.secrets)).not.toContain("sk-plain-value");
  });

  it("keeps the runtime's key as its hash only: no row, listing or log-free read shows the key", async () => {
    const body = await create(dockerBody("key-at-rest"));
    const [row] = await h.db.$queryRaw<{ hash: string; everything: string }[]>`
      SELECT runtime_key_hash AS hash, row_to_json(d)::text AS everything FROM deployments d WHERE id = ${body.id}::uuid`;
    expect(row.hash).toBe(`sha256:${createHash("sha256").update(body.api_key).digest("hex")}`);
    expect(row.everything).not.toContain(body.api_key);
    const [revisions] = await h.db.$queryRaw<{ everything: string }[]>`
      SELECT json_agg(r)::text AS everything FROM revisions r WHERE deployment_id = ${body.id}::uuid`;
    expect(revisions.everything).not.toContain(body.api_key);
    const listed = await h.api.get(`/v2/deployments?deployment_ids=${body.id}`);
    expect(JSON.stringify(listed.body)).not.toContain(body.api_key);
    expect(listed.body.resources[0].api_key_prefix).toBe(body.api_key_prefix);
    // Two deployments never share a key.
    expect((await create(dockerBody("key-at-rest-2"))).api_key).not.toBe(body.api_key);
  });

  it("accepts graph_config_path alone and returns both names", async () => {
    const body = await create(
      sourceBody("graph-path", { source_revision_config: { repo_ref: "main", graph_config_path: "x/langgraph.json" } }),
    );
    expect(body.source_revision_config).toMatchObject({
      langgraph_config_path: "x/langgraph.json",
      graph_config_path: "x/langgraph.json",
    });
  });

  it("answers 404 naming the id for an unknown deployment, 422 for a malformed one", async () => {
    const id = randomUUID();
    const res = await h.api.get(`/v2/deployments/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Deployment ${id} not found` });
    expect422(await h.api.get("/v2/deployments/not-a-uuid"), ["path", "deployment_id"]);
    expect((await h.api.patch(`/v2/deployments/${id}`).send({})).status).toBe(404);
    expect((await h.api.delete(`/v2/deployments/${id}`)).status).toBe(404);
  });

  it("answers 401 without a key or with an unknown key", async () => {
    const missing = await h.raw.get("/v2/deployments");
    expect(missing.status).toBe(401);
    expect(missing.body.detail).toEqual(expect.any(String));
    expect((await h.raw.get("/v2/deployments").set("X-Api-Key", "lgp_unknown")).status).toBe(401);
    expect((await h.raw.post("/v2/deployments").send(sourceBody("nokey"))).status).toBe(401);
  });

  it("answers 409 for a duplicate name", async () => {
    await create(dockerBody("dup-name"));
    const again = await h.api.post("/v2/deployments").send(dockerBody("dup-name"));
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/dup-name/);
  });
});

describe("validation (422)", () => {
  it.each([
    ["a name outside [a-z0-9-]", sourceBody("Bad_Name"), ["body", "name"]],
    ["an empty name", sourceBody(""), ["body", "name"]],
    ["an unknown source", sourceBody("x", { source: "ftp" }), ["body", "source"]],
    ["a missing source_config", { ...sourceBody("x"), source_config: undefined }, ["body", "source_config"]],
    [
      "a cpu above the bound",
      sourceBody("x", { source_config: { repo_url: "/r", resource_spec: { cpu: 9 } } }),
      ["body", "source_config", "resource_spec", "cpu"],
    ],
    [
      "a cpu below the bound",
      sourceBody("x", { source_config: { repo_url: "/r", resource_spec: { cpu: 0.01 } } }),
      ["body", "source_config", "resource_spec", "cpu"],
    ],
    [
      "a string cpu",
      sourceBody("x", { source_config: { repo_url: "/r", resource_spec: { cpu: "lots" } } }),
      ["body", "source_config", "resource_spec", "cpu"],
    ],
    [
      "a cpu_limit above 16",
      sourceBody("x", { source_config: { repo_url: "/r", resource_spec: { cpu_limit: 17 } } }),
      ["body", "source_config", "resource_spec", "cpu_limit"],
    ],
    [
      "a fractional memory_mb",
      sourceBody("x", { source_config: { repo_url: "/r", resource_spec: { memory_mb: 512.5 } } }),
      ["body", "source_config", "resource_spec", "memory_mb"],
    ],
    [
      "a bad deployment_type",
      sourceBody("x", { source_config: { repo_url: "/r", deployment_type: "huge" } }),
      ["body", "source_config", "deployment_type"],
    ],
    ["a bad secret name", sourceBody("x", { secrets: [{ name: "1BAD", value: "v" }] }), ["body", "secrets", 0, "name"]],
  ])("refuses %s", async (_case, body, loc) => {
    expect422(await h.api.post("/v2/deployments").send(body), loc);
  });

  it.each([
    [
      "internal_source without a config path",
      sourceBody("r1", { source_revision_config: { repo_ref: "main" } }),
      ["body", "source_revision_config", "langgraph_config_path"],
      /langgraph_config_path/,
    ],
    [
      "github without a config path",
      { ...sourceBody("r2", { source: "github" }), source_revision_config: { repo_ref: "main" } },
      ["body", "source_revision_config", "langgraph_config_path"],
      /required for source github/,
    ],
    [
      "github without repo_url",
      sourceBody("r3", { source: "github", source_config: {} }),
      ["body", "source_config", "repo_url"],
      /repo_url/,
    ],
    [
      "a docker source without image_uri",
      dockerBody("r5", { source_revision_config: {} }),
      ["body", "source_revision_config", "image_uri"],
      /image_uri/,
    ],
    [
      "a docker source with a config path",
      dockerBody("r6", { source_revision_config: { image_uri: "i", langgraph_config_path: "l.json" } }),
      ["body", "source_revision_config", "langgraph_config_path"],
      /must be null/,
    ],
    [
      "custom_url on internal_docker",
      dockerBody("r7", { source: "internal_docker" }),
      ["body", "source_config", "custom_url"],
      /external_docker/,
    ],
    [
      "custom_url on internal_source",
      sourceBody("r8", { source_config: { repo_url: "/r", custom_url: "http://x" } }),
      ["body", "source_config", "custom_url"],
      /external_docker/,
    ],
    [
      "build_on_push with a tag ref",
      sourceBody("r9", {
        source_config: { repo_url: "/r", build_on_push: true },
        source_revision_config: { repo_ref: "refs/tags/v1", langgraph_config_path: "l.json" },
      }),
      ["body", "source_config", "build_on_push"],
      /build_on_push/,
    ],
    [
      "two different config paths",
      sourceBody("r10", { source_revision_config: { langgraph_config_path: "a.json", graph_config_path: "b.json" } }),
      ["body", "source_revision_config", "graph_config_path"],
      /differ/,
    ],
    [
      "a limit below its request",
      sourceBody("r11", { source_config: { repo_url: "/r", resource_spec: { cpu: 2, cpu_limit: 1 } } }),
      ["body", "source_config", "resource_spec", "cpu_limit"],
      /cpu_limit/,
    ],
    [
      "min_scale above max_scale",
      sourceBody("r12", { source_config: { repo_url: "/r", resource_spec: { min_scale: 3, max_scale: 2 } } }),
      ["body", "source_config", "resource_spec", "max_scale"],
      /max_scale/,
    ],
    [
      "a duplicate secret name",
      sourceBody("r13", {
        secrets: [
          { name: "A", value: "1" },
          { name: "A", value: "2" },
        ],
      }),
      ["body", "secrets", 1, "name"],
      /duplicate/,
    ],
    [
      "a masked secret on create",
      sourceBody("r14", { secrets: [{ name: "A", value: SECRET_MASK }] }),
      ["body", "secrets", 0, "value"],
      /masked/,
    ],
  ])("refuses %s with a message naming the field", async (_case, body, loc, text) => {
    expect422(await h.api.post("/v2/deployments").send(body), loc, text);
  });

  it.each([
    ["limit=0", ["query", "limit"]],
    ["limit=101", ["query", "limit"]],
    ["limit=ten", ["query", "limit"]],
    ["offset=-1", ["query", "offset"]],
    ["status=RUNNING", ["query", "status"]],
    ["deployment_type=big", ["query", "deployment_type"]],
    ["deployment_ids=abc", ["query", "deployment_ids"]],
    ["tag_value_ids=1,2", ["query", "tag_value_ids"]],
    ["remote_reconciled=maybe", ["query", "remote_reconciled"]],
  ])("refuses GET /v2/deployments?%s", async (query, loc) => {
    expect422(await h.api.get(`/v2/deployments?${query}`), loc);
  });

  it("refuses malformed JSON with a 422", async () => {
    const res = await h.api.post("/v2/deployments").set("Content-Type", "application/json").send("{nope");
    expect(res.status).toBe(422);
  });
});

describe("PATCH", () => {
  it("refuses each immutable field with a message naming it, and accepts the same value back", async () => {
    const body = await create(
      sourceBody("immutable", {
        source_config: {
          repo_url: "/r",
          deployment_type: "dev",
          integration_id: randomUUID(),
          listener_id: await listener("immutable-cluster", ["ns", "other"]),
          listener_config: { k8s_namespace: "ns" },
        },
      }),
    );
    const path = `/v2/deployments/${body.id}`;
    const cases: [Record<string, unknown>, unknown[]][] = [
      [{ name: "renamed" }, ["body", "name"]],
      [{ source: "github" }, ["body", "source"]],
      [{ source_config: { repo_url: "/other" } }, ["body", "source_config", "repo_url"]],
      [{ source_config: { integration_id: randomUUID() } }, ["body", "source_config", "integration_id"]],
      [{ source_config: { deployment_type: "prod" } }, ["body", "source_config", "deployment_type"]],
      [{ source_config: { listener_id: randomUUID() } }, ["body", "source_config", "listener_id"]],
      [
        { source_config: { listener_config: { k8s_namespace: "other" } } },
        ["body", "source_config", "listener_config", "k8s_namespace"],
      ],
    ];
    for (const [patch, loc] of cases) {
      const field = String(loc.at(-1));
      expect422(await h.api.patch(path).send(patch), loc, new RegExp(`${field}.*cannot be changed`));
    }
    const { resource_spec: _spec, ...sameConfig } = body.source_config;
    const same = await h.api
      .patch(path)
      .send({ name: "immutable", source: "internal_source", source_config: sameConfig });
    expect(same.status).toBe(200);
    expect(same.body.latest_revision_id).toBe(body.latest_revision_id);
  });

  it("creates a revision exactly for the fields the reference names", async () => {
    const body = await create(sourceBody("revision-rules"));
    const path = `/v2/deployments/${body.id}`;
    let latest = body.latest_revision_id;
    const cases: [Record<string, unknown>, boolean][] = [
      [{ source_config: { install_command: "npm ci" } }, false],
      [{ source_config: { build_command: "npm run build" } }, false],
      [{ source_config: { build_on_push: true } }, false],
      [{ image_version: "1.2.3" }, false],
      [{}, false],
      [{ source_revision_config: { repo_ref: "dev" } }, true],
      [{ source_revision_config: { langgraph_config_path: "other.json" } }, true],
      [{ source_revision_config: { graph_config_path: "third.json" } }, true],
      [{ source_revision_config: { source_tarball_path: "/src" } }, true],
      [{ secrets: [{ name: "OPENAI_API_KEY", value: SECRET_MASK }] }, true],
      [{ source_config: { resource_spec: { cpu: 1 } } }, true],
    ];
    for (const [patch, createsRevision] of cases) {
      const res = await h.api.patch(path).send(patch);
      expect(res.status).toBe(200);
      if (createsRevision) expect(res.body.latest_revision_id).not.toBe(latest);
      else expect(res.body.latest_revision_id).toBe(latest);
      latest = res.body.latest_revision_id;
    }
    const final = (await h.api.get(path)).body;
    expect(final.source_config).toMatchObject({
      install_command: "npm ci",
      build_command: "npm run build",
      build_on_push: true,
      resource_spec: { cpu: 1 },
    });
    expect(final.source_revision_config).toMatchObject({
      repo_ref: "dev",
      langgraph_config_path: "third.json",
      graph_config_path: "third.json",
    });
    const revisions = (await h.api.get(`${path}/revisions?limit=100`)).body.resources;
    expect(revisions).toHaveLength(7);
    expect(revisions[0].id).toBe(final.latest_revision_id);
    expect(revisions[0].resource_spec).toEqual({ cpu: 1 });
  });

  it("keeps a secret sent back masked, replaces a new value, drops an omitted one", async () => {
    const body = await create(
      sourceBody("secret-patch", {
        secrets: [
          { name: "KEEP", value: "kept-value" },
          { name: "DROP", value: "x" },
        ],
      }),
    );
    const path = `/v2/deployments/${body.id}`;
    const res = await h.api.patch(path).send({
      secrets: [
        { name: "KEEP", value: SECRET_MASK },
        { name: "NEW", value: "new-value" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.secrets).toEqual([
      { name: "KEEP", value: SECRET_MASK },
      { name: "NEW", value: SECRET_MASK },
    ]);
    const [row] = await h.db.$queryRaw<
      { secrets: { name: string; value: string }[] }[]
    >`SELECT secrets FROM deployments WHERE id = ${body.id}::uuid`;
    expect(row.secrets.map((secret) => [secret.name, h.cipher.decrypt(secret.value)])).toEqual([
      ["KEEP", "kept-value"],
      ["NEW", "new-value"],
    ]);
    expect422(
      await h.api.patch(path).send({ secrets: [{ name: "UNKNOWN", value: SECRET_MASK }] }),
      ["body", "secrets", 0, "value"],
      /masked/,
    );
  });

  it("applies the per-source rules to the merged result", async () => {
    const body = await create(dockerBody("docker-patch"));
    const path = `/v2/deployments/${body.id}`;
    expect422(await h.api.patch(path).send({ source_revision_config: { image_uri: null } }), [
      "body",
      "source_revision_config",
      "image_uri",
    ]);
    expect422(await h.api.patch(path).send({ source_revision_config: { langgraph_config_path: "a.json" } }), [
      "body",
      "source_revision_config",
      "langgraph_config_path",
    ]);
    const moved = await h.api.patch(path).send({ source_config: { custom_url: "http://127.0.0.1:10/" } });
    expect(moved.status).toBe(200);
    expect(moved.body.source_config.custom_url).toBe("http://127.0.0.1:10/");
    expect(moved.body.latest_revision_id).toBe(body.latest_revision_id);
    const source = await create(sourceBody("source-patch"));
    expect422(
      await h.api.patch(`/v2/deployments/${source.id}`).send({ source_config: { custom_url: "http://elsewhere" } }),
      ["body", "source_config", "custom_url"],
      /external_docker/,
    );
    expect422(
      await h.api
        .patch(`/v2/deployments/${source.id}`)
        .send({ source_config: { build_on_push: true }, source_revision_config: { repo_ref: "refs/tags/v2" } }),
      ["body", "source_config", "build_on_push"],
    );
  });
});

describe("list", () => {
  const names: string[] = [];
  beforeAll(async () => {
    const placedOn = await listener("page-cluster", ["pages"]);
    for (let i = 0; i < 12; i++) {
      const name = `page-${String(i).padStart(2, "0")}`;
      names.push(name);
      await create(
        dockerBody(name, {
          source_config: {
            custom_url: "http://127.0.0.1:9/",
            deployment_type: i % 3 === 0 ? "prod" : "dev",
            ...(i === 5 ? { listener_id: placedOn, listener_config: { k8s_namespace: "pages" } } : {}),
          },
          image_version: i % 2 === 0 ? "1.0" : "2.0",
        }),
      );
    }
  });

  it("pages newest first with the offset it answers, without repeats or gaps, while rows are inserted", async () => {
    const seen: string[] = [];
    let offset = 0;
    let inserted = 0;
    for (;;) {
      const res = await h.api.get(`/v2/deployments?name_contains=page-&limit=5&offset=${offset}`);
      expect(res.status).toBe(200);
      if (res.body.resources.length === 0) break;
      seen.push(...res.body.resources.map((d: { name: string }) => d.name));
      offset = res.body.offset;
      // Concurrent inserts between pages land before the position and never shift it.
      if (inserted < 2) await create(dockerBody(`page-late-${inserted++}`));
    }
    expect(seen).toEqual([...names].reverse());
    expect(offset).toBeGreaterThanOrEqual(CURSOR_BASE);
  });

  it("honours a plain offset and the default limit of 20", async () => {
    const all = (await h.api.get("/v2/deployments?limit=100")).body.resources;
    expect(all.length).toBeGreaterThan(20);
    expect((await h.api.get("/v2/deployments")).body.resources).toHaveLength(20);
    const skipped = (await h.api.get("/v2/deployments?limit=3&offset=2")).body.resources;
    expect(skipped.map((d: { id: string }) => d.id)).toEqual(all.slice(2, 5).map((d: { id: string }) => d.id));
  });

  it("filters by every parameter", async () => {
    const get = async (query: string) =>
      ((await h.api.get(`/v2/deployments?limit=100&${query}`)).body.resources as { name: string }[])
        .map((d) => d.name)
        .filter((n) => /^page-\d/.test(n));
    expect(await get("name_contains=GE-0")).toEqual(names.slice(0, 10).reverse());
    expect(await get("deployment_type=prod")).toEqual(["page-09", "page-06", "page-03", "page-00"]);
    expect(await get("image_version=2.0")).toHaveLength(6);
    expect(await get("remote_reconciled=true")).toEqual(["page-05"]);
    expect((await get("remote_reconciled=false")).length).toBe(11);
    expect(await get("status=AWAITING_DATABASE")).toHaveLength(12);
    expect(await get("status=READY")).toEqual([]);
    const all = (await h.api.get("/v2/deployments?limit=100&name_contains=page-0")).body.resources as {
      id: string;
      name: string;
    }[];
    expect(await get(`deployment_ids=${all[0].id},${all[3].id}`)).toEqual([all[0].name, all[3].name]);
    // `%` and `_` are literal text in name_contains.
    expect(await get("name_contains=%25")).toEqual([]);
    expect(await get("name_contains=page_0")).toEqual([]);
    // `name` is the whole name (how `langgraph deploy` finds a deployment); an empty
    // name_contains (what `langgraph deploy list` sends without a filter) matches every name.
    expect(await get("name=page-03")).toEqual(["page-03"]);
    expect(await get("name=page-0")).toEqual([]);
    expect(await get("name_contains=")).toHaveLength(12);
  });

  it("filters by tag value ids", async () => {
    const tag = randomUUID();
    const tagged = await create(dockerBody("tagged", { tag_value_ids: [tag] }));
    const res = await h.api.get(`/v2/deployments?tag_value_ids=${randomUUID()},${tag}`);
    expect(res.body.resources.map((d: { id: string }) => d.id)).toEqual([tagged.id]);
  });
});

describe("runtime key rotation", () => {
  async function hashOf(id: string): Promise<string> {
    const [row] = await h.db.$queryRaw<{ hash: string }[]>`
      SELECT runtime_key_hash AS hash FROM deployments WHERE id = ${id}::uuid`;
    return row.hash;
  }

  it("answers a new key once and redeploys the latest configuration as a new revision", async () => {
    const body = await create(
      sourceBody("rotate-source", { source_config: { repo_url: "file:///nowhere", resource_spec: { cpu: 2 } } }),
    );
    const rotated = await h.api.post(`/v2/deployments/${body.id}/api-key`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.api_key).toMatch(/^lgp_[0-9a-f]{40}$/);
    expect(rotated.body.api_key).not.toBe(body.api_key);
    expect(rotated.body.api_key_prefix).toBe(rotated.body.api_key.slice(0, 12));
    expect(await hashOf(body.id)).toBe(`sha256:${createHash("sha256").update(rotated.body.api_key).digest("hex")}`);
    // The revision that applies the key has the same configuration as the one before it.
    expect(rotated.body.latest_revision_id).not.toBe(body.latest_revision_id);
    const [before, after] = await Promise.all(
      [body.latest_revision_id, rotated.body.latest_revision_id].map(
        async (revision) => (await h.api.get(`/v2/deployments/${body.id}/revisions/${revision}`)).body,
      ),
    );
    expect(after.source_revision_config).toEqual(before.source_revision_config);
    expect(after.status).toBe("CREATING");
    expect(rotated.body).toMatchObject({ source_config: body.source_config, secrets: body.secrets });
    expect((await h.api.get(`/v2/deployments/${body.id}`)).body).not.toHaveProperty("api_key");
  });

  it("only records the new hash for an external runtime, which this control plane does not run", async () => {
    const body = await create(dockerBody("rotate-external"));
    const rotated = await h.api.post(`/v2/deployments/${body.id}/api-key`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.latest_revision_id).toBe(body.latest_revision_id);
    expect(await hashOf(body.id)).toBe(`sha256:${createHash("sha256").update(rotated.body.api_key).digest("hex")}`);
  });

  it("answers 404 for an unknown deployment, 422 for a malformed id, 409 while it is being deleted", async () => {
    const missing = randomUUID();
    expect((await h.api.post(`/v2/deployments/${missing}/api-key`)).body).toEqual({
      detail: `Deployment ${missing} not found`,
    });
    const malformed = await h.api.post("/v2/deployments/not-a-uuid/api-key");
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(["path", "deployment_id"]);
    const body = await create(dockerBody("rotate-deleting"));
    const hash = await hashOf(body.id);
    await h.api.delete(`/v2/deployments/${body.id}`);
    expect((await h.api.post(`/v2/deployments/${body.id}/api-key`)).status).toBe(409);
    expect(await hashOf(body.id)).toBe(hash);
  });
});

describe("delete", () => {
  it("answers 204 and the deployment is AWAITING_DELETE until the reconciler removes it", async () => {
    const body = await create(dockerBody("to-delete"));
    const res = await h.api.delete(`/v2/deployments/${body.id}`);
    expect(res.status).toBe(204);
    const read = await h.api.get(`/v2/deployments/${body.id}`);
    expect(read.body.status).toBe("AWAITING_DELETE");
    const patch = await h.api.patch(`/v2/deployments/${body.id}`).send({ source_config: { install_command: "x" } });
    expect(patch.status).toBe(409);
    expect((await h.api.post(`/v2/deployments/${body.id}/revisions/${body.latest_revision_id}/redeploy`)).status).toBe(
      409,
    );
  });

  it("deletes several: 200 when all were deleted, 207 with a result per id otherwise", async () => {
    const a = await create(dockerBody("bulk-a"));
    const b = await create(dockerBody("bulk-b"));
    const all = await h.api.delete(`/v2/deployments?deployment_ids=${a.id},${b.id}`);
    expect(all.status).toBe(200);
    expect(all.body.results).toEqual([
      { deployment_id: a.id, status: 204, detail: null },
      { deployment_id: b.id, status: 204, detail: null },
    ]);
    const c = await create(dockerBody("bulk-c"));
    const missing = randomUUID();
    const partial = await h.api.delete(`/v2/deployments?deployment_ids=${c.id},${missing}`);
    expect(partial.status).toBe(207);
    expect(partial.body.results).toEqual([
      { deployment_id: c.id, status: 204, detail: null },
      { deployment_id: missing, status: 404, detail: `Deployment ${missing} not found` },
    ]);
    const tooMany = Array.from({ length: 101 }, () => randomUUID()).join(",");
    expect422(await h.api.delete(`/v2/deployments?deployment_ids=${tooMany}`), ["query", "deployment_ids"]);
    expect422(await h.api.delete("/v2/deployments"), ["query", "deployment_ids"]);
  });
});

describe("deployments the official CLI creates before their upload or image (langgraph deploy)", () => {
  const revisionsOf = async (id: string) => (await h.api.get(`/v2/deployments/${id}/revisions`)).body.resources;

  it("creates an internal_source deployment with no revision, and starts one when the PATCH names the upload", async () => {
    const created = await h.api.post("/v2/deployments").send({
      name: "cli-source",
      source: "internal_source",
      source_config: { deployment_type: "dev" },
      source_revision_config: {},
      secrets: [{ name: "OPENAI_API_KEY", value: "sk-cli" }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      latest_revision_id: null,
      active_revision_id: null,
      status: "AWAITING_DATABASE",
    });
    expect(created.body.api_key).toMatch(/^lgp_/);
    expect(await revisionsOf(created.body.id)).toEqual([]);
    // Without the config path the revision cannot build: refused, and still no revision.
    const noPath = await h.api.patch(`/v2/deployments/${created.body.id}`).send({
      revision_source: "internal_source",
      source_revision_config: { source_tarball_path: "/uploads/cli-source.tar.gz" },
    });
    expect422(noPath, ["body", "source_revision_config", "langgraph_config_path"]);
    const patched = await h.api.patch(`/v2/deployments/${created.body.id}`).send({
      revision_source: "internal_source",
      source_revision_config: {
        source_tarball_path: "/uploads/cli-source.tar.gz",
        langgraph_config_path: "langgraph.json",
      },
      source_config: { install_command: "npm ci" },
      tracked_packages: ["@langchain/langgraph"],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.latest_revision_id).toEqual(expect.any(String));
    const [revision] = await revisionsOf(created.body.id);
    expect(revision).toMatchObject({
      id: patched.body.latest_revision_id,
      source: "internal_source",
      source_revision_config: {
        source_tarball_path: "/uploads/cli-source.tar.gz",
        langgraph_config_path: "langgraph.json",
      },
    });
  });

  it("creates an internal_docker deployment with no revision; a PATCH without the image keeps it so, one with it starts the revision", async () => {
    const created = await h.api.post("/v2/deployments").send({
      name: "cli-image",
      source: "internal_docker",
      source_config: {},
      source_revision_config: {},
    });
    expect(created.status).toBe(201);
    expect(created.body.latest_revision_id).toBeNull();
    const id = created.body.id;
    const secretsOnly = await h.api.patch(`/v2/deployments/${id}`).send({ secrets: [{ name: "TOKEN", value: "t" }] });
    expect(secretsOnly.status).toBe(200);
    expect(secretsOnly.body.latest_revision_id).toBeNull();
    expect422(
      await h.api
        .patch(`/v2/deployments/${id}`)
        .send({ revision_source: "internal_source", source_revision_config: { image_uri: "registry.local/cli:1" } }),
      ["body", "revision_source"],
      /does not match/,
    );
    // No registry here yet: the push token is refused, saying what to do instead.
    const token = await h.api.post(`/v2/deployments/${id}/push-token`);
    expect(token.status).toBe(501);
    expect(token.body.detail).toMatch(/no container registry configured.*PATCH source_revision_config\.image_uri/);
    const pushed = await h.api
      .patch(`/v2/deployments/${id}`)
      .send({ revision_source: "internal_docker", source_revision_config: { image_uri: "registry.local/cli:1" } });
    expect(pushed.status).toBe(200);
    const [revision] = await revisionsOf(id);
    expect(revision).toMatchObject({
      id: pushed.body.latest_revision_id,
      source_revision_config: { image_uri: "registry.local/cli:1" },
    });
  });

  it("refuses a push token for a deployment whose source is not internal_docker (400, the CLI's message)", async () => {
    const source = await h.api.post("/v2/deployments").send(sourceBody("cli-no-push"));
    const refused = await h.api.post(`/v2/deployments/${source.body.id}/push-token`);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain("only available for 'internal_docker' source deployments");
    expect((await h.api.post(`/v2/deployments/${randomUUID()}/push-token`)).status).toBe(404);
  });
});
