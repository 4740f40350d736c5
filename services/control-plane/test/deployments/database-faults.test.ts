// Drill: the control plane's PostgreSQL connections are terminated (a failover, a pooler restart)
// while requests arrive. A read that meets a cut connection is sent again on one opened after the
// fault (src/db.ts); a write that may have been committed answers 503 with Retry-After, which
// clients retry; never a 500. The load version: test/drills/connection-loss.test.ts.
import { Client as PgClient } from "pg";
import { dockerBody, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function terminateBackends(databaseUrl: string): Promise<number> {
  const admin = new PgClient({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const result = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [new URL(databaseUrl).pathname.slice(1)],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

test("terminated connections: reads answered, writes 201 or 503 with Retry-After, never 500", async () => {
  const statuses = new Map<number, number>();
  let terminated = 0;
  for (let round = 0; round < 10; round++) {
    // Connections are cut while requests are under way on them.
    const requests = Promise.all([
      ...Array.from({ length: 8 }, () => h.api.get("/v2/deployments?limit=5")),
      ...Array.from({ length: 2 }, (_, i) => h.api.post("/v2/deployments").send(dockerBody(`fault-${round}-${i}`))),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 2));
    terminated += await terminateBackends(h.database.url);
    const answers = await requests;
    for (const read of answers.slice(0, 8)) expect(read.status).toBe(200);
    for (const answer of answers) {
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 503) expect(answer.headers["retry-after"]).toBe("2");
    }
  }
  expect(terminated).toBeGreaterThan(0);
  expect([...statuses.keys()].filter((status) => ![200, 201, 503].includes(status))).toEqual([]);
  // Afterwards everything works again (a 503 is retried, as clients do).
  let status = 0;
  for (let attempt = 0; attempt < 3 && status !== 200; attempt++) status = (await h.api.get("/v2/deployments")).status;
  expect(status).toBe(200);
});
