import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { testRedisUrl } from "@lgp/server-kit/src/testing";
import { createLogger } from "@lgp/server-kit";
import { BullReconcileQueue } from "../../src/queue";

// Closing the BullMQ `revisions` queue while a job is still running returns after the grace.
const suffix = randomBytes(4).toString("hex");
const prefix = `t-cp-close-${suffix}`;

afterAll(async () => {
  const redis = new Redis(testRedisUrl());
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

it("closes after its grace when a job never ends", async () => {
  const queue = new BullReconcileQueue(
    { redisUrl: testRedisUrl(), name: `revisions-${suffix}`, prefix },
    createLogger("test-queue", "error"),
  );
  let release!: () => void;
  const started = new Promise<void>((resolve) => {
    void queue.process(async () => {
      resolve();
      await new Promise<void>((done) => (release = done));
    }, 1);
  });
  await queue.enqueue({ type: "revision", revisionId: "never-ends" });
  await started;

  const begun = Date.now();
  const outcome = await Promise.race([
    queue.close(300).then(() => "closed"),
    new Promise((resolve) => setTimeout(() => resolve("still closing after 10 s"), 10_000).unref()),
  ]);
  expect(outcome).toBe("closed");
  expect(Date.now() - begun).toBeGreaterThanOrEqual(300);
  // The job ends, so BullMQ's own close finishes and leaves nothing running.
  release();
  await new Promise((resolve) => setTimeout(resolve, 500));
});
