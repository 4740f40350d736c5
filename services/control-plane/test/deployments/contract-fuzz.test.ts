// Every operation of the control plane's contract, sent requests of every shape (ids real, unknown
// and malformed; query values and bodies of any type, over the operation's own field names): no
// answer is a 5xx, none hangs. Responses are also checked against the contract in tests.
import { controlPlaneApi } from "@lgp/contracts";
import { fuzzOperations } from "@lgp/server-kit/src/testing";
import { dockerBody, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { OAUTH_ALLOW_HTTP_LOOPBACK: "true" } });
});
afterAll(async () => {
  await h.close();
});

test("no operation answers a 5xx or hangs, whatever it is sent", async () => {
  const deployment = (await h.api.post("/v2/deployments").send(dockerBody("fuzzed"))).body;
  const provider = await h.api.post("/v2/auth/providers").send({
    provider_id: "fuzzed",
    name: "Fuzzed",
    client_id: "client",
    client_secret: "secret",
    auth_url: "http://127.0.0.1:9/auth",
    token_url: "http://127.0.0.1:9/token",
  });
  expect(provider.status).toBe(201);
  const listener = await h.api
    .post("/v2/listeners")
    .send({ compute_type: "k8s", compute_id: "fuzzed", compute_config: { k8s_namespaces: ["fuzzed"] } });
  expect(listener.status).toBe(201);
  const { requests, failures } = await fuzzOperations({
    baseUrl: h.url,
    document: controlPlaneApi,
    headers: { "X-Api-Key": h.apiKey },
    pathValues: {
      deployment_id: [deployment.id],
      project_id: [deployment.id],
      revision_id: [deployment.latest_revision_id],
      provider_id: ["fuzzed"],
      listener_id: [listener.body.id],
      log_type: ["build", "deploy"],
    },
    samples: 15,
  });
  expect(requests).toBeGreaterThan(300);
  expect(failures).toEqual([]);
}, 120_000);
