// Uploads kept in an S3-compatible bucket (UPLOADS_S3_BUCKET): the PUT is checked on this machine
// as with a directory, then streamed to the bucket; nothing stays in UPLOADS_DIR, a second use is
// refused because the object is there, the PATCH finds it, the local deployer gets its bytes back,
// and a refused tarball never reaches the bucket. The bucket is served by s3rver, an S3 server
// on loopback, spoken to with the AWS SDK as any S3 service would be.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
// s3rver ships no types: its constructor and run/close are all this test uses.
const S3rver = require("s3rver") as new (options: Record<string, unknown>) => {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
};
import { uploadStoreOf } from "../../src/uploads";
import { startHarness, type Harness } from "../deployments/harness";

const EXAMPLES = path.resolve(__dirname, "../../../../examples");
const BUCKET = "lgp-uploads-test";
let h: Harness;
let work: string;
let uploadsDir: string;
let server: InstanceType<typeof S3rver>;
let s3: S3Client;
const savedEnv = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "lgp-s3-test-"));
  uploadsDir = path.join(work, "uploads");
  server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: path.join(work, "s3"),
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // The SDK's own credential chain, as an operator sets it (s3rver's fixed pair).
  process.env.AWS_ACCESS_KEY_ID = "S3RVER";
  process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
  s3 = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true });
  h = await startHarness({
    env: {
      UPLOADS_DIR: uploadsDir,
      UPLOADS_S3_BUCKET: BUCKET,
      UPLOADS_S3_ENDPOINT: endpoint,
      UPLOADS_S3_PREFIX: "team-a/",
      UPLOAD_MAX_BYTES: String(2 * 1024 * 1024),
    },
  });
});
afterAll(async () => {
  await h?.close();
  s3?.destroy();
  await server?.close();
  process.env.AWS_ACCESS_KEY_ID = savedEnv.id;
  process.env.AWS_SECRET_ACCESS_KEY = savedEnv.secret;
  if (savedEnv.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
  if (savedEnv.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  rmSync(work, { recursive: true, force: true });
});

function tarball(name: string, dir: string, entries: string[]): Buffer {
  const file = path.join(work, `${name}.tar.gz`);
  execFileSync("tar", ["-czf", file, "-C", dir, ...entries]);
  return readFileSync(file);
}

async function objectKeys(): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

async function uploadUrlOf(name: string): Promise<{ id: string; urlPath: string; objectPath: string }> {
  const created = await h.api.post("/v2/deployments").send({
    name,
    source: "internal_source",
    source_config: { deployment_type: "dev" },
    source_revision_config: { langgraph_config_path: "langgraph.json" },
  });
  const answer = await h.api.post(`/v2/deployments/${created.body.id}/upload-url`);
  expect(answer.status).toBe(200);
  return {
    id: created.body.id,
    urlPath: new URL(answer.body.upload_url).pathname,
    objectPath: answer.body.object_path,
  };
}

it("streams a checked tarball to the bucket, refuses its second use, and gives the deployer its bytes back", async () => {
  const { id, urlPath, objectPath } = await uploadUrlOf("s3-upload");
  const body = tarball("examples", EXAMPLES, ["langgraph.json", "src"]);
  const stored = await h.raw.put(urlPath).set("Content-Type", "application/gzip").send(body);
  expect(stored.status).toBe(200);

  const key = `team-a/${objectPath.slice("uploads/".length)}`;
  expect(await objectKeys()).toEqual([key]);
  const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(body);
  // Received and checked here, kept only in the bucket.
  expect(readdirSync(path.join(uploadsDir, id))).toEqual([]);

  expect((await h.raw.put(urlPath).set("Content-Type", "application/gzip").send(body)).status).toBe(409);
  const patched = await h.api.patch(`/v2/deployments/${id}`).send({
    revision_source: "internal_source",
    source_revision_config: { source_tarball_path: objectPath, langgraph_config_path: "langgraph.json" },
  });
  expect(patched.status).toBe(200);

  // What the local deployer unpacks: a file with the object's bytes, fetched from the bucket.
  const store = uploadStoreOf(h.config);
  expect(store.storage.kind).toBe("s3");
  const file = await store.fileOf(objectPath, id);
  expect(readFileSync(file!)).toEqual(body);
  expect(await store.fileOf(objectPath.replace(/[0-9a-f]{4}\.tar\.gz$/, "0000.tar.gz"), id)).toBeUndefined();
});

it("keeps a refused tarball out of the bucket", async () => {
  const before = await objectKeys();
  const tree = path.join(work, "tree");
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, "a.txt"), "a");
  symlinkSync("/etc/passwd", path.join(tree, "passwd"));
  const { id, urlPath } = await uploadUrlOf("s3-refused");
  const refused = await h.raw
    .put(urlPath)
    .set("Content-Type", "application/gzip")
    .send(tarball("link", tree, ["a.txt", "passwd"]));
  expect(refused.status).toBe(422);
  expect(await objectKeys()).toEqual(before);
  expect(readdirSync(path.join(uploadsDir, id))).toEqual([]);
});
