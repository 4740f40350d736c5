// First import of the control plane: traces start, when OTEL_* asks for them, before the modules
// they instrument (HTTP, Express, pg) load.
import { startTracing } from "@lgp/server-kit/src/tracing/sdk";

startTracing("control-plane");
