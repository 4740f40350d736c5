// The control plane calls URLs its tenants give (an external_docker deployment's custom_url, an
// OAuth provider's token URL). Without OUTBOUND_ALLOW they may not reach inside its machine or
// network: a literal address is a 422 naming the field; a name resolving there fails the revision,
// saying why, without a request sent.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dockerBody } from "../deployments/harness";
import { startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";

let h: ReconcilerHarness;
let runtime: Server;
let port: number;
let calls = 0;

beforeAll(async () => {
  h = await startReconcilerHarness({ sweepSeconds: 1, timeoutSeconds: 10, env: { OUTBOUND_ALLOW: "" } });
  // A runtime that would answer /ok, on loopback.
  runtime = createServer((_req, res) => {
    calls++;
    res.end("ok");
  });
  await new Promise<void>((resolve) => runtime.listen(0, "127.0.0.1", resolve));
  port = (runtime.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => runtime?.close(resolve));
  await h?.close();
});

test.each([
  ["cloud metadata", "http://169.254.169.254/"],
  ["loopback", "http://127.0.0.1:8123/"],
  ["the private network", "http://[::ffff:192.168.0.10]/"],
])("a deployment whose custom_url names %s is refused, the field named", async (_what, url) => {
  const created = await h.api.post("/v2/deployments").send(dockerBody("ssrf", { source_config: { custom_url: url } }));
  expect(created.status).toBe(422);
  expect(created.body.detail).toEqual([
    expect.objectContaining({
      loc: ["body", "source_config", "custom_url"],
      msg: expect.stringMatching(/may not reach/),
    }),
  ]);
  const listed = await h.api.get("/v2/deployments?name=ssrf");
  expect(listed.body.resources).toEqual([]);
});

test("moving a deployment to such an address is refused the same way", async () => {
  const created = await h.api
    .post("/v2/deployments")
    .send(dockerBody("moving", { source_config: { custom_url: "https://runtime.example.com/" } }));
  expect(created.status).toBe(201);
  const moved = await h.api
    .patch(`/v2/deployments/${created.body.id}`)
    .send({ source_config: { custom_url: "http://169.254.169.254/" } });
  expect(moved.status).toBe(422);
  expect(JSON.stringify(moved.body)).toMatch(/custom_url/);
});

test("a name that resolves to loopback fails its revision with the reason, and nothing is called", async () => {
  const created = await h.api
    .post("/v2/deployments")
    .send(dockerBody("by-name", { source_config: { custom_url: `http://localhost:${port}/` } }));
  expect(created.status).toBe(201);
  const revision = await h.waitForRevision(created.body.id, created.body.latest_revision_id, [
    "DEPLOYED",
    "DEPLOY_FAILED",
  ]);
  expect(revision.status).toBe("DEPLOY_FAILED");
  expect(revision.status_message).toMatch(/localhost resolves to .*a loopback address/);
  expect(calls).toBe(0);
});

test("an OAuth provider's token URL at an internal address is refused, the field named", async () => {
  const created = await h.api.post("/v2/auth/providers").send({
    provider_id: "internal",
    name: "Internal",
    client_id: "client",
    client_secret: "secret",
    auth_url: "https://idp.example.com/auth",
    token_url: "https://10.0.0.8/token",
  });
  expect(created.status).toBe(422);
  expect(JSON.stringify(created.body)).toMatch(/token_url.*private address|private address.*token_url/);
});
