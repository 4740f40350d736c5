// The shared XREAD of a process's run readers takes a newly followed stream without interrupting
// the read under way when that read returns by itself soon (under load, another stream's entry
// ends it): one command and one cut-short read fewer per streamed run. A stream followed on a quiet
// connection still comes at once, not after the read's full block.
import { Redis } from "ioredis";
import { StreamMultiplexer, type StreamEntry } from "../../src/queue/redis-stream-reader";
import { startPrivateRedis, type PrivateRedis } from "../support/redis-server";

let redis: PrivateRedis;
let writer: Redis;
let reader: Redis;
let streams: StreamMultiplexer;

// A wait long enough that the tests below never race the timer: what they show is which way the
// new stream joins, not how long the production wait is.
const UNBLOCK_AFTER_MS = 400;

beforeAll(async () => {
  redis = await startPrivateRedis();
  writer = new Redis(redis.url);
});
afterAll(async () => {
  writer?.disconnect();
  await redis?.close();
});
// Each test has a reader of its own, so no read left from another test is under way.
beforeEach(() => {
  reader = new Redis(redis.url, { maxRetriesPerRequest: null });
  streams = new StreamMultiplexer(reader, writer, UNBLOCK_AFTER_MS);
});
afterEach(() => {
  streams.close();
  reader.disconnect();
});

const UNBLOCKS = "client\\|unblock";

/** Follows `key` from its start; resolves with the first entry's field value. */
function firstEntry(key: string): { entry: Promise<string>; stop: () => void } {
  let stop = () => {};
  const entry = new Promise<string>((resolve) => {
    stop = streams.subscribe(key, "0-0", (entries: StreamEntry[]) => resolve(entries[0][1][1]));
  });
  return { entry, stop };
}

/** Until the shared read is blocked in Redis. */
async function readerBlocked(): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    if (/blocked_clients:1\b/.test(await writer.info("clients"))) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the shared read never blocked");
}

test("a stream followed while another's entry ends the read under way joins the next read, with no UNBLOCK", async () => {
  const busy = firstEntry("busy");
  await readerBlocked();
  const before = await redis.calls(UNBLOCKS);
  const joined = firstEntry("joined");
  await writer.xadd("busy", "*", "v", "busy-1");
  expect(await busy.entry).toBe("busy-1");
  await readerBlocked();
  await writer.xadd("joined", "*", "v", "joined-1");
  expect(await joined.entry).toBe("joined-1");
  expect((await redis.calls(UNBLOCKS)) - before).toBe(0);
  busy.stop();
  joined.stop();
});

test("a stream followed while the read under way has nothing to return interrupts it after the wait", async () => {
  const idle = firstEntry("idle");
  await readerBlocked();
  const before = await redis.calls(UNBLOCKS);
  const started = Date.now();
  await writer.xadd("lone", "*", "v", "lone-1");
  const lone = firstEntry("lone");
  expect(await lone.entry).toBe("lone-1");
  // Interrupted after the wait, well before the read's own 2 s block would have ended.
  expect(Date.now() - started).toBeLessThan(1_500);
  expect((await redis.calls(UNBLOCKS)) - before).toBe(1);
  idle.stop();
  lone.stop();
});
