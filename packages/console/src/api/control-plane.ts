// The control plane's public API, as any client calls it: same origin (the control plane serves
// the console), the signed-in key as X-Api-Key. Types come from the OpenAPI contract.
import type { ControlPlane } from "@lgp/contracts";
import { ApiError, errorFromResponse, UNREACHABLE } from "./errors";
import { session } from "./session";

type Schemas = ControlPlane.components["schemas"];
export type Deployment = Schemas["Deployment"];
export type DeploymentWithKey = Schemas["DeploymentWithKey"];
export type DeploymentCreate = Schemas["DeploymentCreate"];
export type DeploymentPatch = Schemas["DeploymentPatch"];
export type DeploymentStatus = Schemas["DeploymentStatus"];
export type DeploymentSource = Schemas["DeploymentSource"];
export type Revision = Schemas["Revision"];
export type RevisionStatus = Schemas["RevisionStatus"];
export type LogLine = Schemas["LogLine"];
export type CliLogLine = Schemas["CliLogLine"];
export type LogQuery = Schemas["LogQuery"];
export type OAuthProvider = Schemas["OAuthProvider"];
export type OAuthProviderCreate = Schemas["OAuthProviderCreate"];
export type OAuthProviderUpdate = Schemas["OAuthProviderUpdate"];
export type AuthenticateResponse = Schemas["AuthenticateResponse"];
export type Tenant = Schemas["Tenant"];
export type LocalRuntime = Schemas["LocalRuntime"];

type Operations = ControlPlane.operations;
export type UploadUrl = Operations["requestUploadUrl"]["responses"][200]["content"]["application/json"];
export type UploadStored = Operations["uploadSourceTarball"]["responses"][200]["content"]["application/json"];

type Query = Record<string, string | number | boolean | undefined | null>;

async function call<T>(method: string, path: string, options: { query?: Query; body?: unknown; key?: string } = {}) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { Accept: "application/json" };
  const key = options.key ?? session.apiKey();
  if (key) headers["X-Api-Key"] = key;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, UNREACHABLE);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a proxy's HTML error page): the status alone makes the message.
    body = undefined;
  }
  if (!response.ok) throw errorFromResponse(response.status, body);
  return body as T;
}

/**
 * PUTs an archive to an upload URL with XMLHttpRequest, whose upload events give the progress
 * (fetch reports none). No API key: the signed URL is the credential. The URL names this control
 * plane (PUBLIC_URL), which serves the console: its path is sent to this origin, as every call is.
 */
function putArchive(
  uploadUrl: string,
  archive: Blob,
  contentType: string,
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<UploadStored> {
  const url = new URL(uploadUrl);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PUT", new URL(url.pathname + url.search, window.location.origin));
    request.setRequestHeader("Content-Type", contentType);
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (event) =>
      onProgress(event.loaded, event.lengthComputable ? event.total : archive.size);
    request.onload = () => {
      let body: unknown;
      try {
        body = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (request.status >= 200 && request.status < 300) {
        resolve(body as UploadStored);
        return;
      }
      // A refused archive is a 422 about the body as a whole: its sentences, not "correct the fields".
      const detail = (body as { detail?: unknown } | undefined)?.detail;
      if (Array.isArray(detail))
        reject(new ApiError(request.status, detail.map((item: { msg?: string }) => item.msg).join("; ")));
      else reject(errorFromResponse(request.status, body));
    };
    request.onerror = () => reject(new ApiError(0, "The upload was interrupted: the server could not be reached."));
    request.onabort = () => reject(new ApiError(0, "The upload was cancelled."));
    signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.send(archive);
  });
}

export const controlPlane = {
  /** Checks a key before it is kept: answers its tenant. */
  tenant: (key?: string) => call<Tenant>("GET", "/v2/tenant", { key }),

  /** The runtime npm start runs beside this control plane, with its key (404 when there is none for this tenant). */
  localRuntime: () => call<LocalRuntime>("GET", "/v2/local-runtime"),

  listDeployments: (query: {
    limit?: number;
    offset?: number;
    name_contains?: string;
    status?: string;
    deployment_type?: string;
    image_version?: string;
  }) => call<Schemas["DeploymentList"]>("GET", "/v2/deployments", { query }),
  createDeployment: (body: DeploymentCreate) => call<DeploymentWithKey>("POST", "/v2/deployments", { body }),
  getDeployment: (id: string) => call<Deployment>("GET", `/v2/deployments/${id}`),
  updateDeployment: (id: string, body: DeploymentPatch) => call<Deployment>("PATCH", `/v2/deployments/${id}`, { body }),
  deleteDeployment: (id: string) => call<void>("DELETE", `/v2/deployments/${id}`),
  rotateRuntimeKey: (id: string) => call<DeploymentWithKey>("POST", `/v2/deployments/${id}/api-key`),
  /** A signed, single-use URL to upload a source archive to (internal_source deployments), as `langgraph deploy` asks. */
  requestUploadUrl: (id: string) => call<UploadUrl>("POST", `/v2/deployments/${id}/upload-url`),
  putArchive,

  listRevisions: (id: string, query: { limit?: number; offset?: number } = {}) =>
    call<Schemas["RevisionList"]>("GET", `/v2/deployments/${id}/revisions`, { query }),
  getRevision: (id: string, revisionId: string) =>
    call<Revision>("GET", `/v2/deployments/${id}/revisions/${revisionId}`),
  redeploy: (id: string, revisionId: string) =>
    call<Deployment>("POST", `/v2/deployments/${id}/revisions/${revisionId}/redeploy`),
  logs: (
    id: string,
    revisionId: string,
    type: "build" | "deploy",
    query: { level?: string; offset?: number; limit?: number; query?: string },
  ) => call<Schemas["LogPage"]>("GET", `/v2/deployments/${id}/revisions/${revisionId}/logs/${type}`, { query }),
  /** The deploy log of all the deployment's revisions together (its runtimes' output), as the official CLI reads it. */
  deploymentLogs: (id: string, body: Partial<LogQuery>) =>
    call<Schemas["CliLogPage"]>("POST", `/v1/projects/${id}/deploy_logs`, { body }),

  listProviders: () => call<OAuthProvider[]>("GET", "/v2/auth/providers"),
  getProvider: (providerId: string) => call<OAuthProvider>("GET", `/v2/auth/providers/${providerId}`),
  createProvider: (body: OAuthProviderCreate) => call<OAuthProvider>("POST", "/v2/auth/providers", { body }),
  updateProvider: (providerId: string, body: OAuthProviderUpdate) =>
    call<OAuthProvider>("PATCH", `/v2/auth/providers/${providerId}`, { body }),
  deleteProvider: (providerId: string) => call<unknown>("DELETE", `/v2/auth/providers/${providerId}`),
  authenticate: (body: Schemas["AuthenticateRequest"]) =>
    call<AuthenticateResponse>("POST", "/v2/auth/authenticate", { body }),
};
