import fc from "fast-check";
import { SECRET_MASK } from "../../src/deployments/model";
import { sourceBody, startHarness, type Harness } from "./harness";

// Property: whatever a client sends to create, patch or list, the answer is never a 5xx (and is
// valid against the contract, which the test app checks on every response).
let h: Harness;
let existingId: string;
beforeAll(async () => {
  // 300 creates and patches in a few seconds: far over a tenant's default deploy budget.
  h = await startHarness({ env: { RATE_LIMIT_DEPLOYS_PER_MINUTE: "0" } });
  existingId = (await h.api.post("/v2/deployments").send(sourceBody("existing"))).body.id;
});
afterAll(async () => {
  await h.close();
});

const scalar = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    "",
    "main",
    "refs/tags/v1",
    "langgraph.json",
    "http://127.0.0.1:1/",
    "/tmp/x",
    SECRET_MASK,
    "0",
    "1e400",
    "NaN",
  ),
  fc.integer({ min: -5, max: 200 }),
  fc.double({ noNaN: true, min: -20, max: 20 }),
  fc.boolean(),
  fc.constant(null),
  fc.uuid(),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: "small" },
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 3 }),
);
const resourceSpec = fc.dictionary(
  fc.constantFrom(
    "cpu",
    "cpu_limit",
    "memory_mb",
    "memory_limit_mb",
    "min_scale",
    "max_scale",
    "labels",
    "volumes",
    "sidecars",
    "db_storage_gi",
  ),
  value,
  { maxKeys: 4 },
);
const sourceConfig = fc.record(
  {
    repo_url: value,
    custom_url: value,
    build_on_push: value,
    deployment_type: fc.oneof(fc.constantFrom("dev", "prod", "dev_free"), value),
    integration_id: value,
    listener_id: value,
    listener_config: value,
    install_command: value,
    resource_spec: fc.oneof(resourceSpec, value),
  },
  { requiredKeys: [] },
);
const revisionConfig = fc.record(
  {
    repo_ref: value,
    langgraph_config_path: value,
    graph_config_path: value,
    image_uri: value,
    source_tarball_path: value,
    repo_commit_sha: value,
  },
  { requiredKeys: [] },
);
const secrets = fc.oneof(
  fc.array(
    fc.record({
      name: fc.oneof(fc.constantFrom("A", "B", "OPENAI_API_KEY"), fc.string({ maxLength: 5 })),
      value: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(SECRET_MASK), value),
    }),
    { maxLength: 3 },
  ),
  value,
);
const body = fc.record(
  {
    name: fc.oneof(fc.stringMatching(/^[a-z0-9-]{1,12}$/), fc.string({ maxLength: 8 }), value),
    source: fc.oneof(fc.constantFrom("github", "external_docker", "internal_docker", "internal_source"), value),
    source_config: fc.oneof(sourceConfig, value),
    source_revision_config: fc.oneof(revisionConfig, value),
    secrets,
    image_version: value,
    tag_value_ids: fc.oneof(fc.array(fc.uuid(), { maxLength: 2 }), value),
  },
  { requiredKeys: [] },
);
const query = fc.dictionary(
  fc.constantFrom(
    "limit",
    "offset",
    "name_contains",
    "status",
    "remote_reconciled",
    "tag_value_ids",
    "image_version",
    "deployment_type",
    "deployment_ids",
    "other",
  ),
  fc.oneof(
    fc.string({ maxLength: 10 }),
    fc.integer({ min: -3, max: 2_000_000_000_000_000 }).map(String),
    fc.uuid(),
    fc.constantFrom("READY", "prod", "true", "1e3", "%", "a,b"),
  ),
  { maxKeys: 4 },
);

it("create never answers a 5xx", async () => {
  await fc.assert(
    fc.asyncProperty(body, async (input) => {
      const res = await h.api.post("/v2/deployments").send(input as object);
      expect(res.status).toBeLessThan(500);
      expect([201, 409, 422]).toContain(res.status);
    }),
    { numRuns: 150 },
  );
});

it("patch never answers a 5xx", async () => {
  await fc.assert(
    fc.asyncProperty(body, async (input) => {
      const res = await h.api.patch(`/v2/deployments/${existingId}`).send(input as object);
      expect(res.status).toBeLessThan(500);
      expect([200, 409, 422]).toContain(res.status);
    }),
    { numRuns: 150 },
  );
});

it("list never answers a 5xx", async () => {
  await fc.assert(
    fc.asyncProperty(query, async (params) => {
      const res = await h.api.get("/v2/deployments").query(params);
      expect(res.status).toBeLessThan(500);
      expect([200, 422]).toContain(res.status);
    }),
    { numRuns: 150 },
  );
});
