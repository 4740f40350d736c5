// The worker thread of centroid-worker.ts: k-means of a training's sample and the nearest list of
// each vector moved to a new training's lists, computed off the server's main thread.
import { parentPort } from "node:worker_threads";
import type { CentroidReply, CentroidRequest } from "./centroid-worker";
import { kmeans, nearestOne, rowsOf } from "./vectors";

let centroids: Float32Array[] = [];

parentPort!.on("message", (request: CentroidRequest) => {
  try {
    if (request.op === "kmeans") {
      const trained = kmeans(rowsOf(request.sample, request.dims), request.k, request.rounds);
      const flat = new Float32Array(trained.length * request.dims);
      trained.forEach((centroid, i) => flat.set(centroid, i * request.dims));
      reply({ id: request.id, centroids: flat }, [flat.buffer]);
    } else if (request.op === "centroids") {
      centroids = rowsOf(request.centroids, request.dims);
      reply({ id: request.id });
    } else {
      const lists = Int32Array.from(rowsOf(request.vectors, request.dims), (vector) => nearestOne(vector, centroids));
      reply({ id: request.id, lists }, [lists.buffer]);
    }
  } catch (error) {
    reply({ id: request.id, error: (error as Error)?.message ?? String(error) });
  }
});

function reply(message: CentroidReply, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}
