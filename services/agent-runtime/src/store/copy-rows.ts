// Rows of bytea as bytes, not hex (issue 40): a semantic search reads thousands of int8 copies
// (1.5 KB each at 1536 dims). As query results they come as hex text, twice their size: the server
// encodes it, the client decodes it to a string and then to bytes, most of the read's time (node-pg
// takes no binary results). COPY ... TO STDOUT (FORMAT binary) sends the bytes themselves, read
// here from the pg client's CopyData messages. COPY takes no parameters: the statement's values
// are written into it as literals (numbers, strings escaped as libpq does, bytes, dates, arrays).
import pg from "pg";
import { poolOf, type Db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { readRows } from "./read-rows";

/**
 * Rows as the server's binary COPY writes them: every column's bytes in one buffer, found by their
 * offsets (no object per value: a search's thousands of rows made as many views, and the garbage
 * collection of them cost it more than reading them).
 */
export class BinaryRows {
  constructor(
    /** The bytes, every row's columns among them. */
    readonly data: Buffer,
    readonly count: number,
    readonly columns: number,
    /** Where each value starts in `data` (row by row), and its length: -1 for NULL. */
    private readonly starts: Int32Array,
    private readonly lengths: Int32Array,
    /** The read's buffer, `data` at its start, to give back (release). */
    private whole?: Buffer,
  ) {}

  /**
   * Gives the read's buffer back for another read to fill: the rows must not be read after.
   * Optional (a buffer not given back is collected), but each search's reads filled megabytes of
   * new buffers, and V8 answered them with a full garbage collection every search or two.
   */
  release(): void {
    if (this.whole && spare.length < SPARE_BUFFERS && this.whole.length <= SPARE_BYTES) spare.push(this.whole);
    this.whole = undefined;
  }

  /** Where column `column` of row `row` starts in `data`. */
  start(row: number, column: number): number {
    return this.starts[row * this.columns + column]!;
  }

  /** Its length in bytes, -1 for NULL. */
  length(row: number, column: number): number {
    return this.lengths[row * this.columns + column]!;
  }

  /** Its bytes (a view of `data`), null for NULL. */
  bytes(row: number, column: number): Buffer | null {
    const length = this.length(row, column);
    const start = this.start(row, column);
    return length < 0 ? null : this.data.subarray(start, start + length);
  }

  /** Its text (UTF-8, the server's encoding), null for NULL. */
  text(row: number, column: number): string | null {
    const length = this.length(row, column);
    const start = this.start(row, column);
    return length < 0 ? null : this.data.toString("utf8", start, start + length);
  }

  /** Rows of text and bytes (as read the other way, readRows) in this form. */
  static of(rows: (string | Uint8Array | null)[][], columns: number): BinaryRows {
    const starts = new Int32Array(rows.length * columns);
    const lengths = new Int32Array(rows.length * columns).fill(-1);
    const parts: Buffer[] = [];
    let at = 0;
    rows.forEach((row, r) => {
      for (let c = 0; c < columns; c++) {
        const value = row[c];
        if (value === null || value === undefined) continue;
        const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : Buffer.from(value);
        starts[r * columns + c] = at;
        lengths[r * columns + c] = bytes.length;
        parts.push(bytes);
        at += bytes.length;
      }
    });
    return new BinaryRows(Buffer.concat(parts), rows.length, columns, starts, lengths);
  }
}

/** The rows of `sql` in binary form; undefined where the client's pg pool is not at hand. */
export async function copyRows(db: Db, sql: Prisma.Sql): Promise<BinaryRows | undefined> {
  const pool = poolOf(db);
  if (!pool) return undefined;
  const copy = new CopyOut(`COPY (${inlined(sql)}) TO STDOUT (FORMAT binary)`);
  const client = await pool.connect();
  let failed = false;
  try {
    client.query(copy as unknown as pg.QueryConfig);
    const whole = await copy.done;
    return parseBinaryCopy(whole.subarray(0, copy.length), whole);
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A client whose COPY failed is not reused: its state after an error is not ours to judge.
    client.release(failed);
  }
}

/**
 * The rows of `sql` in binary form: by a binary COPY where the client's pg pool is at hand, else
 * read as arrays (readRows) and put in that form, `columns` wide.
 */
export async function binaryRows(db: Db, sql: Prisma.Sql, columns: number): Promise<BinaryRows> {
  return (await copyRows(db, sql)) ?? BinaryRows.of(await readRows<(string | Uint8Array | null)[]>(db, sql), columns);
}

/** `sql`'s text with each `$n` replaced by its value as a literal. */
export function inlined(sql: Prisma.Sql): string {
  return sql.text.replace(/\$(\d+)/g, (_, index: string) => literal(sql.values[Number(index) - 1]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  // In parentheses where negative: `x-$1` must not become the comment `x--1`.
  if (typeof value === "number" || typeof value === "bigint") return value < 0 ? `(${scalar(value)})` : scalar(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return pg.escapeLiteral(value);
  if (value instanceof Uint8Array) return pg.escapeLiteral(`\\x${Buffer.from(value).toString("hex")}`);
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (Array.isArray(value)) {
    // One array literal, '{...}' (the statement casts it, as it casts an array parameter): an
    // ARRAY[...] of thousands of elements, a node each, took the server a while to parse.
    if (
      value.every((element) => element === null || ["string", "number", "bigint", "boolean"].includes(typeof element))
    )
      return pg.escapeLiteral(`{${value.map(arrayElement).join(",")}}`);
    return `ARRAY[${value.map(literal).join(", ")}]`;
  }
  throw new Error(`copyRows: cannot write a ${typeof value} as a literal`);
}

function scalar(value: number | bigint): string {
  if (typeof value === "number" && !Number.isFinite(value))
    throw new Error(`copyRows: cannot write ${value} as a literal`);
  return String(value);
}

function arrayElement(element: string | number | bigint | boolean | null): string {
  if (element === null) return "NULL";
  if (typeof element === "string") return `"${element.replace(/[\\"]/g, "\\$&")}"`;
  return typeof element === "boolean" ? String(element) : scalar(element);
}

/**
 * A pg "submittable" (as pg-copy-streams is): sends the COPY by the simple protocol and gathers its
 * CopyData chunks (a row each) into one buffer, grown as needed. The parser's chunks are views of
 * its own buffer, reused for what follows: copied, into the one buffer (thousands of small copies
 * and their concatenation cost a search more in garbage collection than the copying).
 */
class CopyOut {
  /** The buffer the COPY was read into (its first `length` bytes). */
  readonly done: Promise<Buffer>;
  private data = spare.pop() ?? Buffer.allocUnsafeSlow(256 * 1024);
  /** How much of the buffer `done` answers the COPY filled. */
  length = 0;
  private error?: Error;
  private settle!: { resolve(data: Buffer): void; reject(error: Error): void };

  constructor(private readonly text: string) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    const { chunk } = message;
    if (this.length + chunk.length > this.data.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.data.length, this.length + chunk.length));
      this.data.copy(grown, 0, 0, this.length);
      this.data = grown;
    }
    this.length += chunk.copy(this.data, this.length);
  }

  handleError(error: Error): void {
    this.error ??= error;
    this.settle.reject(error);
  }

  handleReadyForQuery(): void {
    if (this.error) this.settle.reject(this.error);
    else this.settle.resolve(this.data);
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail("copyRows only reads");
  }
}

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/** Buffers of reads done with (BinaryRows.release), for the next reads: a few, of searches' sizes. */
const spare: Buffer[] = [];
const SPARE_BUFFERS = 2;
const SPARE_BYTES = 16 * 1024 * 1024;

/** The rows of a binary COPY: a signature, flags and header extension, then tuples until -1. */
export function parseBinaryCopy(data: Buffer, whole?: Buffer): BinaryRows {
  if (data.length < 19 || !data.subarray(0, SIGNATURE.length).equals(SIGNATURE))
    throw new Error("copyRows: not a binary COPY");
  let first = SIGNATURE.length + 4;
  first += 4 + data.readInt32BE(first);
  // Once to count the values, once to note where they are: their arrays made once, to size.
  let columns = -1;
  let values = 0;
  let at = first;
  for (;;) {
    const count = data.readInt16BE(at);
    at += 2;
    if (count === -1) break;
    if (columns === -1) columns = count;
    else if (count !== columns) throw new Error(`copyRows: a row of ${count} columns among rows of ${columns}`);
    for (let i = 0; i < count; i++, values++) at += 4 + Math.max(0, data.readInt32BE(at));
  }
  const starts = new Int32Array(values);
  const lengths = new Int32Array(values);
  at = first;
  for (let value = 0; value < values;) {
    at += 2;
    for (let i = 0; i < columns; i++, value++) {
      const length = data.readInt32BE(at);
      at += 4;
      starts[value] = at;
      lengths[value] = length;
      if (length > 0) at += length;
    }
  }
  return new BinaryRows(data, columns > 0 ? values / columns : 0, Math.max(columns, 0), starts, lengths, whole);
}
