// Uploaded source tarballs, on disk: `<dir>/<deployment>/<upload>.tar.gz`, named to clients as
// the object path `uploads/<deployment>/<upload>.tar.gz`. An upload is streamed to a partial file
// (never held in memory), counted against the size limit, checked (gzip, and a tar whose entries
// are plain files and directories inside its root), then moved into place; a URL's second use
// finds its file there and is refused.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { link, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ConflictError, HttpError, invalid } from "@lgp/server-kit";

const REPO_ROOT = path.resolve(__dirname, "../../../..");

/** Where uploads are kept: UPLOADS_DIR, or `.data/uploads` in the repository. */
export function uploadsDirOf(config: { UPLOADS_DIR?: string }): string {
  return config.UPLOADS_DIR ?? path.join(REPO_ROOT, ".data/uploads");
}

const OBJECT_PATH = /^uploads\/([0-9a-f-]{36})\/([0-9a-f-]{36})\.tar\.gz$/;

export class UploadStore {
  constructor(
    private readonly dir: string,
    readonly maxBytes: number,
  ) {}

  objectPath(deploymentId: string, uploadId: string): string {
    return `uploads/${deploymentId}/${uploadId}.tar.gz`;
  }

  /** The file of an object path, if it is an upload of `deploymentId` that has arrived. */
  fileOf(objectPath: string, deploymentId: string): string | undefined {
    const match = OBJECT_PATH.exec(objectPath);
    if (!match || match[1] !== deploymentId) return undefined;
    const file = path.join(this.dir, match[1], `${match[2]}.tar.gz`);
    return existsSync(file) ? file : undefined;
  }

  /** Whether a value names an upload (whether or not it exists). */
  static isObjectPath(value: string): boolean {
    return value.startsWith("uploads/");
  }

  async receive(deploymentId: string, uploadId: string, body: Readable): Promise<{ bytes: number }> {
    const folder = path.join(this.dir, deploymentId);
    const file = path.join(folder, `${uploadId}.tar.gz`);
    if (existsSync(file)) throw new ConflictError("This upload URL has been used already: ask for a new one");
    await mkdir(folder, { recursive: true });
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
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
      try {
        await link(partial, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST")
          throw new ConflictError("This upload URL has been used already: ask for a new one");
        throw error;
      }
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
