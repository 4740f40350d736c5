// Worker thread entry: extracts the schemas named in workerData and posts them back (an error ends
// the worker with it). Loaded through tsx's require hook (see reader.ts), so it is TypeScript.
import { parentPort, workerData } from "node:worker_threads";
import { extractSourceSchemas, type SourceGraphSpec } from "./extract";

const { spec } = workerData as { spec: SourceGraphSpec };
parentPort?.postMessage(extractSourceSchemas(spec));
