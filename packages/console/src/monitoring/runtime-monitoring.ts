// The deployment's run figures, read from its own runtime (`GET /monitoring/runs`) with the
// runtime key this tab keeps, as the playground reads its agents. Directly, not through the
// control plane: the control plane keeps only a hash of that key, so it could not call the runtime
// itself, and the console asks for no secret the playground does not already ask for.
import type { AgentRuntime } from "@lgp/contracts";
import { ApiError, errorFromResponse, UNREACHABLE } from "../api/errors";

type Schemas = AgentRuntime.components["schemas"];
export type RunMonitoring = Schemas["RunMonitoring"];
export type RunBucket = Schemas["RunBucket"];
export type RunStats = Schemas["RunStats"];
export type MonitoringWindow = Schemas["MonitoringWindow"];

export async function readRunMonitoring(apiUrl: string, key: string, window: MonitoringWindow): Promise<RunMonitoring> {
  let response: Response;
  try {
    response = await fetch(`${apiUrl}/monitoring/runs?window=${window}`, {
      headers: { Accept: "application/json", "x-api-key": key },
    });
  } catch {
    throw new ApiError(0, UNREACHABLE);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  // A runtime older than this view answers 404: a new revision brings the endpoint.
  if (response.status === 404)
    throw new ApiError(
      404,
      "This runtime does not serve monitoring figures yet: redeploy the deployment to update it.",
    );
  if (!response.ok) throw errorFromResponse(response.status, body);
  return body as RunMonitoring;
}
