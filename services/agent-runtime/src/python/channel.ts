// The local channel to a Python graph host (services/agent-runtime/python, lgp_host.channel): frames
// of a 4-byte length, a 4-byte header length, a JSON header `{t, id, ...}` and a payload (JSON, or
// nothing). Calls get one reply; streams get items (each a header and its payload, kept as text so
// an event's data goes to its clients as the host wrote it) and an end, the host sending at most
// STREAM_WINDOW items ahead of what was read. The host calls back (the store) the same way.
import type { Duplex } from "node:stream";

/** Items a stream may send before it is granted more (the host's STREAM_WINDOW). */
const STREAM_WINDOW = 128;
const MAX_FRAME = 256 * 1024 * 1024;

/** An error the host answered (its Python exception's class name and message). */
export class PythonError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** The host is gone (it exited, or its channel closed): what was under way there is lost. */
export class PythonHostLostError extends Error {
  /** A connection fault to the runtime (isTransientError): a run that meets it is handed back. */
  readonly code = "ECONNRESET";
  constructor(message = "the Python graph host stopped") {
    super(message);
    this.name = "PythonHostLostError";
  }
}

export interface StreamItem {
  header: Record<string, unknown>;
  /** The payload's JSON text ("" for none). */
  data: string;
}

export type CallHandler = (op: string, args: unknown) => Promise<unknown>;
export type FrameListener = (header: Record<string, unknown>, data: string) => void;

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** A stream's items as they arrive, read by one consumer. */
class ItemQueue implements AsyncIterable<StreamItem> {
  private readonly items: StreamItem[] = [];
  private waiter?: () => void;
  private done = false;
  private failure?: Error;
  private read = 0;

  constructor(private readonly grant: (n: number) => void) {}

  push(item: StreamItem): void {
    this.items.push(item);
    this.wake();
  }

  end(error?: Error): void {
    this.done = true;
    this.failure = error;
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StreamItem> {
    for (;;) {
      const item = this.items.shift();
      if (item) {
        // More credit once half the window is read, so the host rarely waits for it.
        if (++this.read === STREAM_WINDOW / 2) {
          this.read = 0;
          this.grant(STREAM_WINDOW / 2);
        }
        yield item;
        continue;
      }
      if (this.done) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }
}

export class PythonChannel {
  private nextId = 1;
  private readonly calls = new Map<number, PendingCall>();
  private readonly streams = new Map<number, ItemQueue>();
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private lost?: Error;

  constructor(
    private readonly socket: Duplex,
    private readonly handlers: {
      /** The host's calls (the store): their answer, or a thrown error. */
      call: CallHandler;
      /** Frames that are not answers: `ready`, `log`. */
      frame: FrameListener;
    },
  ) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("close", () => this.close(new PythonHostLostError()));
    socket.on("error", (error) =>
      this.close(new PythonHostLostError(`the Python graph host's channel failed: ${error.message}`)),
    );
  }

  /** Asks the host; resolves with its answer's payload. */
  call<T = unknown>(op: string, args: unknown): Promise<T> {
    if (this.lost) return Promise.reject(this.lost);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.send({ t: "call", id, op }, JSON.stringify(args));
    });
  }

  /** Starts a stream on the host; aborting `signal` cancels it there. */
  stream(op: string, args: unknown, signal?: AbortSignal): AsyncIterable<StreamItem> {
    const id = this.nextId++;
    const queue = new ItemQueue((n) => this.send({ t: "credit", id, n }));
    if (this.lost) {
      queue.end(this.lost);
      return queue;
    }
    this.streams.set(id, queue);
    this.send({ t: "stream", id, op }, JSON.stringify(args));
    if (signal) {
      const cancel = () => this.send({ t: "cancel", id });
      if (signal.aborted) cancel();
      else signal.addEventListener("abort", cancel, { once: true });
    }
    return queue;
  }

  private send(header: Record<string, unknown>, payload = ""): void {
    if (this.lost || this.socket.destroyed) return;
    const head = Buffer.from(JSON.stringify(header));
    const body = Buffer.from(payload);
    const sizes = Buffer.allocUnsafe(8);
    sizes.writeUInt32BE(4 + head.length + body.length, 0);
    sizes.writeUInt32BE(head.length, 4);
    this.socket.write(body.length ? Buffer.concat([sizes, head, body]) : Buffer.concat([sizes, head]));
  }

  private receive(chunk: Buffer): void {
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    while (this.bufferedBytes >= 8) {
      const data = this.buffered.length === 1 ? this.buffered[0] : Buffer.concat(this.buffered);
      this.buffered = [data];
      const size = data.readUInt32BE(0);
      if (size > MAX_FRAME)
        return this.close(new PythonHostLostError(`the Python graph host sent a frame of ${size} bytes`));
      if (data.length < 4 + size) return;
      const headSize = data.readUInt32BE(4);
      const header = JSON.parse(data.toString("utf8", 8, 8 + headSize)) as Record<string, unknown>;
      const payload = data.toString("utf8", 8 + headSize, 4 + size);
      const rest = data.subarray(4 + size);
      this.buffered = rest.length ? [rest] : [];
      this.bufferedBytes = rest.length;
      this.dispatch(header, payload);
    }
  }

  private dispatch(header: Record<string, unknown>, payload: string): void {
    const id = header.id as number;
    switch (header.t) {
      case "reply": {
        const pending = this.calls.get(id);
        const queue = this.streams.get(id);
        const error = header.error as { name?: string; message?: string } | undefined;
        const failure = error && new PythonError(error.name ?? "Error", error.message ?? "");
        if (pending) {
          this.calls.delete(id);
          if (failure) pending.reject(failure);
          else pending.resolve(payload ? JSON.parse(payload) : null);
        } else if (queue) {
          this.streams.delete(id);
          queue.end(failure);
        }
        return;
      }
      case "item":
        this.streams.get(id)?.push({ header, data: payload });
        return;
      case "end":
        this.streams.get(id)?.end();
        this.streams.delete(id);
        return;
      case "call":
        void this.answer(id, header.op as string, payload ? JSON.parse(payload) : {});
        return;
      default:
        this.handlers.frame(header, payload);
    }
  }

  private async answer(id: number, op: string, args: unknown): Promise<void> {
    try {
      const result = await this.handlers.call(op, args);
      this.send({ t: "reply", id }, JSON.stringify(result ?? null));
    } catch (error) {
      const { name, message } = error as Error;
      this.send({ t: "reply", id, error: { name: name ?? "Error", message: message ?? String(error) } });
    }
  }

  /** Fails what is under way (the host is gone) and refuses what comes after. */
  close(error: Error = new PythonHostLostError()): void {
    if (this.lost) return;
    this.lost = error;
    for (const pending of this.calls.values()) pending.reject(error);
    for (const queue of this.streams.values()) queue.end(error);
    this.calls.clear();
    this.streams.clear();
    this.socket.destroy();
  }
}
