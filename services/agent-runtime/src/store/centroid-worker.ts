// The CPU of a training of the semantic index's lists, in a worker thread: k-means on the sample
// (36 s at 100k vectors of 256 dims) and the nearest list of every vector moved to the new lists
// (tens of ms per batch) ran on the API's main thread, slowing every request meanwhile. One
// worker per training or upkeep pass, ended after it.
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { startTypeScriptWorker } from "../common/typescript-worker";

export type CentroidRequest =
  | { id: number; op: "kmeans"; sample: Float32Array; dims: number; k: number; rounds: number }
  | { id: number; op: "centroids"; centroids: Float32Array; dims: number }
  | { id: number; op: "nearest"; vectors: Float32Array; dims: number };

export interface CentroidReply {
  id: number;
  centroids?: Float32Array;
  lists?: Int32Array;
  error?: string;
}

type Request = CentroidRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

export class CentroidWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(reply: CentroidReply): void; reject(error: Error): void }>();
  private nextId = 0;
  private failure?: Error;

  constructor() {
    this.worker = startTypeScriptWorker(path.join(__dirname, "centroid-thread.ts"), {});
    this.worker.on("message", (reply: CentroidReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.error) waiting?.reject(new Error(`store.index training: ${reply.error}`));
      else waiting?.resolve(reply);
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiting of this.pending.values()) waiting.reject(this.failure);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`store.index training: the worker stopped (exit code ${code})`)));
  }

  /** `k` unit centroids of the sample (vectors of `dims` end to end), laid end to end. */
  async kmeans(sample: Float32Array, dims: number, k: number, rounds: number): Promise<Float32Array> {
    return (await this.call({ op: "kmeans", sample, dims, k, rounds }, [sample.buffer as ArrayBuffer])).centroids!;
  }

  /** The centroids later `nearest` calls compare with. */
  async setCentroids(centroids: Float32Array[], dims: number): Promise<void> {
    const flat = new Float32Array(centroids.length * dims);
    centroids.forEach((centroid, i) => flat.set(centroid, i * dims));
    await this.call({ op: "centroids", centroids: flat, dims }, [flat.buffer]);
  }

  /** Each vector's nearest centroid (vectors of `dims` end to end). */
  async nearest(vectors: Float32Array, dims: number): Promise<Int32Array> {
    return (await this.call({ op: "nearest", vectors, dims }, [vectors.buffer as ArrayBuffer])).lists!;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private call(request: Request, transfer: ArrayBuffer[]): Promise<CentroidReply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }
}
