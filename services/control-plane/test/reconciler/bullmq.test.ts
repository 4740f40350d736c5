import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { testRedisUrl } from "@lgp/server-kit/src/testing";
import { createLogger } from "@lgp/server-kit";
import { BullReconcileQueue } from "../../src/queue";
import { dockerBody } from "../deployments/harness";
import { startOkServer, startReconcilerHarness, type ReconcilerHarness } from "./setup";

// The same reconciler on the BullMQ `revisions` queue (own queue name and key prefix per run).
const suffix = randomBytes(4).toString("hex");
const prefix = `t-cp-${suffix}`;
let h: ReconcilerHarness;
let ok: { url: string; close(): Promise<void> };
beforeAll(async () => {
  ok = await startOkServer();
  const logger = createLogger("test-queue", "error");
  h = await startReconcilerHarness({
    timeoutSeconds: 5,
    queue: () => new BullReconcileQueue({ redisUrl: testRedisUrl(), name: `revisions-${suffix}`, prefix }, logger),
  });
});
afterAll(async () => {
  await h.close();
  await ok.close();
  const redis = new Redis(testRedisUrl());
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

it("drives a revision to DEPLOYED through BullMQ, and resumes after a restart", async () => {
  const created = (
    await h.api.post("/v2/deployments").send(dockerBody("bull-one", { source_config: { custom_url: ok.url } }))
  ).body;
  expect(await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYED", "DEPLOY_FAILED"])).toMatchObject({
    status: "DEPLOYED",
  });

  // Stop the reconciler, queue a new revision while it is down, start a new one: it picks it up.
  await h.runtime.close();
  const patched = (
    await h.api
      .patch(`/v2/deployments/${created.id}`)
      .send({ source_revision_config: { image_uri: "example/agent:2" } })
  ).body;
  await h.restart();
  expect(await h.waitForRevision(created.id, patched.latest_revision_id, ["DEPLOYED", "DEPLOY_FAILED"])).toMatchObject({
    status: "DEPLOYED",
  });
  expect((await h.api.get(`/v2/deployments/${created.id}`)).body.active_revision_id).toBe(patched.latest_revision_id);
});
