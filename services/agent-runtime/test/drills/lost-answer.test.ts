// Drill: a create-run whose answer is lost. A TCP proxy between the official client and the
// runtime lets the request through and then loses the answer, two ways: it cuts the connection
// after the server received the request (while the server is still working: the runs table is
// held), so the client sees a network error and retries the call itself; or, like a load
// balancer whose upstream connection broke, it answers 502, which the client retries on its own.
// With an Idempotency-Key (the client's `defaultHeaders`) the retry gets the first run: exactly
// one run in the database and the API. Without one, the same loss makes two.
import net from "node:net";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { runtimeKeyHash } from "@lgp/server-kit";
import { Client, SDK_LINES } from "@lgp/server-kit/src/testing";
import { startTestRuntime } from "../support/harness";

const API_KEY = `lgp_rt_${randomUUID()}`;
let rt: Awaited<ReturnType<typeof startTestRuntime>>;
let db: pg.Client;
let proxy: LossyProxy;

/** What happens to the answer of the next request through the proxy (later ones pass). */
type Loss = "cut-after-request" | "bad-gateway";

class LossyProxy {
  private next: Loss | undefined;
  private readonly server: net.Server;
  private readonly held = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: number) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  lose(loss: Loss): void {
    this.next = loss;
  }

  /** Cuts the connection of a `cut-after-request` loss: the client never gets an answer. */
  cut(): void {
    for (const socket of this.held) socket.destroy();
    this.held.clear();
  }

  private accept(client: net.Socket): void {
    // The client keeps connections alive: a loss starts with the next request on any of them.
    let loss: Loss | undefined;
    const upstream = net.connect(this.target, "127.0.0.1");
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.on("data", (chunk) => {
      if (!loss && this.next) {
        loss = this.next;
        this.next = undefined;
        if (loss === "cut-after-request") this.held.add(client).add(upstream);
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (loss === "cut-after-request") return; // the answer goes nowhere
      if (loss === "bad-gateway") {
        upstream.destroy();
        client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        return;
      }
      client.write(chunk);
    });
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

beforeAll(async () => {
  rt = await startTestRuntime({ workers: 1, env: { API_KEY_HASHES: runtimeKeyHash(API_KEY) } });
  db = new pg.Client({ connectionString: rt.database.url });
  await db.connect();
  proxy = new LossyProxy(Number(new URL(rt.url).port));
  await proxy.listen();
});
afterAll(async () => {
  await proxy?.close();
  await db?.end();
  await rt?.close();
});

async function runsOf(threadId: string): Promise<string[]> {
  const { rows } = await db.query<{ run_id: string }>("SELECT run_id FROM runs WHERE thread_id = $1", [threadId]);
  return rows.map((row) => row.run_id);
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Sends `create` through a proxy that cuts the connection once the server has the request and is
 * still making the run (runs held by a lock until then), and answers what the call ended with.
 */
async function createWithLostAnswer(create: () => Promise<unknown>, received: () => Promise<boolean>) {
  const lock = new pg.Client({ connectionString: rt.database.url });
  await lock.connect();
  await lock.query("BEGIN");
  await lock.query("LOCK TABLE runs IN EXCLUSIVE MODE");
  proxy.lose("cut-after-request");
  const call = create().then(
    () => "answered",
    (error: Error) => error.message,
  );
  try {
    await until(received);
  } finally {
    // Cut while the server is still making the run; then let it finish, to a client that left.
    proxy.cut();
    await lock.query("COMMIT");
    await lock.end();
  }
  return call;
}

describe.each(SDK_LINES)("the official client $line ($version)", ({ line, Client }) => {
  const clientWith = (headers: Record<string, string>) =>
    new Client({ apiUrl: `http://127.0.0.1:${proxy.port}`, apiKey: API_KEY, defaultHeaders: headers });
  // A key is for one operation: the thread is made by a client without one.
  const newThread = () => clientWith({}).threads.create();

  test("a create-run cut after the server received it, retried with its Idempotency-Key, makes one run", async () => {
    const key = randomUUID();
    const client = clientWith({ "Idempotency-Key": key });
    const thread = await newThread();
    const create = () => client.runs.create(thread.thread_id, "agent", { input: { messages: [] } });
    const keyTaken = async () =>
      ((await db.query("SELECT 1 FROM idempotency_keys WHERE key = $1", [key])).rowCount ?? 0) > 0;
    const failed = await createWithLostAnswer(create, keyTaken);
    expect(failed).toMatch(/connect|fetch failed|terminated|socket/i);
    // The server made the run after the client had gone.
    await until(async () => (await runsOf(thread.thread_id)).length === 1);
    const retried = await create();
    expect(await runsOf(thread.thread_id)).toEqual([retried.run_id]);
    expect((await client.runs.list(thread.thread_id)).map((run) => run.run_id)).toEqual([retried.run_id]);
  });

  test("a create-run answered 502 by a proxy after the server made the run, retried with its key: one run", async () => {
    const client = clientWith({ "Idempotency-Key": randomUUID() });
    const thread = await newThread();
    const create = () => client.runs.create(thread.thread_id, "agent", { input: { messages: [] } });
    proxy.lose("bad-gateway");
    let run;
    if (line === "2.x") {
      // 2.x retries a 5xx by itself, with the same headers.
      run = await create();
    } else {
      // 1.x retries no POST: its caller does.
      await expect(create()).rejects.toMatchObject({ status: 502 });
      run = await create();
    }
    expect(await runsOf(thread.thread_id)).toEqual([run.run_id]);
  });

  test("without a key the same lost answer makes a second run (what the key prevents)", async () => {
    const client = clientWith({});
    const thread = await newThread();
    const create = () => client.runs.create(thread.thread_id, "agent", { input: { messages: [] } });
    // Received: the server's connection waits on the lock with the run's insert.
    const inserting = async () =>
      (
        await db.query(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%INSERT INTO runs%'",
        )
      ).rowCount! > 0;
    await createWithLostAnswer(create, inserting);
    await until(async () => (await runsOf(thread.thread_id)).length === 1);
    await create();
    expect(await runsOf(thread.thread_id)).toHaveLength(2);
  });
});

test("a key per call set in onRequest (as the README shows) makes the 2.x client's own retry of a 502 safe", async () => {
  const client = new Client({
    apiUrl: `http://127.0.0.1:${proxy.port}`,
    apiKey: API_KEY,
    onRequest: (_url, init) =>
      init.method === "POST"
        ? { ...init, headers: { ...(init.headers as Record<string, string>), "Idempotency-Key": randomUUID() } }
        : init,
  });
  const thread = await client.threads.create();
  proxy.lose("bad-gateway");
  const run = await client.runs.create(thread.thread_id, "agent", { input: { messages: [] } });
  expect(await runsOf(thread.thread_id)).toEqual([run.run_id]);
  // Each call had its own key: a second create is a second run.
  await client.runs.create(thread.thread_id, "agent", { input: { messages: [] } });
  expect(await runsOf(thread.thread_id)).toHaveLength(2);
});
