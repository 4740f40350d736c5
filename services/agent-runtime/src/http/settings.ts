// langgraph.json's `http` section, beyond `cors` (cors.ts): a custom app mounted in front of the
// built-in routes, built-in route groups switched off, and request headers copied into runs'
// `configurable`. Checked at start-up: a wrong value stops it with the key named.
import type { RequestHandler, Response } from "express";
import { z } from "zod";
import { authOf } from "../auth";
import { GraphConfigError, type GraphProject } from "../graphs/config";
import type { RunCaller } from "../runs/service";

const headerPatterns = z.array(z.string().min(1)).optional();

const httpSection = z
  .object({
    app: z.string().min(1).optional(),
    disable_assistants: z.boolean().default(false),
    disable_threads: z.boolean().default(false),
    disable_runs: z.boolean().default(false),
    disable_store: z.boolean().default(false),
    disable_meta: z.boolean().default(false),
    disable_ui: z.boolean().default(false),
    disable_mcp: z.boolean().default(false),
    disable_a2a: z.boolean().default(false),
    enable_custom_route_auth: z.boolean().default(true),
    configurable_headers: z
      .object({ includes: headerPatterns, include: headerPatterns, excludes: headerPatterns, exclude: headerPatterns })
      .loose()
      .nullish(),
  })
  .loose();

export interface HttpSettings {
  /** `http.app`: `./path/to/file.ts:export`, relative to langgraph.json. */
  app?: string;
  /** `http.enable_custom_route_auth: false` marks the custom routes public: they come before auth. */
  customRoutesPublic: boolean;
  disabled: {
    assistants: boolean;
    threads: boolean;
    runs: boolean;
    store: boolean;
    meta: boolean;
    ui: boolean;
    mcp: boolean;
    a2a: boolean;
  };
  /** Which request headers reach runs as `configurable` entries (lower-case names; `*` matches any run of characters). */
  configurableHeaders: { includes: RegExp[]; excludes: RegExp[] };
}

/**
 * Without `configurable_headers`, what the official servers copy: every `x-` header and
 * `user-agent` (a client's own context: a team, a user, a trace id).
 */
const DEFAULT_INCLUDES = ["x-*", "user-agent"];
/** Headers that carry a credential never reach a run (its config is stored and shown), whatever the settings say. */
const NEVER_COPIED = new Set(["x-api-key", "x-tenant-id", "x-service-key"]);

function patterns(values: string[] | undefined): RegExp[] {
  return (values ?? []).map(
    (value) =>
      new RegExp(
        `^${value
          .toLowerCase()
          .split("*")
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*")}$`,
      ),
  );
}

export function httpSettingsOf(project: GraphProject): HttpSettings {
  const raw = (project.json as { http?: unknown }).http ?? {};
  const parsed = httpSection.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new GraphConfigError(`invalid http.${issue.path.join(".")} in ${project.configPath}: ${issue.message}`);
  }
  const http = parsed.data;
  const headers = http.configurable_headers;
  return {
    app: http.app,
    customRoutesPublic: !http.enable_custom_route_auth,
    disabled: {
      assistants: http.disable_assistants,
      threads: http.disable_threads,
      runs: http.disable_runs,
      store: http.disable_store,
      meta: http.disable_meta,
      ui: http.disable_ui,
      mcp: http.disable_mcp,
      a2a: http.disable_a2a,
    },
    configurableHeaders: {
      // Excludes alone narrow the default; includes given (even none) replace it.
      includes: patterns(headers?.includes ?? headers?.include ?? DEFAULT_INCLUDES),
      excludes: patterns(headers?.excludes ?? headers?.exclude),
    },
  };
}

/** The headers of a request that go into its runs' `configurable`: included, and not excluded. */
export function configurableHeaders(
  settings: HttpSettings["configurableHeaders"],
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (NEVER_COPIED.has(lower)) continue;
    if (!settings.includes.some((pattern) => pattern.test(lower))) continue;
    if (settings.excludes.some((pattern) => pattern.test(lower))) continue;
    picked[lower] = Array.isArray(value) ? value.join(", ") : value;
  }
  return picked;
}

/**
 * Tells the run routes which of a request's headers go into its runs' `configurable`; they are
 * picked only when a run is created (`configurableHeadersOf`), not on every request.
 */
export function collectConfigurableHeaders(settings: HttpSettings["configurableHeaders"]): RequestHandler {
  return (_req, res, next) => {
    res.locals.configurableHeaderSettings = settings;
    next();
  };
}

function configurableHeadersOf(res: Response): Record<string, string> | undefined {
  const settings = res.locals.configurableHeaderSettings as HttpSettings["configurableHeaders"] | undefined;
  return settings && configurableHeaders(settings, res.req.headers);
}

/** Who asks for a run, from the request: its user (custom auth) and its configurable headers. */
export function runCallerOf(res: Response): RunCaller {
  return { auth: authOf(res), headers: configurableHeadersOf(res) };
}
