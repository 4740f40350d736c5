// Uploaded source tarballs, named to clients as the object path `uploads/<deployment>/<upload>.tar.gz`
// and kept by an UploadStorage (a directory, or an S3-compatible bucket). An upload is streamed to a
// partial file in UPLOADS_DIR (never held in memory), counted against the size limit, checked (gzip,
// and a tar whose entries are plain files and directories inside its root), then handed to the
// storage; a URL's second use finds its object there and is refused. A zip (the console's uploads)
// is unpacked with the same rules (zip.ts) and kept as the gzip tarball of its contents.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ConflictError, HttpError, invalid } from "@lgp/server-kit";
import { DiskStorage, S3Storage, type UploadStorage } from "./storage";
import { looksLikeZip, unpackZip } from "./zip";

const REPO_ROOT = path.resolve(__dirname, "../../../..");

/** Where uploads are kept: UPLOADS_DIR, or `.data/uploads` in the repository. */
export function uploadsDirOf(config: { UPLOADS_DIR?: string }): string {
  return config.UPLOADS_DIR ?? path.join(REPO_ROOT, ".data/uploads");
}

/** A zip may unpack to at most this many times the upload limit (a zip bomb stops there). */
export const ZIP_UNPACK_RATIO = 10;

const OBJECT_PATH = /^uploads\/([0-9a-f-]{36})\/([0-9a-f-]{36})\.tar\.gz$/;

/** The configured store: S3 when UPLOADS_S3_BUCKET is set, else the directory. */
export function uploadStoreOf(config: {
  UPLOADS_DIR?: string;
  UPLOAD_MAX_BYTES: number;
  UPLOADS_S3_BUCKET?: string;
  UPLOADS_S3_PREFIX: string;
  UPLOADS_S3_ENDPOINT?: string;
  UPLOADS_S3_REGION: string;
}): UploadStore {
  const dir = uploadsDirOf(config);
  const storage = config.UPLOADS_S3_BUCKET
    ? new S3Storage(
        {
          bucket: config.UPLOADS_S3_BUCKET,
          prefix: config.UPLOADS_S3_PREFIX,
          endpoint: config.UPLOADS_S3_ENDPOINT,
          region: config.UPLOADS_S3_REGION,
        },
        path.join(dir, "s3-cache"),
      )
    : new DiskStorage(dir);
  return new UploadStore(dir, config.UPLOAD_MAX_BYTES, storage);
}

export class UploadStore {
  constructor(
    /** Where uploads are received and checked before the storage keeps them. */
    private readonly stagingDir: string,
    readonly maxBytes: number,
    readonly storage: UploadStorage = new DiskStorage(stagingDir),
  ) {}

  objectPath(deploymentId: string, uploadId: string): string {
    return `uploads/${deploymentId}/${uploadId}.tar.gz`;
  }

  /** The storage key of an object path, if it names an upload of `deploymentId`. */
  private keyOf(objectPath: string, deploymentId: string): string | undefined {
    const match = OBJECT_PATH.exec(objectPath);
    return match && match[1] === deploymentId ? `${match[1]}/${match[2]}.tar.gz` : undefined;
  }

  /** Whether an object path is an upload of `deploymentId` that has arrived. */
  async has(objectPath: string, deploymentId: string): Promise<boolean> {
    const key = this.keyOf(objectPath, deploymentId);
    return key !== undefined && (await this.storage.has(key));
  }

  /** A local file with the bytes of an arrived upload of `deploymentId` (fetched from S3 if need be). */
  async fileOf(objectPath: string, deploymentId: string): Promise<string | undefined> {
    const key = this.keyOf(objectPath, deploymentId);
    return key === undefined ? undefined : this.storage.localFile(key);
  }

  /** Whether a value names an upload (whether or not it exists). */
  static isObjectPath(value: string): boolean {
    return value.startsWith("uploads/");
  }

  async receive(deploymentId: string, uploadId: string, body: Readable): Promise<{ bytes: number }> {
    const key = `${deploymentId}/${uploadId}.tar.gz`;
    if (await this.storage.has(key))
      throw new ConflictError("This upload URL has been used already: ask for a new one");
    const folder = path.join(this.stagingDir, deploymentId);
    await mkdir(folder, { recursive: true });
    const partial = path.join(folder, `${uploadId}.tar.gz.${process.pid}.${Date.now()}.partial`);
    let bytes = 0;
    let head = Buffer.alloc(0);
    const limit = this.maxBytes;
    try {
      await pipeline(
        body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            bytes += chunk.length;
            if (bytes > limit) throw new HttpError(413, `The upload is larger than ${limit} bytes`);
            if (head.length < 4) head = Buffer.concat([head, chunk.subarray(0, 4 - head.length)]);
            yield chunk;
          }
        },
        createWriteStream(partial, { flags: "wx" }),
      );
      let tarball = partial;
      if (looksLikeZip(head)) {
        tarball = `${partial}.tar.gz`;
        await tarballOfZip(partial, tarball, limit * ZIP_UNPACK_RATIO);
      } else if (head[0] !== 0x1f || head[1] !== 0x8b) {
        throw new HttpError(415, "The upload is neither a gzip tarball (.tar.gz) nor a zip archive (.zip)");
      }
      await checkTarball(tarball);
      await this.storage.put(key, tarball);
      return { bytes };
    } finally {
      await rm(partial, { force: true });
      await rm(`${partial}.tar.gz`, { force: true });
    }
  }
}

/** The gzip tarball of a zip's contents, unpacked (checked) into a scratch folder beside it. */
async function tarballOfZip(zip: string, tarball: string, maxUnpackedBytes: number): Promise<void> {
  const scratch = `${zip}.unpacked`;
  await mkdir(scratch);
  try {
    await unpackZip(zip, scratch, maxUnpackedBytes);
    await run("tar", ["-czf", tarball, "-C", scratch, "."], "packing the zip's contents");
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function run(command: string, args: string[], what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed: ${err.trim()}`))));
  });
}

/** Lists the tarball (`tar -tvzf`): only files and directories, every name inside the root. */
async function checkTarball(file: string): Promise<void> {
  const listing = await new Promise<string>((resolve, reject) => {
    const child = spawn("tar", ["-tvzf", file], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(invalid(["body"], `The upload is not a readable tarball: ${err.trim()}`)),
    );
  });
  const names = await new Promise<string>((resolve, reject) => {
    const child = spawn("tar", ["-tzf", file], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
  // Both listings come in the tarball's order: the n-th type letter is the n-th name's.
  const entries = names.split("\n").filter(Boolean);
  listing
    .split("\n")
    .filter(Boolean)
    .forEach((line, index) => {
      if (line[0] !== "-" && line[0] !== "d")
        throw invalid(
          ["body"],
          `The tarball holds a link or special file (${entries[index] ?? line.slice(0, 1)}): only files and directories are accepted`,
        );
    });
  for (const name of entries) {
    if (name.startsWith("/") || name.split("/").includes(".."))
      throw invalid(["body"], `The tarball holds a path outside its root: ${name}`);
  }
}
