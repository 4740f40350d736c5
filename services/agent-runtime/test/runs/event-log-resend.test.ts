// When Redis applies an event's XADD but the connection dies before its answer arrives, the client
// sends the command again once it has reconnected. The run's stream must still hold the event once:
// a duplicate would reach every streaming client (seen in the Redis outage drill as a step's update
// delivered twice). The fault is made by a TCP proxy in front of the real Redis that swallows one
// answer and cuts the connection.
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { testRedisUrl } from "@lgp/server-kit/src/testing";
import Redis from "ioredis";
import { RedisEventLog } from "../../src/queue/redis";
import { randomPrefix } from "../support/harness";
import { deleteRedisKeys } from "../support/redis-keys";

/** Forwards to Redis; once armed, the next answer from Redis is dropped and both connections are cut. */
class AnswerSwallowingProxy {
  armed = false;
  swallowed = 0;
  private readonly sockets = new Set<Socket>();
  private server?: Server;

  constructor(private readonly target: URL) {}

  async start(): Promise<string> {
    this.server = createServer((client) => {
      const upstream = createConnection(Number(this.target.port || 6379), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.on("data", (chunk) => upstream.write(chunk));
      upstream.on("data", (chunk) => {
        if (this.armed) {
          this.armed = false;
          this.swallowed += 1;
          client.destroy();
          upstream.destroy();
          return;
        }
        client.write(chunk);
      });
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as { port: number };
    const url = new URL(this.target);
    url.hostname = "127.0.0.1";
    url.port = String(port);
    return url.toString();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

const redisUrl = testRedisUrl();
const prefix = randomPrefix();
const proxy = new AnswerSwallowingProxy(new URL(redisUrl));
let log: RedisEventLog;
let direct: Redis;

beforeAll(async () => {
  log = new RedisEventLog(await proxy.start(), prefix);
  direct = new Redis(redisUrl);
});
afterAll(async () => {
  await log?.close();
  direct?.disconnect();
  await proxy.close();
  await deleteRedisKeys(redisUrl, prefix);
});

test("an event whose XADD answer is lost is in the run's stream once, after the client sends it again", async () => {
  const runId = "resent-run";
  await log.appendFirst(runId, "metadata", '{"run_id":"resent-run"}');
  await log.append(runId, "values", '{"step":1}');
  proxy.armed = true;
  await log.append(runId, "updates", '{"one":{}}');
  expect(proxy.swallowed).toBe(1);
  await log.append(runId, "updates", '{"two":{}}');
  await log.end(runId);

  const entries = (await direct.xrange(`${prefix}:run:${runId}:events`, "-", "+")) as [string, string[]][];
  expect(entries.map(([, fields]) => fields[1])).toEqual(["metadata", "values", "updates", "updates", "__end__"]);
  expect(entries.map(([, fields]) => fields[3]).slice(2, 4)).toEqual(['{"one":{}}', '{"two":{}}']);
  // What a streaming client reads: each event once, in order.
  const read: string[] = [];
  for await (const event of log.read(runId, {})) read.push(event.data);
  expect(read).toEqual(['{"run_id":"resent-run"}', '{"step":1}', '{"one":{}}', '{"two":{}}']);
});

test("a run's next attempt writes after what an earlier attempt wrote, even with a clock behind it", async () => {
  const runId = "taken-over-run";
  const key = `${prefix}:run:${runId}:events`;
  await log.appendFirst(runId, "metadata", "{}");
  // An earlier attempt on a machine whose clock is an hour ahead.
  const ahead = Date.now() + 3_600_000;
  await direct.xadd(key, `${ahead}-1`, "event", "updates", "data", '{"one":{}}');
  await log.append(runId, "updates", '{"two":{}}');
  await log.end(runId);
  const entries = (await direct.xrange(key, "-", "+")) as [string, string[]][];
  expect(entries.map(([, fields]) => fields[3])).toEqual(["{}", '{"one":{}}', '{"two":{}}', "null"]);
  expect(Number(entries[2]![0].split("-")[0])).toBeGreaterThan(ahead);
});

test("a run's end whose answer is lost is in its stream once, and the stream still expires", async () => {
  const runId = "resent-end";
  const key = `${prefix}:run:${runId}:events`;
  // Another run's end first: the end under test is then the script's EVALSHA on a known script.
  await log.appendFirst("ended-before", "metadata", "{}");
  await log.end("ended-before");
  await log.appendFirst(runId, "metadata", "{}");
  await log.append(runId, "updates", '{"one":{}}');
  const swallowed = proxy.swallowed;
  proxy.armed = true;
  await log.end(runId);
  expect(proxy.swallowed).toBe(swallowed + 1);
  const entries = (await direct.xrange(key, "-", "+")) as [string, string[]][];
  expect(entries.map(([, fields]) => fields[1])).toEqual(["metadata", "updates", "__end__"]);
  const ttl = await direct.ttl(key);
  expect(ttl).toBeGreaterThan(3500);
  expect(ttl).toBeLessThanOrEqual(3600);
});
