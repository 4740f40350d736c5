// The shared XREAD of a process's run readers takes a newly followed stream without interrupting
// the read under way when that read returns by itself soon (under load, another stream's entry
// ends it): one command and one cut-short read fewer per streamed run. A stream followed on a quiet
// connection still comes at once, not after the read's full block. A reader that joins a stream
// already followed, behind the others, still gets every entry after its own position, in order.
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

test("a second reader of a stream, behind the first, gets every entry after its own position, in order, though it joined during a read that started further on", async () => {
  const texts = (entries: StreamEntry[]) => entries.map(([, fields]) => fields[1]);
  const first: string[] = [];
  const second: string[] = [];
  await writer.xadd("shared", "1-1", "v", "one");
  const stopFirst = streams.subscribe("shared", "0-0", (entries) => first.push(...texts(entries)));
  // The first reader has "one": the shared read under way waits for what comes after it.
  await readerBlocked();
  expect(first).toEqual(["one"]);
  // A reader from the stream's start (a client that reconnects without a position) joins, and an
  // entry ends the read under way before the wait for an interruption is over.
  const stopSecond = streams.subscribe("shared", "0-0", (entries) => second.push(...texts(entries)));
  await writer.xadd("shared", "1-2", "v", "two");
  for (let tries = 0; tries < 200 && (second.length < 2 || first.length < 2); tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(second).toEqual(["one", "two"]);
  expect(first).toEqual(["one", "two"]);
  stopFirst();
  stopSecond();
});
