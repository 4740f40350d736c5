// What the control plane's database client sends again when connections are cut (src/db.ts), seen
// through a proxy that cuts them at chosen moments. A failover ends every pooled connection at
// once, and each learns of it only when it is next used: a retry must go on a connection opened
// after the fault, not on the next dead one. What may have been committed is never sent again.
import { isTransientError } from "@lgp/server-kit";
import { createTestDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { createDb, type Db } from "../../src/db";
import { CuttingProxy } from "./cutting-proxy";

const POOL = 5;
let database: TestDatabase;
let proxy: CuttingProxy;
let db: Db;
let direct: Db;

beforeAll(async () => {
  database = await createTestDatabase("control-plane");
  direct = createDb(database.url, 1);
});
beforeEach(async () => {
  proxy = await CuttingProxy.start(database.url);
  db = createDb(proxy.url, POOL);
});
afterEach(async () => {
  await db.$disconnect();
  await proxy.close();
});
afterAll(async () => {
  await direct.$disconnect();
  await database.drop();
});

/** Fills the pool: POOL statements at once, each on its own connection. */
async function warm(): Promise<void> {
  await Promise.all(Array.from({ length: POOL }, () => db.$queryRaw`SELECT 1 FROM pg_sleep(0.05)`));
}

/** What `attempt` was rejected with; fails the test when it was not a connection fault. */
async function connectionFault(attempt: Promise<unknown>): Promise<void> {
  const error = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeDefined();
  expect(isTransientError(error)).toBe(true);
}

async function tenantsNamed(name: string): Promise<number> {
  return direct.tenant.count({ where: { name } });
}

test("a read after every pooled connection died is answered, on a connection opened after the fault", async () => {
  await warm();
  proxy.cutSilently();
  expect(await db.tenant.count()).toBe(0);
  await warm();
  proxy.cutSilently();
  expect(await db.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
});

test("a single write sent on a connection that died is not sent again: it answers a connection fault", async () => {
  await warm();
  proxy.cutSilently();
  const write = db.tenant.create({ data: { name: "sent-once" } });
  await connectionFault(write);
  // This one never reached PostgreSQL, but the client cannot know that: nothing was retried.
  expect(await tenantsNamed("sent-once")).toBe(0);
  // The next one goes on a new connection.
  await db.tenant.create({ data: { name: "sent-once" } });
  expect(await tenantsNamed("sent-once")).toBe(1);
});

test("a $queryRaw that writes (INSERT ... RETURNING) is not taken for a read and sent again", async () => {
  // One pooled connection: sent again, it would go on a new one and be stored.
  await db.$queryRaw`SELECT 1 AS one`;
  proxy.cutSilently();
  const insert = db.$queryRaw`INSERT INTO tenants (id, name) VALUES (gen_random_uuid(), 'raw-insert') RETURNING name`;
  await connectionFault(insert);
  expect(await tenantsNamed("raw-insert")).toBe(0);
});

test("a write whose connection could not be opened is sent again, and stored once", async () => {
  proxy.refuse(2);
  await db.tenant.create({ data: { name: "refused-then-sent" } });
  expect(await tenantsNamed("refused-then-sent")).toBe(1);
});

test("a transaction cut before its COMMIT runs again from the start and commits once", async () => {
  let runs = 0;
  await db.$transaction(async (tx) => {
    runs++;
    await tx.tenant.create({ data: { name: `tx-run-${runs}` } });
    // The first run's connection dies in the middle: its first statement is rolled back with it.
    if (runs === 1) proxy.cutSilently();
    await tx.tenant.create({ data: { name: "tx-second-statement" } });
  });
  expect(runs).toBe(2);
  expect(await tenantsNamed("tx-run-1")).toBe(0);
  expect(await tenantsNamed("tx-run-2")).toBe(1);
  expect(await tenantsNamed("tx-second-statement")).toBe(1);
});

test("a transaction cut after its COMMIT was sent is not run again (it was committed)", async () => {
  let runs = 0;
  const transaction = db.$transaction(async (tx) => {
    runs++;
    await tx.tenant.create({ data: { name: `committed-${runs}` } });
    proxy.cutAfterCommit();
  });
  await connectionFault(transaction);
  expect(runs).toBe(1);
  // The client was told of a fault, yet it committed: running it again would have made two.
  expect(await tenantsNamed("committed-1")).toBe(1);
});
