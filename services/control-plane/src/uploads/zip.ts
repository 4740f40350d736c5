// A .zip upload (what a browser user has at hand: Finder's "Compress", Windows' "Send to compressed
// folder", GitHub's "Download ZIP") unpacked into a folder, so the store can keep it as the gzip
// tarball every deployer reads. Read from its central directory with node:zlib, entry by entry,
// streamed: only plain files and directories, names inside the root, stored or deflated entries,
// every entry's size and CRC-32 as declared, and at most `maxUnpackedBytes` in all (a zip bomb
// stops there). Anything else is a 422 sentence saying what is wrong.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createInflateRaw, crc32 } from "node:zlib";
import { invalid } from "@lgp/server-kit";

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** The end record is 22 bytes, followed by a comment of at most 65535. */
const END_SEARCH = 22 + 0xffff;
const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

const refused = (message: string) => invalid(["body"], message);

interface Entry {
  name: string;
  kind: "file" | "directory";
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  executable: boolean;
}

/** Whether the first bytes of an upload are a zip's (a local file header, or the end record of an empty zip). */
export function looksLikeZip(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5);
}

/** Unpacks the zip `file` into the empty folder `dir`; throws a 422 naming the first problem. */
export async function unpackZip(file: string, dir: string, maxUnpackedBytes: number): Promise<void> {
  const handle = await open(file, "r");
  let entries: Entry[];
  try {
    entries = await centralDirectory(handle);
    for (const entry of entries) entry.localHeaderOffset = await dataOffset(handle, entry);
  } finally {
    await handle.close();
  }
  if (entries.length === 0) throw refused("The zip archive is empty: it holds no project");
  const declared = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (declared > maxUnpackedBytes)
    throw refused(`The zip archive unpacks to more than ${maxUnpackedBytes} bytes, the most accepted`);

  let unpacked = 0;
  for (const entry of entries) {
    const target = path.join(dir, ...entry.name.split("/"));
    // A folder where a file of the same name was unpacked (or the reverse) is a refusal, not a 500.
    const clash = () => {
      throw refused(`The zip archive holds ${entry.name} more than once`);
    };
    if (entry.kind === "directory") {
      await mkdir(target, { recursive: true }).catch(clash);
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true }).catch(clash);
    let written = 0;
    let crc = 0;
    // Counts what the entry really unpacks to: its declared size is checked, not trusted.
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done: TransformCallback) {
        written += chunk.length;
        unpacked += chunk.length;
        if (written > entry.size || unpacked > maxUnpackedBytes) {
          done(refused(`The zip archive's ${entry.name} unpacks to more than it declares`));
          return;
        }
        crc = crc32(chunk, crc);
        done(null, chunk);
      },
    });
    const source =
      entry.compressedSize === 0
        ? Readable.from([])
        : createReadStream(file, {
            start: entry.localHeaderOffset,
            end: entry.localHeaderOffset + entry.compressedSize - 1,
          });
    try {
      const output = createWriteStream(target, { flags: "wx", mode: entry.executable ? 0o755 : 0o644 });
      if (entry.method === 8 && entry.compressedSize > 0) await pipeline(source, createInflateRaw(), count, output);
      else await pipeline(source, count, output);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST" || code === "EISDIR") throw refused(`The zip archive holds ${entry.name} more than once`);
      if (code?.startsWith("Z_") || code?.startsWith("ERR_ZLIB"))
        throw refused(`The zip archive is damaged: ${entry.name} does not inflate`);
      throw error;
    } finally {
      source.destroy();
    }
    if (written !== entry.size || crc !== entry.crc)
      throw refused(`The zip archive is damaged: ${entry.name} does not match its checksum`);
  }
}

async function read(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead < length) throw refused("The zip archive is truncated");
  return buffer;
}

async function centralDirectory(handle: FileHandle): Promise<Entry[]> {
  const { size } = await handle.stat();
  const tailLength = Math.min(size, END_SEARCH);
  const tail = await read(handle, size - tailLength, tailLength);
  let end = -1;
  for (let at = tail.length - 22; at >= 0; at--) {
    if (tail.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw refused("The zip archive is damaged: its central directory is missing");
  const disk = tail.readUInt16LE(end + 4);
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff)
    throw refused("ZIP64 archives are not accepted: pack the project as a .tar.gz instead");
  if (disk !== 0) throw refused("Split zip archives are not accepted: upload it as one file");
  if (directoryOffset + directorySize > size) throw refused("The zip archive is truncated");

  const directory = await read(handle, directoryOffset, directorySize);
  const entries: Entry[] = [];
  let at = 0;
  for (let index = 0; index < count; index++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_HEADER)
      throw refused("The zip archive is damaged: its central directory is unreadable");
    const madeBy = directory.readUInt16LE(at + 4);
    const flags = directory.readUInt16LE(at + 8);
    const method = directory.readUInt16LE(at + 10);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const attributes = directory.readUInt32LE(at + 38);
    const rawName = directory.subarray(at + 46, at + 46 + nameLength);
    const name = rawName.toString(flags & 0x800 ? "utf8" : "latin1");
    const entry = {
      crc: directory.readUInt32LE(at + 16),
      compressedSize: directory.readUInt32LE(at + 20),
      size: directory.readUInt32LE(at + 24),
      localHeaderOffset: directory.readUInt32LE(at + 42),
    };
    at += 46 + nameLength + extraLength + commentLength;
    // macOS's Finder adds resource forks under __MACOSX/: metadata, not the project.
    if (name === "__MACOSX/" || name.startsWith("__MACOSX/")) continue;
    checkName(name);
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff || entry.localHeaderOffset === 0xffffffff)
      throw refused("ZIP64 archives are not accepted: pack the project as a .tar.gz instead");
    if (flags & 0x1) throw refused(`The zip archive is encrypted (${name}): upload it without a password`);
    const unixMode = madeBy >> 8 === UNIX_HOST ? attributes >>> 16 : 0;
    const type = unixMode & S_IFMT;
    const isDirectory = type === S_IFDIR || (type === 0 && (name.endsWith("/") || (attributes & 0x10) !== 0));
    if (type !== 0 && type !== S_IFDIR && type !== S_IFREG)
      throw refused(`The zip archive holds a link or special file (${name}): only files and directories are accepted`);
    if (!isDirectory && method !== 0 && method !== 8)
      throw refused(
        `The zip archive's ${name} is compressed with method ${method}: only stored and deflated entries are accepted`,
      );
    entries.push({
      ...entry,
      name: name.replace(/\/+$/, ""),
      kind: isDirectory ? "directory" : "file",
      method,
      executable: (unixMode & 0o111) !== 0,
    });
  }
  return entries;
}

/** Names are relative and stay inside the root: no leading /, drive letter, backslash or `..`. */
function checkName(name: string): void {
  const trimmed = name.replace(/\/+$/, "");
  if (
    trimmed === "" ||
    name.startsWith("/") ||
    /^[A-Za-z]:/.test(name) ||
    name.includes("\\") ||
    name.includes("\0") ||
    trimmed.split("/").some((part) => part === ".." || part === "")
  )
    throw refused(`The zip archive holds a path outside its root: ${name}`);
}

/** Where an entry's data starts: after its local header, whose name and extra field lengths may differ from the directory's. */
async function dataOffset(handle: FileHandle, entry: Entry): Promise<number> {
  const header = await read(handle, entry.localHeaderOffset, 30);
  if (header.readUInt32LE(0) !== LOCAL_HEADER)
    throw refused(`The zip archive is damaged: ${entry.name} has no local header`);
  return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}
