// First import of a worker process: its spans carry service.name agent-runtime-worker.
import { startTracing } from "@lgp/server-kit/src/tracing/sdk";

startTracing("agent-runtime-worker");
