// A .zip upload (the console accepts one beside .tar.gz): the same signed URL and PATCH as the CLI's
// tarball; the zip is unpacked with the tarball's rules and kept as the gzip tarball of its contents,
// which is what the deployer unpacks. Zips are made by Python's zipfile (the same format as
// Finder's, Windows' and Info-ZIP's), crafted where a refusal needs it: links, paths outside the
// root, encryption, other methods, a checksum or a size that lies, a zip bomb, ZIP64-free limits.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { uploadStoreOf } from "../../src/uploads";
import { startHarness, type Harness } from "../deployments/harness";

const EXAMPLES = path.resolve(__dirname, "../../../../examples");
const MAX_BYTES = 2 * 1024 * 1024;
let h: Harness;
let work: string;
let uploadsDir: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "lgp-zip-test-"));
  uploadsDir = path.join(work, "uploads");
  h = await startHarness({ env: { UPLOADS_DIR: uploadsDir, UPLOAD_MAX_BYTES: String(MAX_BYTES) } });
});
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

// Writes a zip from a list of entries: {name, text?, mode?, method?, repeat?}. A mode is
// a Unix st_mode (0o120777 a link); method "bzip2" is one zip knows but the control plane refuses.
const WRITE_ZIP = `
import json, sys, zipfile
out, spec = sys.argv[1], json.loads(sys.argv[2])
methods = {"stored": zipfile.ZIP_STORED, "deflated": zipfile.ZIP_DEFLATED, "bzip2": zipfile.ZIP_BZIP2}
with zipfile.ZipFile(out, "w") as archive:
    for entry in spec:
        info = zipfile.ZipInfo(entry["name"])
        info.create_system = 3
        info.external_attr = entry.get("mode", 0o100644) << 16
        info.compress_type = methods[entry.get("method", "deflated")]
        archive.writestr(info, entry.get("text", "") * entry.get("repeat", 1))
`;

interface ZipEntry {
  name: string;
  text?: string;
  mode?: number;
  method?: "stored" | "deflated" | "bzip2";
  repeat?: number;
}

function zipOf(name: string, entries: ZipEntry[]): Buffer {
  const file = path.join(work, `${name}.zip`);
  execFileSync("python3", ["-c", WRITE_ZIP, file, JSON.stringify(entries)], { stdio: ["ignore", "ignore", "pipe"] });
  return readFileSync(file);
}

/** A zip of a folder as `python3 -m zipfile -c` makes it (what any zip tool does). */
function zipOfFolder(name: string, dir: string, entries: string[]): Buffer {
  const file = path.join(work, `${name}.zip`);
  execFileSync("python3", ["-m", "zipfile", "-c", file, ...entries], { cwd: dir });
  return readFileSync(file);
}

async function uploadUrl(name: string): Promise<{ id: string; urlPath: string; objectPath: string }> {
  const created = await h.api.post("/v2/deployments").send({
    name,
    source: "internal_source",
    source_config: { deployment_type: "dev" },
    source_revision_config: {},
  });
  expect(created.status).toBe(201);
  const answer = await h.api.post(`/v2/deployments/${created.body.id}/upload-url`);
  expect(answer.status).toBe(200);
  expect(answer.body.max_bytes).toBe(MAX_BYTES);
  return {
    id: created.body.id,
    urlPath: new URL(answer.body.upload_url).pathname,
    objectPath: answer.body.object_path,
  };
}

const put = (urlPath: string, body: Buffer, type = "application/zip") =>
  h.raw.put(urlPath).set("Content-Type", type).send(body);

/** Every file under `dir`, relative, with its bytes. */
function filesOf(dir: string, prefix = ""): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const name = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(files, filesOf(dir, name));
    else files[name] = readFileSync(path.join(dir, name)).toString("base64");
  }
  return files;
}

it("keeps a zip of examples/ as the gzip tarball of its files, which a PATCH deploys", async () => {
  const { id, urlPath, objectPath } = await uploadUrl("zip-ok");
  const body = zipOfFolder("examples", EXAMPLES, ["langgraph.json", "src"]);
  const stored = await put(urlPath, body);
  expect(stored.status).toBe(200);
  expect(stored.body).toEqual({ object_path: objectPath, bytes: body.length });
  expect((await put(urlPath, body)).status).toBe(409);

  // What the deployer unpacks: the tarball holds the zip's files, byte for byte.
  const file = await uploadStoreOf(h.config).fileOf(objectPath, id);
  expect(readFileSync(file!).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  const unpacked = path.join(work, "unpacked");
  mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", file!, "-C", unpacked]);
  const expected = { ...filesOf(EXAMPLES, "src"), "langgraph.json": filesOf(EXAMPLES)["langgraph.json"] };
  expect(filesOf(unpacked)).toEqual(expected);

  const patched = await h.api.patch(`/v2/deployments/${id}`).send({
    revision_source: "internal_source",
    source_revision_config: { source_tarball_path: objectPath, langgraph_config_path: "langgraph.json" },
  });
  expect(patched.status).toBe(200);
  expect(patched.body.latest_revision_id).toEqual(expect.any(String));
});

it("keeps executable bits and empty files, and leaves out macOS's __MACOSX metadata", async () => {
  const { id, urlPath, objectPath } = await uploadUrl("zip-modes");
  const body = zipOf("modes", [
    { name: "project/", mode: 0o040755 },
    { name: "project/langgraph.json", text: "{}" },
    { name: "project/run.sh", text: "#!/bin/sh\n", mode: 0o100755, method: "stored" },
    { name: "project/empty.txt" },
    { name: "__MACOSX/project/._run.sh", text: "resource fork" },
  ]);
  expect((await put(urlPath, body)).status).toBe(200);
  const listing = execFileSync("tar", ["-tvzf", (await uploadStoreOf(h.config).fileOf(objectPath, id))!]).toString();
  expect(listing).toMatch(/^-rwxr-xr-x .* \.\/project\/run\.sh$/m);
  expect(listing).toMatch(/^-rw-r--r-- .* 0 .* \.\/project\/empty\.txt$/m);
  expect(listing).not.toMatch(/MACOSX/);
});

it("refuses what is neither gzip nor zip with a sentence saying both (415)", async () => {
  const { urlPath } = await uploadUrl("zip-neither");
  const answer = await put(urlPath, Buffer.from("a plain text file"), "application/octet-stream");
  expect(answer.status).toBe(415);
  expect(answer.body.detail).toBe("The upload is neither a gzip tarball (.tar.gz) nor a zip archive (.zip)");
});

describe("refuses an unsafe or damaged zip (422), keeping nothing", () => {
  const linkMode = 0o120777;
  const cases: [string, () => Buffer, RegExp][] = [
    [
      "a symbolic link",
      () =>
        zipOf("link", [
          { name: "langgraph.json", text: "{}" },
          { name: "passwd", text: "/etc/passwd", mode: linkMode },
        ]),
      /holds a link or special file \(passwd\)/,
    ],
    [
      "a path outside its root",
      () => zipOf("escape", [{ name: "../escape.txt", text: "x" }]),
      /path outside its root: \.\.\/escape\.txt/,
    ],
    [
      "an absolute path",
      () => zipOf("absolute", [{ name: "/etc/cron.d/x", text: "x" }]),
      /path outside its root: \/etc\/cron\.d\/x/,
    ],
    ["a Windows path", () => zipOf("windows", [{ name: "src\\..\\..\\x", text: "x" }]), /path outside its root/],
    [
      "an encrypted entry",
      () => {
        // Python writes no encryption: the flag (bit 0 of the central header's flags, offset 8) is set here.
        const body = zipOf("encrypted", [{ name: "secret.txt", text: "x" }]);
        const header = body.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
        body.writeUInt16LE(body.readUInt16LE(header + 8) | 1, header + 8);
        return body;
      },
      /is encrypted \(secret\.txt\)/,
    ],
    [
      "another compression method",
      () => zipOf("bzip2", [{ name: "a.txt", text: "abc", method: "bzip2" }]),
      /compressed with method 12/,
    ],
    [
      "a name given twice",
      () =>
        zipOf("twice", [
          { name: "a.txt", text: "1" },
          { name: "a.txt", text: "2" },
        ]),
      /holds a\.txt more than once/,
    ],
    ["no entries", () => zipOf("empty", []), /is empty/],
    [
      "more than ten times the upload limit unpacked",
      () => zipOf("bomb", [{ name: "zeros.bin", text: "0", repeat: 10 * MAX_BYTES + 1 }]),
      new RegExp(`unpacks to more than ${10 * MAX_BYTES} bytes`),
    ],
    [
      "a checksum that does not match",
      () => {
        const body = zipOf("crc", [{ name: "a.txt", text: "hello world", method: "stored" }]);
        body[body.indexOf("hello world")] = "j".charCodeAt(0);
        return body;
      },
      /damaged: a\.txt does not match its checksum/,
    ],
    [
      "a size smaller than its data",
      () => {
        const body = zipOf("lying", [{ name: "a.txt", text: "x", repeat: 5000 }]);
        // The central directory's uncompressed size (offset 24 of its header) says 10 bytes.
        body.writeUInt32LE(10, body.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
        return body;
      },
      /a\.txt unpacks to more than it declares/,
    ],
    [
      "a truncated file",
      () => zipOf("truncated", [{ name: "a.txt", text: "some text", repeat: 100 }]).subarray(0, 60),
      /damaged: its central directory is missing/,
    ],
  ];
  it.each(cases)("%s", async (_what, make, message) => {
    const { id, urlPath } = await uploadUrl(`zip-refused-${Math.random().toString(36).slice(2, 8)}`);
    const answer = await put(urlPath, make());
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0].msg).toMatch(message);
    expect(readdirSync(path.join(uploadsDir, id))).toEqual([]);
  });
});

it("answers a zip larger than the limit 413 before unpacking it", async () => {
  const { urlPath } = await uploadUrl("zip-large");
  const random = path.join(work, "random.bin");
  writeFileSync(random, randomBytes(MAX_BYTES + 1024));
  const body = zipOfFolder("large", work, ["random.bin"]);
  expect(body.length).toBeGreaterThan(MAX_BYTES);
  expect((await put(urlPath, body)).status).toBe(413);
});
