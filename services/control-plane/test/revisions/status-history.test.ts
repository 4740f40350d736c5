import { RevisionRepository } from "../../src/revisions/repository";
import { dockerBody } from "../deployments/harness";
import { startOkServer, startReconcilerHarness, type ReconcilerHarness } from "../reconciler/setup";

// A revision's status_history: its creation, then every status change the reconciler made.
let h: ReconcilerHarness;
let ok: { url: string; close(): Promise<void> };
beforeAll(async () => {
  ok = await startOkServer();
  h = await startReconcilerHarness({ timeoutSeconds: 5 });
});
afterAll(async () => {
  await h.close();
  await ok.close();
});

interface Change {
  status: string;
  at: string;
  message: string | null;
}

async function create(body: Record<string, unknown>) {
  const res = await h.api.post("/v2/deployments").send(body);
  expect(res.status).toBe(201);
  return res.body as { id: string; latest_revision_id: string };
}

function expectNonDecreasing(history: Change[]): void {
  const times = history.map((change) => Date.parse(change.at));
  expect(times.every((time) => Number.isFinite(time))).toBe(true);
  expect(times).toEqual([...times].sort((a, b) => a - b));
}

it("a revision the reconciler deployed answers every transition, in order, from its creation", async () => {
  const created = await create(dockerBody("history-ok", { source_config: { custom_url: ok.url } }));
  const revision = await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYED", "DEPLOY_FAILED"]);
  expect(revision.status).toBe("DEPLOYED");
  const history = revision.status_history as Change[];
  expect(history.map((change) => change.status)).toEqual([
    "CREATING",
    "QUEUED",
    "AWAITING_DEPLOY",
    "DEPLOYING",
    "DEPLOYED",
  ]);
  expectNonDecreasing(history);
  expect(history[0]).toEqual({ status: "CREATING", at: revision.created_at, message: null });
  // The last change is the one that set updated_at, in the same statement.
  expect(history.at(-1)).toEqual({ status: "DEPLOYED", at: revision.updated_at, message: null });
  // The list answers the same history.
  const listed = (await h.api.get(`/v2/deployments/${created.id}/revisions`)).body.resources[0];
  expect(listed.status_history).toEqual(history);
});

it("a failed revision's last entry carries the failure's message", async () => {
  const created = await create(dockerBody("history-failed", { source: "internal_docker", source_config: {} }));
  const revision = await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYED", "DEPLOY_FAILED"]);
  expect(revision.status).toBe("DEPLOY_FAILED");
  const history = revision.status_history as Change[];
  expect(history.map((change) => change.status)).toEqual([
    "CREATING",
    "QUEUED",
    "AWAITING_DEPLOY",
    "DEPLOYING",
    "DEPLOY_FAILED",
  ]);
  expectNonDecreasing(history);
  expect(history.at(-1)).toEqual({
    status: "DEPLOY_FAILED",
    at: revision.updated_at,
    message: expect.stringMatching(/cannot run container images/),
  });
  expect(history.at(-1)!.message).toBe(revision.status_message);
  expect(history.slice(0, -1).every((change) => change.message === null)).toBe(true);
});

it("records a change only when the guarded transition moves the revision, once however many race", async () => {
  await h.runtime.close();
  try {
    const created = await create(dockerBody("history-guarded", { source_config: { custom_url: ok.url } }));
    const base = `/v2/deployments/${created.id}/revisions/${created.latest_revision_id}`;
    expect((await h.api.get(base)).body.status_history).toEqual([
      { status: "CREATING", at: expect.any(String), message: null },
    ]);
    const repository = new RevisionRepository(h.db);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => repository.transition(created.latest_revision_id, "CREATING", "QUEUED")),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(
      await repository.transition(created.latest_revision_id, "CREATING", "CREATE_FAILED", { statusMessage: "no" }),
    ).toBe(false);
    expect(
      await repository.transition(created.latest_revision_id, ["CREATING", "QUEUED"], "INTERRUPTED", {
        statusMessage: "stopped by the test",
      }),
    ).toBe(true);
    const revision = (await h.api.get(base)).body;
    expect(revision).toMatchObject({ status: "INTERRUPTED", status_message: "stopped by the test" });
    expect(revision.status_history.map((change: Change) => [change.status, change.message])).toEqual([
      ["CREATING", null],
      ["QUEUED", null],
      ["INTERRUPTED", "stopped by the test"],
    ]);
    expectNonDecreasing(revision.status_history);
  } finally {
    await h.restart();
  }
});

it("a revision from before the history was kept answers its creation and its current status", async () => {
  const created = await create(dockerBody("history-legacy", { source: "internal_docker", source_config: {} }));
  await h.waitForRevision(created.id, created.latest_revision_id, ["DEPLOYED", "DEPLOY_FAILED"]);
  // What the migration leaves on an existing row.
  await h.db.$executeRaw`UPDATE revisions SET status_history = '[]' WHERE id = ${created.latest_revision_id}::uuid`;
  const revision = (await h.api.get(`/v2/deployments/${created.id}/revisions/${created.latest_revision_id}`)).body;
  expect(revision.status_history).toEqual([
    { status: "CREATING", at: revision.created_at, message: null },
    { status: "DEPLOY_FAILED", at: revision.updated_at, message: revision.status_message },
  ]);
});
