// Deployments placed on listeners: a deployment naming a listener_id must name a listener of its
// own tenant and one of that listener's namespaces (422 otherwise), and a listener cannot lose a
// namespace, or be deleted, while deployments are placed there (409, with a sentence naming them).
import { createTenantKey } from "../../src/tenants/api-keys";
import { dockerBody, startHarness, type Harness } from "../deployments/harness";

// No reconciler runs here: a deleted deployment stays AWAITING_DELETE, as while its teardown runs.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function listener(computeId: string, namespaces: string[]): Promise<string> {
  const res = await h.api
    .post("/v2/listeners")
    .send({ compute_type: "k8s", compute_id: computeId, compute_config: { k8s_namespaces: namespaces } });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A create body placing the deployment on `listenerId` in `namespace` (either may be left out). */
function placed(name: string, listenerId?: string, namespace?: string) {
  return dockerBody(name, {
    source_config: {
      custom_url: "http://127.0.0.1:9/",
      ...(listenerId ? { listener_id: listenerId } : {}),
      ...(namespace ? { listener_config: { k8s_namespace: namespace } } : {}),
    },
  });
}

async function refusal(name: string, listenerId: string | undefined, namespace: string | undefined, loc: string[]) {
  const res = await h.api.post("/v2/deployments").send(placed(name, listenerId, namespace));
  expect(res.status).toBe(422);
  const item = (res.body.detail as { loc: string[]; msg: string }[]).find(
    (detail) => JSON.stringify(detail.loc) === JSON.stringify(["body", "source_config", ...loc]),
  );
  expect(item).toBeDefined();
  // Nothing was created.
  expect((await h.api.get(`/v2/deployments?name=${name}`)).body.resources).toEqual([]);
  return item!.msg;
}

describe("placing a deployment", () => {
  it("on a listener of its tenant, in one of its namespaces: created, and shown as placed", async () => {
    const id = await listener("cluster-place", ["team-a", "team-b"]);
    const res = await h.api.post("/v2/deployments").send(placed("placed-ok", id, "team-b"));
    expect(res.status).toBe(201);
    expect(res.body.source_config).toMatchObject({ listener_id: id, listener_config: { k8s_namespace: "team-b" } });
    // The row references the listener: the database itself keeps it from being deleted under it.
    const [row] = await h.db.$queryRaw<{ listener_id: string }[]>`
      SELECT listener_id::text FROM deployments WHERE id = ${res.body.id}::uuid`;
    expect(row.listener_id).toBe(id);
  });

  it("is refused in a namespace the listener does not serve, naming the ones it does", async () => {
    const id = await listener("cluster-wrong-ns", ["team-a", "team-b"]);
    const msg = await refusal("placed-wrong-ns", id, "team-c", ["listener_config", "k8s_namespace"]);
    expect(msg).toBe(`Listener ${id} does not serve namespace team-c: choose one of team-a, team-b`);
  });

  it("is refused without a namespace, naming the listener's", async () => {
    const id = await listener("cluster-no-ns", ["only"]);
    const msg = await refusal("placed-no-ns", id, undefined, ["listener_config", "k8s_namespace"]);
    expect(msg).toBe("listener_config.k8s_namespace is required with listener_id: one of only");
  });

  it("is refused with a namespace but no listener: a namespace is reached through a listener", async () => {
    const msg = await refusal("placed-ns-only", undefined, "team-a", ["listener_id"]);
    expect(msg).toMatch(/k8s_namespace team-a needs the listener_id of a listener serving it/);
  });

  it("is refused on an unknown listener, and on another tenant's as if it did not exist", async () => {
    const { apiKey } = await createTenantKey(h.db, "tenant-placement-b");
    const theirs = await h.raw
      .post("/v2/listeners")
      .set("X-Api-Key", apiKey)
      .send({ compute_type: "k8s", compute_id: "theirs", compute_config: { k8s_namespaces: ["shared"] } });
    expect(theirs.status).toBe(201);
    const msg = await refusal("placed-theirs", theirs.body.id, "shared", ["listener_id"]);
    expect(msg).toBe(`Listener ${theirs.body.id} not found in this tenant (GET /v2/listeners lists its listeners)`);
  });

  it("stays as created: listener and namespace cannot be changed by a PATCH", async () => {
    const id = await listener("cluster-fixed", ["one", "two"]);
    const other = await listener("cluster-other", ["one"]);
    const created = (await h.api.post("/v2/deployments").send(placed("placed-fixed", id, "one"))).body;
    const path = `/v2/deployments/${created.id}`;
    expect((await h.api.patch(path).send({ source_config: { listener_id: other } })).status).toBe(422);
    expect(
      (await h.api.patch(path).send({ source_config: { listener_config: { k8s_namespace: "two" } } })).status,
    ).toBe(422);
    expect((await h.api.get(path)).body.source_config).toMatchObject({
      listener_id: id,
      listener_config: { k8s_namespace: "one" },
    });
  });
});

describe("a listener with deployments placed on it", () => {
  it("cannot be deleted (409 naming them), even while they are being deleted; once they are gone it can", async () => {
    const id = await listener("cluster-busy", ["busy"]);
    const first = (await h.api.post("/v2/deployments").send(placed("busy-one", id, "busy"))).body;
    const second = (await h.api.post("/v2/deployments").send(placed("busy-two", id, "busy"))).body;

    const refused = await h.api.delete(`/v2/listeners/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Listener ${id} has 2 deployment(s) placed on it (busy-one, busy-two): ` +
        "delete them first (a deployment being deleted holds it until it is gone)",
    );

    // Deleting them marks them AWAITING_DELETE; their teardown runs in the listener's namespace.
    expect((await h.api.delete(`/v2/deployments?deployment_ids=${first.id},${second.id}`)).status).toBe(200);
    expect((await h.api.delete(`/v2/listeners/${id}`)).status).toBe(409);

    // The reconciler removes a deployment's row once its teardown is done; none runs here, so the
    // test removes them as it would.
    await h.db.deployment.deleteMany({ where: { id: { in: [first.id, second.id] } } });
    expect((await h.api.delete(`/v2/listeners/${id}`)).status).toBe(204);
    expect((await h.api.get(`/v2/listeners/${id}`)).status).toBe(404);
  });

  it("cannot drop a namespace deployments are placed in (409), but can add and drop others", async () => {
    const id = await listener("cluster-ns-change", ["used", "unused"]);
    await h.api.post("/v2/deployments").send(placed("ns-user", id, "used"));
    const path = `/v2/listeners/${id}`;

    const refused = await h.api.patch(path).send({ compute_config: { k8s_namespaces: ["unused", "new"] } });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Listener ${id} still has deployments placed in namespace used (ns-user): ` +
        "keep the namespace, or delete those deployments first",
    );
    expect((await h.api.get(path)).body.compute_config.k8s_namespaces).toEqual(["used", "unused"]);

    const changed = await h.api.patch(path).send({ compute_config: { k8s_namespaces: ["new", "used"] } });
    expect(changed.status).toBe(200);
    expect(changed.body.compute_config.k8s_namespaces).toEqual(["new", "used"]);
  });

  it("never ends with a deployment in a namespace its listener dropped, however the two requests interleave", async () => {
    // Each round races a create in namespace "racing" against a PATCH dropping it: exactly one wins.
    for (let round = 0; round < 8; round++) {
      const id = await listener(`cluster-race-${round}`, ["racing", "kept"]);
      const [create, patch] = await Promise.all([
        h.api.post("/v2/deployments").send(placed(`racer-${round}`, id, "racing")),
        h.api.patch(`/v2/listeners/${id}`).send({ compute_config: { k8s_namespaces: ["kept"] } }),
      ]);
      const outcome = `${create.status}/${patch.status}`;
      expect(["201/409", "422/200"]).toContain(outcome);
      const namespaces = (await h.api.get(`/v2/listeners/${id}`)).body.compute_config.k8s_namespaces;
      expect(namespaces).toEqual(outcome === "201/409" ? ["racing", "kept"] : ["kept"]);
    }
  });
});
