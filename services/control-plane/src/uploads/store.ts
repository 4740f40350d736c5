// Uploaded source tarballs, named to clients as the object path `uploads/<deployment>/<upload>.tar.gz`
// and kept by an UploadStorage (a directory, or an S3-compatible bucket). An upload is streamed to a
// partial file in UPLOADS_DIR (never held in memory), counted against the size limit, checked (gzip,
// and a tar whose entries are plain files and directories inside its root), then handed to the
// storage; a URL's second use finds its object there and is refused.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ConflictError, HttpError, invalid } from "@lgp/server-kit";
import { DiskStorage, S3Storage, type UploadStorage } from "./storage";

const REPO_ROOT = path.resolve(__dirname, "../../../..");

/** Where uploads are kept: UPLOADS_DIR, or `.data/uploads` in the repository. */
export function uploadsDirOf(config: { UPLOADS_DIR?: string }): string {
  return config.UPLOADS_DIR ?? path.join(REPO_ROOT, ".data/uploads");
}

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
            if (head.length < 2) head = Buffer.concat([head, chunk.subarray(0, 2)]);
            yield chunk;
          }
        },
        createWriteStream(partial, { flags: "wx" }),
      );
      if (head[0] !== 0x1f || head[1] !== 0x8b) throw new HttpError(415, "The upload is not a gzip tarball");
      await checkTarball(partial);
      await this.storage.put(key, partial);
      return { bytes };
    } finally {
      await rm(partial, { force: true });
    }
  }
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
  for (const line of listing.split("\n").filter(Boolean)) {
    if (line[0] !== "-" && line[0] !== "d")
      throw invalid(
        ["body"],
        `The tarball holds a link or special file (${line.slice(0, 1)}): only files and directories are accepted`,
      );
  }
  for (const name of names.split("\n").filter(Boolean)) {
    if (name.startsWith("/") || name.split("/").includes(".."))
      throw invalid(["body"], `The tarball holds a path outside its root: ${name}`);
  }
}
