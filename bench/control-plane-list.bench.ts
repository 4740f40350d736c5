// Listing benchmark of the control plane: 100,000 deployments of one tenant (and 10,000 of another,
// so the tenant scope is real) in a fresh database, then GET /v2/deployments through HTTP with
// limit=100, following the `offset` each page answers, from the first page to the last (1,000
// pages). Prints per-page latency (p50/p95/p99/max, ms); the target is < 20 ms per page.
// Also: the same walk with a filter, and plain numeric offsets deep into the listing.
//
// Run: npx tsx bench/control-plane-list.bench.ts   (or npm run bench -- control-plane)
// Options (environment): BENCH_DEPLOYMENTS (100000), BENCH_LIMIT (100), TEST_POSTGRES_URL.
import type { AddressInfo } from "node:net";
import { Agent, request } from "node:http";
import pg from "pg";
import { createLogger, migrate } from "@lgp/server-kit";
import { createEmptyDatabase, REPO_ROOT } from "@lgp/server-kit/src/testing";
import path from "node:path";
import { createControlPlaneApp } from "../services/control-plane/src/app";
import { loadControlPlaneConfig } from "../services/control-plane/src/config";
import { createDb } from "../services/control-plane/src/db";
import { generateKey } from "../services/control-plane/src/secrets/cipher";
import { createTenantKey } from "../services/control-plane/src/tenants/api-keys";

const COUNT = Number(process.env.BENCH_DEPLOYMENTS ?? 100_000);
const LIMIT = Number(process.env.BENCH_LIMIT ?? 100);
const TARGET_MS = 20;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Seeds deployments (and one revision each) with SQL: a realistic row shape, quickly. */
async function seed(url: string, tenantId: string, count: number, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO deployments (id, tenant_id, name, source, status, source_config, source_revision_config, secrets,
         deployment_type, image_version, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, $2 || '-' || i, 'internal_source',
         CASE WHEN i % 10 = 0 THEN 'AWAITING_DATABASE' ELSE 'READY' END,
         jsonb_build_object('integration_id', null, 'repo_url', 'https://github.com/example/agent-' || i, 'deployment_type', 'dev',
           'build_on_push', false, 'custom_url', 'http://127.0.0.1:' || (10000 + i % 50000), 'resource_spec', jsonb_build_object('cpu', 1, 'memory_mb', 1024, 'min_scale', 1, 'max_scale', 3),
           'listener_id', null, 'listener_config', null, 'install_command', 'npm ci', 'build_command', null),
         jsonb_build_object('repo_ref', 'main', 'langgraph_config_path', 'langgraph.json', 'image_uri', null, 'source_tarball_path', null, 'repo_commit_sha', md5(i::text)),
         '[{"name":"OPENAI_API_KEY","value":"v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA"}]'::jsonb,
         CASE WHEN i % 3 = 0 THEN 'prod' ELSE 'dev' END, '0.1.' || (i % 7),
         now() - make_interval(secs => $3::int - i), now()
       FROM generate_series(1, $3::int) AS i`,
      [tenantId, prefix, count],
    );
    await client.query(
      `INSERT INTO revisions (id, deployment_id, status, source, source_revision_config, created_at, updated_at)
       SELECT gen_random_uuid(), id, 'DEPLOYED', source, source_revision_config, created_at, now() FROM deployments WHERE tenant_id = $1::uuid`,
      [tenantId],
    );
    await client.query(
      `UPDATE deployments d SET latest_revision_id = r.id, active_revision_id = r.id FROM revisions r WHERE r.deployment_id = d.id AND d.tenant_id = $1::uuid`,
      [tenantId],
    );
    await client.query("VACUUM ANALYZE deployments");
    await client.query("VACUUM ANALYZE revisions");
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  process.env.VALIDATE_RESPONSES = "false";
  const database = await createEmptyDatabase("bench_cp_list");
  try {
    await migrate(database.url, path.join(REPO_ROOT, "prisma/control-plane/migrations"));
    const config = loadControlPlaneConfig({
      CONTROL_PLANE_DATABASE_URL: database.url,
      SECRETS_ENCRYPTION_KEY: generateKey(),
      // Thousands of pages as fast as they answer: the latency is measured, not a tenant's budget.
      RATE_LIMIT_REQUESTS_PER_MINUTE: "0",
    });
    const db = createDb(database.url, 10);
    const { tenantId, apiKey } = await createTenantKey(db, "bench");
    const other = await createTenantKey(db, "other");
    let started = Date.now();
    await seed(database.url, tenantId, COUNT, "agent");
    await seed(database.url, other.tenantId, Math.round(COUNT / 10), "noise");
    console.log(
      `seeded ${COUNT} deployments (+${Math.round(COUNT / 10)} of another tenant) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const app = createControlPlaneApp({ config, db, logger: createLogger("bench", "warn") });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const port = (server.address() as AddressInfo).port;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });

    const get = (pathAndQuery: string): Promise<{ ms: number; body: { resources: unknown[]; offset: number } }> =>
      new Promise((resolve, reject) => {
        const start = process.hrtime.bigint();
        const req = request(
          { host: "127.0.0.1", port, path: pathAndQuery, agent, headers: { "X-Api-Key": apiKey } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => {
              const ms = Number(process.hrtime.bigint() - start) / 1e6;
              if (res.statusCode !== 200)
                return reject(new Error(`${pathAndQuery}: ${res.statusCode} ${Buffer.concat(chunks)}`));
              resolve({ ms, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
            });
          },
        );
        req.on("error", reject);
        req.end();
      });

    /** Walks the whole listing following the answered offset; per-page latencies. */
    async function walk(filter: string): Promise<{ pages: number; rows: number; ms: number[] }> {
      const ms: number[] = [];
      let offset = 0;
      let rows = 0;
      for (;;) {
        const page = await get(`/v2/deployments?limit=${LIMIT}&offset=${offset}${filter}`);
        if (page.body.resources.length === 0) break;
        ms.push(page.ms);
        rows += page.body.resources.length;
        offset = page.body.offset;
      }
      return { pages: ms.length, rows, ms };
    }

    const report = (name: string, result: { pages: number; rows: number; ms: number[] }) => {
      const [p50, p95, p99, max] = [50, 95, 99, 100].map((p) => percentile(result.ms, p).toFixed(2));
      console.log(
        `${name.padEnd(44)} pages ${String(result.pages).padStart(5)}  rows ${String(result.rows).padStart(6)}  p50 ${p50} ms  p95 ${p95} ms  p99 ${p99} ms  max ${max} ms`,
      );
    };

    for (let i = 0; i < 50; i++) await get(`/v2/deployments?limit=${LIMIT}`); // warm-up
    started = Date.now();
    const all = await walk("");
    if (all.rows !== COUNT) throw new Error(`walked ${all.rows} rows, expected ${COUNT}`);
    report(`walk, limit=${LIMIT}, following offset`, all);
    report("walk, status=READY", await walk("&status=READY"));
    report("walk, deployment_type=prod", await walk("&deployment_type=prod"));
    report("walk, name_contains=agent-9", await walk("&name_contains=agent-9"));
    const deep: number[] = [];
    for (let skip = 0; skip < COUNT; skip += Math.max(LIMIT, Math.floor(COUNT / 50))) {
      deep.push((await get(`/v2/deployments?limit=${LIMIT}&offset=${skip}`)).ms);
    }
    report("plain numeric offsets 0..N (50 samples)", { pages: deep.length, rows: deep.length * LIMIT, ms: deep });
    const verdict = percentile(all.ms, 99) < TARGET_MS ? "meets" : "misses";
    console.log(`target: < ${TARGET_MS} ms per page (walk p99 ${percentile(all.ms, 99).toFixed(2)} ms: ${verdict} it)`);

    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.$disconnect();
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
