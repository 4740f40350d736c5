import { randomUUID } from "node:crypto";
import { dockerBody, startHarness, type Harness } from "../deployments/harness";

// Revision reads without a reconciler: every revision stays CREATING.
let h: Harness;
let deployment: { id: string; latest_revision_id: string };
const revisionIds: string[] = [];
beforeAll(async () => {
  h = await startHarness();
  deployment = (await h.api.post("/v2/deployments").send(dockerBody("revisions"))).body;
  revisionIds.push(deployment.latest_revision_id);
  for (let i = 2; i <= 5; i++) {
    const res = await h.api
      .patch(`/v2/deployments/${deployment.id}`)
      .send({ source_revision_config: { image_uri: `example/agent:${i}` } });
    revisionIds.push(res.body.latest_revision_id);
  }
});
afterAll(async () => {
  await h.close();
});

it("lists revisions newest first, paging with the offset it answers", async () => {
  const base = `/v2/deployments/${deployment.id}/revisions`;
  const first = await h.api.get(`${base}?limit=2`);
  expect(first.status).toBe(200);
  const second = await h.api.get(`${base}?limit=2&offset=${first.body.offset}`);
  const third = await h.api.get(`${base}?limit=2&offset=${second.body.offset}`);
  const ids = [...first.body.resources, ...second.body.resources, ...third.body.resources].map(
    (r: { id: string }) => r.id,
  );
  expect(ids).toEqual([...revisionIds].reverse());
  expect(first.body.resources[0]).toMatchObject({
    status: "CREATING",
    source: "external_docker",
    source_revision_config: { image_uri: "example/agent:5" },
  });
  expect((await h.api.get(`${base}?status=CREATING`)).body.resources).toHaveLength(5);
  expect((await h.api.get(`${base}?status=DEPLOYED,SKIPPED`)).body.resources).toEqual([]);
});

it("answers 404 for an unknown revision or deployment, and 422 for bad input", async () => {
  const missing = randomUUID();
  const res = await h.api.get(`/v2/deployments/${deployment.id}/revisions/${missing}`);
  expect(res.status).toBe(404);
  expect(res.body).toEqual({ detail: `Revision ${missing} not found` });
  expect((await h.api.get(`/v2/deployments/${missing}/revisions`)).body).toEqual({
    detail: `Deployment ${missing} not found`,
  });
  // A revision is only found under its own deployment.
  const other = (await h.api.post("/v2/deployments").send(dockerBody("other"))).body;
  expect((await h.api.get(`/v2/deployments/${other.id}/revisions/${deployment.latest_revision_id}`)).status).toBe(404);
  const cases: [string, unknown[]][] = [
    [`/v2/deployments/${deployment.id}/revisions?status=DONE`, ["query", "status"]],
    [`/v2/deployments/${deployment.id}/revisions?limit=0`, ["query", "limit"]],
    [`/v2/deployments/${deployment.id}/revisions/nope`, ["path", "revision_id"]],
    [`/v2/deployments/${deployment.id}/revisions/${deployment.latest_revision_id}/logs/other`, ["path", "log_type"]],
    [
      `/v2/deployments/${deployment.id}/revisions/${deployment.latest_revision_id}/logs/build?level=loud`,
      ["query", "level"],
    ],
    [
      `/v2/deployments/${deployment.id}/revisions/${deployment.latest_revision_id}/logs/build?start_time=2016-12-31T23:59:60Z`,
      ["query", "start_time"],
    ],
    [
      `/v2/deployments/${deployment.id}/revisions/${deployment.latest_revision_id}/logs/build?offset=100000000000000000000`,
      ["query", "offset"],
    ],
  ];
  for (const [path, loc] of cases) {
    const bad = await h.api.get(path);
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
  }
  const badLevel = await h.api
    .post(`/v1/projects/${deployment.id}/revisions/${deployment.latest_revision_id}/build_logs`)
    .send({ level: "LOUD" });
  expect(badLevel.status).toBe(422);
  expect(badLevel.body.detail[0].loc).toEqual(["body", "level"]);
  expect((await h.api.post(`/v1/projects/${randomUUID()}/deploy_logs`).send({})).status).toBe(404);
  const badBody = await h.api
    .post(`/v1/projects/${deployment.id}/revisions/${deployment.latest_revision_id}/deploy_logs`)
    .send({ limit: 0 });
  expect(badBody.status).toBe(422);
  expect(badBody.body.detail[0].loc).toEqual(["body", "limit"]);
  const leapSecond = await h.api
    .post(`/v1/projects/${deployment.id}/revisions/${deployment.latest_revision_id}/build_logs`)
    .send({ end_time: "2016-12-31T23:59:60Z" });
  expect(leapSecond.status).toBe(422);
  expect(leapSecond.body.detail[0].loc).toEqual(["body", "end_time"]);
});

it("reads an empty log page with no next offset", async () => {
  const res = await h.api
    .post(`/v1/projects/${deployment.id}/revisions/${deployment.latest_revision_id}/deploy_logs`)
    .send({});
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ logs: [], next_offset: null });
});
