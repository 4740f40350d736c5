// What a failed request means to a person: a sentence, and for a 422 the message of each field,
// keyed by its path in the body ("name", "source_config.repo_url"), to show beside that field.

export const UNREACHABLE = "The server could not be reached. Check that it is running.";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface ValidationItem {
  loc?: unknown[];
  msg?: string;
}

/** The control plane answers `{detail: "text"}` or, for a 422, `{detail: [{loc, msg, type}]}`. */
export function errorFromResponse(status: number, body: unknown): ApiError {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (Array.isArray(detail)) {
    const fields: Record<string, string> = {};
    const sentences: string[] = [];
    for (const item of detail as ValidationItem[]) {
      const loc = (item.loc ?? []).map(String);
      const path = (loc[0] === "body" || loc[0] === "query" || loc[0] === "path" ? loc.slice(1) : loc).join(".");
      const msg = item.msg ?? "is not valid";
      if (path) fields[path] = fields[path] ? `${fields[path]}; ${msg}` : msg;
      sentences.push(path ? `${path}: ${msg}` : msg);
    }
    return new ApiError(status, `Please correct the highlighted fields. ${sentences.join("; ")}`, fields);
  }
  if (typeof detail === "string" && detail) return new ApiError(status, detail);
  return new ApiError(status, fallbackMessage(status));
}

function fallbackMessage(status: number): string {
  if (status === 401) return "The API key was refused. Sign in again with a valid key.";
  if (status === 403) return "This key may not do that.";
  if (status === 404) return "Not found: it may have been deleted.";
  if (status >= 500) return `The server failed (${status}). Try again in a moment.`;
  return `The request failed (${status}).`;
}

/** A readable sentence for anything thrown (network failures included), never raw JSON. */
export function describe(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  // fetch's own failure (the SDK's too): no answer at all.
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) return UNREACHABLE;
  const text = (error as Error)?.message ?? String(error);
  // The official SDK throws "HTTP <status>: <body>"; show the detail, not the JSON.
  const match = /^HTTP (\d+): (.*)$/s.exec(text);
  if (match) {
    try {
      return errorFromResponse(Number(match[1]), JSON.parse(match[2])).message;
    } catch {
      // Not JSON (a proxy's HTML page): the status says enough.
      return errorFromResponse(Number(match[1]), undefined).message;
    }
  }
  return text;
}
