// A worker thread whose entry is one of this service's TypeScript files: tsx's CommonJS hook
// compiles it, whether or not the process itself runs under tsx (it does not under jest).
import { Worker, type WorkerOptions } from "node:worker_threads";

const BOOTSTRAP = `
const { workerData } = require("node:worker_threads");
if (!require.extensions[".ts"]) require(workerData.tsx).register();
require(workerData.entry);
`;

/** Starts `entry` (an absolute .ts path) in a worker thread; it reads `data` as its `workerData`. */
export function startTypeScriptWorker(
  entry: string,
  data: Record<string, unknown>,
  options: Omit<WorkerOptions, "eval" | "workerData"> = {},
): Worker {
  return new Worker(BOOTSTRAP, {
    ...options,
    eval: true,
    workerData: { ...data, entry, tsx: require.resolve("tsx/cjs/api") },
  });
}
