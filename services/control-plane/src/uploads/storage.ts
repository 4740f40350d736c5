// Where checked upload tarballs are kept, by key `<deployment>/<upload>.tar.gz`: a directory
// (UPLOADS_DIR), or an S3-compatible bucket when UPLOADS_S3_BUCKET is set, so several control plane
// replicas, and deployers on other machines, see every upload.
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { link, mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { NotFound, S3Client, GetObjectCommand, HeadObjectCommand, S3ServiceException } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { ConflictError } from "@lgp/server-kit";

export interface UploadStorage {
  readonly kind: "disk" | "s3";
  has(key: string): Promise<boolean>;
  /** Keeps a checked tarball under `key`; a key already there is a ConflictError (the URL's second use). */
  put(key: string, file: string): Promise<void>;
  /** A file on this machine holding the object's bytes (what the local deployer unpacks); undefined if absent. */
  localFile(key: string): Promise<string | undefined>;
}

const USED = "This upload URL has been used already: ask for a new one";

export class DiskStorage implements UploadStorage {
  readonly kind = "disk" as const;

  constructor(private readonly dir: string) {}

  async has(key: string): Promise<boolean> {
    return existsSync(path.join(this.dir, key));
  }

  async put(key: string, file: string): Promise<void> {
    const target = path.join(this.dir, key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      // A hard link either creates the name or fails: two uses of one URL cannot both succeed.
      await link(file, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new ConflictError(USED);
      throw error;
    }
  }

  async localFile(key: string): Promise<string | undefined> {
    const file = path.join(this.dir, key);
    return existsSync(file) ? file : undefined;
  }
}

export interface S3Settings {
  bucket: string;
  /** Key prefix inside the bucket. */
  prefix: string;
  /** An S3-compatible endpoint (MinIO, Ceph, R2...); unset: AWS. */
  endpoint?: string;
  region: string;
}

export class S3Storage implements UploadStorage {
  readonly kind = "s3" as const;
  private readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    /** Where downloaded objects are kept on this machine for the local deployer. */
    private readonly cacheDir: string,
  ) {
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
      // Plain checksummed PUTs rather than aws-chunked streaming: what every S3-compatible server accepts.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private keyOf(key: string): string {
    return `${this.settings.prefix}${key}`;
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }));
      return true;
    } catch (error) {
      if (error instanceof NotFound || (error as S3ServiceException).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  }

  async put(key: string, file: string): Promise<void> {
    if (await this.has(key)) throw new ConflictError(USED);
    try {
      // Streamed from the checked file (multipart beyond 5 MB); `If-None-Match: *` makes a second
      // writer of the same key fail where the server supports conditional writes.
      await new Upload({
        client: this.client,
        params: {
          Bucket: this.settings.bucket,
          Key: this.keyOf(key),
          Body: createReadStream(file),
          ContentType: "application/gzip",
          IfNoneMatch: "*",
        },
      }).done();
    } catch (error) {
      if ((error as S3ServiceException).$metadata?.httpStatusCode === 412) throw new ConflictError(USED);
      throw error;
    }
  }

  async localFile(key: string): Promise<string | undefined> {
    const file = path.join(this.cacheDir, key);
    if (existsSync(file)) return file;
    let body: Readable;
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }),
      );
      body = answer.Body as Readable;
    } catch (error) {
      if ((error as S3ServiceException).$metadata?.httpStatusCode === 404) return undefined;
      throw error;
    }
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: "wx" }));
      await rename(partial, file);
    } finally {
      await rm(partial, { force: true });
    }
    return file;
  }
}
