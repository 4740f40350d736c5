import { dockerBody } from "../deployments/harness";
import { startReconcilerHarness, type ReconcilerHarness } from "./setup";

// The deployment database cannot be created: CREATE_FAILED, with the reason in the revision log.
let h: ReconcilerHarness;
beforeAll(async () => {
  h = await startReconcilerHarness({
    timeoutSeconds: 5,
    // Nothing listens on port 9: creating a deployment's database fails.
    env: { DEPLOYMENTS_DATABASE_URL: "postgresql://postgres@127.0.0.1:9/postgres" },
  });
});
afterAll(async () => {
  await h.close();
});

it("ends in CREATE_FAILED when the deployment's database cannot be created", async () => {
  const created = (await h.api.post("/v2/deployments").send(dockerBody("no-database"))).body;
  const revision = await h.waitForRevision(created.id, created.latest_revision_id, [
    "CREATE_FAILED",
    "DEPLOYED",
    "DEPLOY_FAILED",
  ]);
  expect(revision).toMatchObject({
    status: "CREATE_FAILED",
    status_message: expect.stringMatching(/could not create the deployment's database/),
  });
  expect((await h.api.get(`/v2/deployments/${created.id}`)).body.status).toBe("AWAITING_DATABASE");
  const errors = (
    await h.api.get(`/v2/deployments/${created.id}/revisions/${created.latest_revision_id}/logs/deploy?level=error`)
  ).body.logs;
  expect(errors.map((line: { message: string }) => line.message)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^status CREATING -> CREATE_FAILED: could not create/)]),
  );
});
