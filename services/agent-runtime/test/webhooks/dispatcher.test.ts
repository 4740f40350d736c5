import { randomBytes } from "node:crypto";
import { createLogger } from "@lgp/server-kit";
import { testRedisUrl } from "@lgp/server-kit/src/testing";
import {
  InProcessWebhookDispatcher,
  RedisWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookOptions,
  type WebhookOutcome,
} from "../../src/webhooks";
import { Receiver } from "./receiver";

const logger = createLogger("agent-runtime", "silent");

describe.each([
  ["in-process", (options: WebhookOptions) => new InProcessWebhookDispatcher(options, logger)],
  [
    "BullMQ",
    (options: WebhookOptions) =>
      new RedisWebhookDispatcher(testRedisUrl(), `test-webhooks-${randomBytes(4).toString("hex")}`, options, logger),
  ],
] as [string, (options: WebhookOptions) => WebhookDispatcher][])("%s webhook dispatcher", (_name, make) => {
  let receiver: Receiver;
  let dispatcher: WebhookDispatcher;
  let outcomes: WebhookOutcome[];
  let settled: (() => void)[];
  const waitSettled = async (count: number) => {
    while (outcomes.length < count) await new Promise<void>((resolve) => settled.push(resolve));
  };

  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.start();
    outcomes = [];
    settled = [];
    dispatcher = make({
      attempts: 4,
      baseDelayMs: 20,
      timeoutMs: 2000,
      onSettled: (outcome) => {
        outcomes.push(outcome);
        for (const wake of settled.splice(0)) wake();
      },
    });
    dispatcher.startWorker(2);
  });

  afterEach(async () => {
    await dispatcher.close();
    await receiver.stop();
  });

  test("retries a failing receiver with backoff until it accepts", async () => {
    receiver.statuses = [500, 503];
    // dispatch() returns before the receiver has even been called once.
    await dispatcher.dispatch({ url: receiver.url, payload: { run_id: "r1", status: "success" }, runId: "r1" });
    await waitSettled(1);
    expect(outcomes[0]).toMatchObject({ delivered: true, attempts: 3 });
    expect(receiver.bodies).toEqual([
      { run_id: "r1", status: "success" },
      { run_id: "r1", status: "success" },
      { run_id: "r1", status: "success" },
    ]);
  });

  test("gives up after the configured attempts, and does not retry a 4xx", async () => {
    receiver.statuses = [500, 500, 500, 500];
    await dispatcher.dispatch({ url: receiver.url, payload: { n: 1 } });
    await waitSettled(1);
    expect(outcomes[0]).toMatchObject({ delivered: false, attempts: 4 });
    expect(receiver.bodies).toHaveLength(4);

    receiver.statuses = [404];
    await dispatcher.dispatch({ url: receiver.url, payload: { n: 2 } });
    await waitSettled(2);
    expect(outcomes[1]).toMatchObject({ delivered: false, attempts: 1, delivery: { payload: { n: 2 } } });
    expect(receiver.bodies).toHaveLength(5);
  });

  test("an unreachable receiver never makes dispatch() fail", async () => {
    await expect(dispatcher.dispatch({ url: "http://127.0.0.1:9/nothing", payload: {} })).resolves.toBeUndefined();
    await waitSettled(1);
    expect(outcomes[0]).toMatchObject({ delivered: false, attempts: 4 });
  });
});
