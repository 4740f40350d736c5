// First import of an API process (and of its worker threads): traces start, when OTEL_* asks for
// them, before the modules they instrument load.
import { startTracing } from "@lgp/server-kit/src/tracing/sdk";

startTracing("agent-runtime");
