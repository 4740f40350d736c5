// langgraph deploy's source upload, replayed over HTTP: an upload URL for an internal_source
// deployment, the gzip tarball PUT there (no API key: the signed URL is the credential), and the
// PATCH naming the object path, which starts the revision. Refusals: another source, another
// tenant, a forged or expired URL, a used one, too large, not gzip, links and paths outside the
// root; nothing is extracted or kept for them.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateKey } from "../../src/secrets/cipher";
import { signUpload, uploadSigningKey } from "../../src/uploads";
import { dockerBody, startHarness, type Harness } from "../deployments/harness";

const EXAMPLES = path.resolve(__dirname, "../../../../examples");
const SECRETS_KEY = generateKey();
let h: Harness;
let work: string;
let uploadsDir: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "lgp-uploads-test-"));
  uploadsDir = path.join(work, "uploads");
  h = await startHarness({
    env: {
      UPLOADS_DIR: uploadsDir,
      UPLOAD_MAX_BYTES: String(2 * 1024 * 1024),
      PUBLIC_URL: "http://control-plane.test:8100",
      SECRETS_ENCRYPTION_KEY: SECRETS_KEY,
    },
  });
});
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A gzip tarball of `dir` (tar's own options after it, e.g. a transform). */
function tarball(name: string, dir: string, entries: string[], extra: string[] = []): Buffer {
  const file = path.join(work, `${name}.tar.gz`);
  execFileSync("tar", ["-czf", file, ...extra, "-C", dir, ...entries]);
  return readFileSync(file);
}

async function sourceDeployment(name: string): Promise<string> {
  const created = await h.api.post("/v2/deployments").send({
    name,
    source: "internal_source",
    source_config: { deployment_type: "dev" },
    source_revision_config: { langgraph_config_path: "langgraph.json" },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function uploadUrl(deploymentId: string): Promise<{ path: string; objectPath: string }> {
  const answer = await h.api.post(`/v2/deployments/${deploymentId}/upload-url`);
  expect(answer.status).toBe(200);
  expect(answer.body.upload_url).toMatch(/^http:\/\/control-plane\.test:8100\/v2\/uploads\/[\w-]+\.[\w-]+$/);
  return { path: new URL(answer.body.upload_url).pathname, objectPath: answer.body.object_path };
}

const put = (urlPath: string, body: Buffer, type = "application/gzip") =>
  h.raw.put(urlPath).set("Content-Type", type).send(body);

it("uploads a tarball of examples/ and starts the revision that names it", async () => {
  const id = await sourceDeployment("upload-ok");
  const { path: urlPath, objectPath } = await uploadUrl(id);
  expect(objectPath).toMatch(new RegExp(`^uploads/${id}/[0-9a-f-]{36}\\.tar\\.gz$`));
  const body = tarball("examples", EXAMPLES, ["langgraph.json", "src"]);
  const stored = await put(urlPath, body);
  expect(stored.status).toBe(200);
  expect(stored.body).toEqual({ object_path: objectPath, bytes: body.length });
  // Single use.
  const again = await put(urlPath, body);
  expect(again.status).toBe(409);

  const patched = await h.api.patch(`/v2/deployments/${id}`).send({
    revision_source: "internal_source",
    source_revision_config: { source_tarball_path: objectPath, langgraph_config_path: "langgraph.json" },
  });
  expect(patched.status).toBe(200);
  const revision = (await h.api.get(`/v2/deployments/${id}/revisions?limit=1`)).body.resources[0];
  expect(revision).toMatchObject({
    id: patched.body.latest_revision_id,
    source_revision_config: { source_tarball_path: objectPath, langgraph_config_path: "langgraph.json" },
  });
  // The file is the tarball as sent, under UPLOADS_DIR.
  expect(readFileSync(path.join(uploadsDir, id, objectPath.split("/").pop()!))).toEqual(body);
});

it("refuses an object path that is not an arrived upload of this deployment (422)", async () => {
  const id = await sourceDeployment("upload-other");
  const other = await sourceDeployment("upload-other-2");
  const { objectPath: notSent } = await uploadUrl(id);
  const { path: urlPath, objectPath: othersPath } = await uploadUrl(other);
  expect((await put(urlPath, tarball("small", EXAMPLES, ["langgraph.json"]))).status).toBe(200);
  for (const value of [notSent, othersPath, `uploads/${id}/../../etc.tar.gz`]) {
    const refused = await h.api
      .patch(`/v2/deployments/${id}`)
      .send({ source_revision_config: { source_tarball_path: value, langgraph_config_path: "langgraph.json" } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ["body", "source_revision_config", "source_tarball_path"] });
  }
});

it("gives upload URLs only for internal_source deployments of the caller's tenant", async () => {
  const docker = (await h.api.post("/v2/deployments").send(dockerBody("upload-docker"))).body.id;
  const refused = await h.api.post(`/v2/deployments/${docker}/upload-url`);
  expect(refused.status).toBe(400);
  expect(refused.body.detail).toMatch(/only available for 'internal_source'/);
  expect((await h.api.post(`/v2/deployments/${randomUUID()}/upload-url`)).status).toBe(404);
  expect((await h.raw.post(`/v2/deployments/${docker}/upload-url`)).status).toBe(401);
});

it("refuses forged, expired, too large, non-gzip and unsafe uploads, keeping nothing", async () => {
  const id = await sourceDeployment("upload-refusals");
  const key = uploadSigningKey(SECRETS_KEY);
  const forged = signUpload(
    { deploymentId: id, uploadId: randomUUID(), expiresAt: Date.now() + 60_000 },
    Buffer.alloc(32),
  );
  const expired = signUpload({ deploymentId: id, uploadId: randomUUID(), expiresAt: Date.now() - 1 }, key);
  const small = tarball("ok-small", EXAMPLES, ["langgraph.json"]);
  expect((await put(`/v2/uploads/${forged}`, small)).body).toEqual({ detail: "This upload URL is not valid" });
  expect((await put(`/v2/uploads/${expired}`, small)).status).toBe(403);

  const big = Buffer.concat([small, Buffer.alloc(3 * 1024 * 1024, 1)]);
  expect((await put((await uploadUrl(id)).path, big)).status).toBe(413);
  expect((await put((await uploadUrl(id)).path, Buffer.from("plain text, not gzip"))).status).toBe(415);

  // A symbolic link, and a path outside the root.
  const tree = path.join(work, "tree");
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, "a.txt"), "a");
  symlinkSync("/etc/passwd", path.join(tree, "passwd"));
  const withLink = tarball("link", tree, ["a.txt", "passwd"]);
  const linkAnswer = await put((await uploadUrl(id)).path, withLink);
  expect(linkAnswer.status).toBe(422);
  expect(JSON.stringify(linkAnswer.body)).toMatch(/link or special file/);
  const escaping = tarball("escape", tree, ["a.txt"], ["-P", "--transform", "s,^,../,"]);
  expect(execFileSync("tar", ["-tzf", path.join(work, "escape.tar.gz")]).toString()).toMatch(/^\.\.\//);
  const escapeAnswer = await put((await uploadUrl(id)).path, escaping);
  expect(escapeAnswer.status).toBe(422);
  expect(JSON.stringify(escapeAnswer.body)).toMatch(/outside its root/);
  // Nothing kept for any of them.
  expect(readdirSync(path.join(uploadsDir, id))).toEqual([]);
});
