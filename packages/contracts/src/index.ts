import controlPlaneDocument from "./generated/control-plane.openapi.json";
import agentRuntimeDocument from "./generated/agent-runtime.openapi.json";

export type * as ControlPlane from "./generated/control-plane";
export type * as AgentRuntime from "./generated/agent-runtime";
export { TERMINAL_REVISION_STATUSES, isTerminalRevisionStatus } from "./revision-status";

/** The bundled OpenAPI documents; each service validates every request against its own. */
export const controlPlaneApi = controlPlaneDocument as Record<string, unknown>;
export const agentRuntimeApi = agentRuntimeDocument as Record<string, unknown>;
