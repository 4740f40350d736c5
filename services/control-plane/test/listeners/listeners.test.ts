// Listeners as a resource of the control plane's API: create, read, list (paged), update, delete,
// each scoped to the tenant of the API key, and the 422s of bodies the contract or the rules refuse.
// Placing deployments on listeners (and the 409s that protects) is placement.test.ts.
import { randomUUID } from "node:crypto";
import { CURSOR_BASE } from "../../src/deployments/paging";
import { createTenantKey } from "../../src/tenants/api-keys";
import { startHarness, type Harness } from "../deployments/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function body(computeId: string, namespaces: string[], extra: Record<string, unknown> = {}) {
  return { compute_type: "k8s", compute_id: computeId, compute_config: { k8s_namespaces: namespaces }, ...extra };
}

/** Another tenant, with its own key, speaking to the same control plane. */
async function tenant(name: string) {
  const { apiKey } = await createTenantKey(h.db, name);
  return {
    get: (path: string) => h.raw.get(path).set("X-Api-Key", apiKey),
    post: (path: string) => h.raw.post(path).set("X-Api-Key", apiKey),
    patch: (path: string) => h.raw.patch(path).set("X-Api-Key", apiKey),
    delete: (path: string) => h.raw.delete(path).set("X-Api-Key", apiKey),
  };
}

function expect422(res: { status: number; body: { detail: { loc: unknown[]; msg: string }[] } }, loc: unknown[]) {
  expect(res.status).toBe(422);
  expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
  return res.body.detail.find((item) => JSON.stringify(item.loc) === JSON.stringify(loc))!.msg;
}

describe("create, read, update, delete", () => {
  it("answers 201 with the listener in the hosted API's shape, and reads it back", async () => {
    const created = await h.api.post("/v2/listeners").send(body("cluster-eu", ["team-a", "team-b"], { version: "1" }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      compute_type: "k8s",
      compute_id: "cluster-eu",
      compute_config: { k8s_namespaces: ["team-a", "team-b"] },
      version: "1",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const read = await h.api.get(`/v2/listeners/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    // version is optional: null when not given.
    expect((await h.api.post("/v2/listeners").send(body("cluster-us", ["default"]))).body.version).toBeNull();
  });

  it("updates the version and replaces the namespaces; compute_type and compute_id stay as created", async () => {
    const { id } = (await h.api.post("/v2/listeners").send(body("cluster-patch", ["one"]))).body;
    const path = `/v2/listeners/${id}`;
    const patched = await h.api
      .patch(path)
      .send({ version: "2.0", compute_config: { k8s_namespaces: ["two", "three"] } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ version: "2.0", compute_config: { k8s_namespaces: ["two", "three"] } });
    expect((await h.api.get(path)).body).toEqual(patched.body);

    expect(expect422(await h.api.patch(path).send({ compute_id: "elsewhere" }), ["body", "compute_id"])).toMatch(
      /compute_id cannot be changed/,
    );
    expect(expect422(await h.api.patch(path).send({ compute_type: "ecs" }), ["body", "compute_type"])).toMatch(
      /compute_type cannot be changed/,
    );
    // Sending the current values back is not a change.
    const same = await h.api.patch(path).send({ compute_type: "k8s", compute_id: "cluster-patch" });
    expect(same.status).toBe(200);
    expect(same.body.compute_config.k8s_namespaces).toEqual(["two", "three"]);
  });

  it("deletes with 204, after which the listener is gone (404)", async () => {
    const { id } = (await h.api.post("/v2/listeners").send(body("cluster-gone", ["ns"]))).body;
    expect((await h.api.delete(`/v2/listeners/${id}`)).status).toBe(204);
    for (const res of [
      await h.api.get(`/v2/listeners/${id}`),
      await h.api.patch(`/v2/listeners/${id}`).send({ version: "x" }),
      await h.api.delete(`/v2/listeners/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Listener ${id} not found` });
    }
  });

  it("keeps compute_id unique per tenant: a second listener for the same cluster is a 409", async () => {
    expect((await h.api.post("/v2/listeners").send(body("cluster-twice", ["a"]))).status).toBe(201);
    const again = await h.api.post("/v2/listeners").send(body("cluster-twice", ["b"]));
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe("A listener for compute_id cluster-twice already exists");
  });
});

describe("bodies refused with a 422 naming the field", () => {
  it.each([
    ["a compute type other than k8s", body("c", ["ns"], { compute_type: "ecs" }), ["body", "compute_type"]],
    ["no compute_id", { compute_type: "k8s", compute_config: { k8s_namespaces: ["ns"] } }, ["body", "compute_id"]],
    ["an empty compute_id", body("", ["ns"]), ["body", "compute_id"]],
    ["no compute_config", { compute_type: "k8s", compute_id: "c" }, ["body", "compute_config"]],
    ["no namespaces", body("c", []), ["body", "compute_config", "k8s_namespaces"]],
    ["an upper-case namespace", body("c", ["Team-A"]), ["body", "compute_config", "k8s_namespaces", 0]],
    ["a namespace with _", body("c", ["ok", "team_a"]), ["body", "compute_config", "k8s_namespaces", 1]],
    ["a namespace ending in -", body("c", ["team-"]), ["body", "compute_config", "k8s_namespaces", 0]],
    ["a namespace over 63 characters", body("c", ["n".repeat(64)]), ["body", "compute_config", "k8s_namespaces", 0]],
  ])("%s", async (_case, sent, loc) => {
    expect422(await h.api.post("/v2/listeners").send(sent), loc);
  });

  it("a namespace listed twice, on create and on update", async () => {
    const loc = ["body", "compute_config", "k8s_namespaces", 2];
    const twice = { k8s_namespaces: ["a", "b", "a"] };
    expect(expect422(await h.api.post("/v2/listeners").send(body("c", twice.k8s_namespaces)), loc)).toBe(
      "namespace a is listed twice",
    );
    const { id } = (await h.api.post("/v2/listeners").send(body("cluster-dup", ["a"]))).body;
    expect422(await h.api.patch(`/v2/listeners/${id}`).send({ compute_config: twice }), loc);
    expect((await h.api.get(`/v2/listeners/${id}`)).body.compute_config.k8s_namespaces).toEqual(["a"]);
  });

  it("a malformed id or paging value", async () => {
    expect422(await h.api.get("/v2/listeners/not-a-uuid"), ["path", "listener_id"]);
    expect422(await h.api.get("/v2/listeners?limit=0"), ["query", "limit"]);
    expect422(await h.api.get("/v2/listeners?limit=101"), ["query", "limit"]);
    expect422(await h.api.get("/v2/listeners?offset=-1"), ["query", "offset"]);
  });
});

describe("tenancy", () => {
  it("another tenant's listener is 404 to read, update or delete, and absent from its listing", async () => {
    const mine = (await h.api.post("/v2/listeners").send(body("cluster-private", ["secret-ns"]))).body;
    const other = await tenant("tenant-listeners-b");
    const path = `/v2/listeners/${mine.id}`;
    for (const res of [
      await other.get(path),
      await other.patch(path).send({ compute_config: { k8s_namespaces: ["taken"] } }),
      await other.delete(path),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Listener ${mine.id} not found` });
    }
    expect((await other.get("/v2/listeners?limit=100")).body).toEqual({ resources: [], offset: 0 });
    // Untouched for its owner; and the same compute_id is free in the other tenant.
    expect((await h.api.get(path)).body).toEqual(mine);
    expect((await other.post("/v2/listeners").send(body("cluster-private", ["mine"]))).status).toBe(201);
    expect((await h.api.get("/v2/listeners?limit=100")).body.resources).not.toContainEqual(
      expect.objectContaining({ compute_config: { k8s_namespaces: ["mine"] } }),
    );
  });

  it("an unknown id is a 404 like another tenant's", async () => {
    const id = randomUUID();
    expect(await h.api.get(`/v2/listeners/${id}`)).toMatchObject({
      status: 404,
      body: { detail: `Listener ${id} not found` },
    });
  });
});

describe("list", () => {
  // A tenant of their own, so the listing holds exactly these.
  let api: Awaited<ReturnType<typeof tenant>>;
  const ids: string[] = [];
  beforeAll(async () => {
    api = await tenant("tenant-listeners-paging");
    for (let i = 0; i < 7; i++) {
      const res = await api.post("/v2/listeners").send(body(`cluster-${i}`, [`ns-${i}`]));
      ids.push(res.body.id);
    }
  });
  const newestFirst = () => [...ids].reverse();

  it("pages newest first with the offset it answers, without repeats or gaps", async () => {
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const res = await api.get(`/v2/listeners?limit=3&offset=${offset}`);
      expect(res.status).toBe(200);
      if (res.body.resources.length === 0) break;
      seen.push(...res.body.resources.map((listener: { id: string }) => listener.id));
      offset = res.body.offset;
    }
    expect(seen).toEqual(newestFirst());
    expect(offset).toBeGreaterThanOrEqual(CURSOR_BASE);
  });

  it("pages as the official CLI does, offset = listeners read so far, and stops on a short page", async () => {
    const seen: string[] = [];
    for (let requests = 0; requests < 10; requests++) {
      const page = (await api.get(`/v2/listeners?limit=2&offset=${seen.length}`)).body.resources as { id: string }[];
      seen.push(...page.map((listener) => listener.id));
      if (page.length < 2) break;
    }
    expect(seen).toEqual(newestFirst());
  });

  it("defaults to 20 a page, and a position past the end is an empty page", async () => {
    expect((await api.get("/v2/listeners")).body.resources).toHaveLength(7);
    expect((await api.get("/v2/listeners?offset=7")).body).toEqual({ resources: [], offset: 7 });
  });
});
