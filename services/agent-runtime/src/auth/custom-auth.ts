// The custom auth handler of langgraph.json (`auth.path`): an `Auth` from
// `@langchain/langgraph-sdk/auth`. `authenticate` turns a request into a user; the handlers
// registered with `on(...)` allow, deny, modify or filter each resource action.
import { HttpError } from "@lgp/server-kit";
import { GraphConfigError, type GraphProject } from "../graphs/config";
import { loadProjectExport } from "../graphs/modules";
import type { AuthContext, AuthFilters, AuthUser } from "./context";
import { isAuthFilters } from "./filters";

/** What `new Headers()` takes (the DOM lib, which names it, is not loaded here). */
type HeaderInit = ConstructorParameters<typeof Headers>[0];

type Handler = (request: {
  event: string;
  resource: string;
  action: string;
  value: unknown;
  permissions: string[];
  user: AuthUser;
}) => unknown;

/** The part of an SDK `Auth` instance the runtime calls. */
export interface HandlerCache {
  authenticate?: (request: Request) => unknown;
  callbacks?: Record<string, Handler>;
}

export interface AuthSettings {
  /** `auth.path`: `./src/auth.ts:auth`. */
  path?: string;
  /** `auth.disable_studio_auth`: a deployment key no longer stands for the studio user. */
  disable_studio_auth?: boolean;
}

/** The `HTTPException` of the SDK's auth module, told apart by shape (a copy of the SDK may differ). */
function isHttpException(error: unknown): error is { status: number; message: string; headers?: HeaderInit } {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { status?: unknown }).status === "number" &&
    "headers" in error
  );
}

function headersOf(init: HeaderInit | undefined): Record<string, string> | undefined {
  if (!init) return undefined;
  const headers = Object.fromEntries(new Headers(init).entries());
  return Object.keys(headers).length ? headers : undefined;
}

/** A handler's `HTTPException` becomes its status and message; anything else, `fallback`. */
function toHttpError(error: unknown, fallback: () => HttpError): HttpError {
  if (error instanceof HttpError) return error;
  if (isHttpException(error) && error.status >= 400 && error.status < 600) {
    return new HttpError(error.status, error.message, headersOf(error.headers));
  }
  return fallback();
}

/** The user an authenticate handler returned, in the one shape handlers and graphs receive. */
function normalizeUser(result: unknown): AuthContext {
  if (typeof result === "string" && result) {
    return {
      scopes: [],
      user: { identity: result, display_name: result, permissions: [], is_authenticated: true },
    };
  }
  const candidate = result as Record<string, unknown> | null;
  if (candidate && typeof candidate === "object" && typeof candidate.identity === "string") {
    const scopes = Array.isArray(candidate.permissions)
      ? candidate.permissions.filter((item): item is string => typeof item === "string")
      : [];
    return {
      scopes,
      user: {
        ...candidate,
        identity: candidate.identity,
        permissions: scopes,
        display_name: typeof candidate.display_name === "string" ? candidate.display_name : candidate.identity,
        is_authenticated: typeof candidate.is_authenticated === "boolean" ? candidate.is_authenticated : true,
      },
    };
  }
  throw new Error("authenticate must return a string identity or an object with a string `identity`");
}

export class CustomAuth {
  private constructor(
    private readonly handlers: HandlerCache,
    /** Where the handler comes from, for logs. */
    readonly source: string,
    readonly studioAuthDisabled: boolean,
  ) {}

  /**
   * Loads `auth.path` relative to langgraph.json; a wrong path or export stops start-up. A Python
   * `Auth` (`hosted`) is answered by the Python graph host.
   */
  static async load(
    project: GraphProject,
    hosted?: (spec: string) => HandlerCache | undefined,
  ): Promise<CustomAuth | undefined> {
    const settings = (project.json.auth ?? {}) as AuthSettings;
    if (!settings.path) return undefined;
    const inPython = hosted?.(settings.path);
    if (inPython) return new CustomAuth(inPython, settings.path, settings.disable_studio_auth === true);
    const { exported, file, exportName } = await loadProjectExport(project.configPath, "auth.path", settings.path);
    const handlers = (exported as { "~handlerCache"?: HandlerCache } | undefined)?.["~handlerCache"];
    if (!handlers) {
      throw new GraphConfigError(
        `auth.path ${settings.path}: export "${exportName}" of ${file} is not an Auth from @langchain/langgraph-sdk/auth`,
      );
    }
    return new CustomAuth(handlers, settings.path, settings.disable_studio_auth === true);
  }

  get hasAuthenticate(): boolean {
    return typeof this.handlers.authenticate === "function";
  }

  /**
   * The request's user. An `HTTPException` the handler throws keeps its status and message; any
   * other failure is a 401 (a broken token must never look like a server fault).
   */
  async authenticate(request: Request): Promise<AuthContext | undefined> {
    if (!this.handlers.authenticate) return undefined;
    try {
      return normalizeUser(await this.handlers.authenticate(request));
    } catch (error) {
      throw toHttpError(error, () => new HttpError(401, "Unauthorized", { "WWW-Authenticate": "Bearer" }));
    }
  }

  /**
   * Runs the most specific handler for `resource:action` (then `resource`, `*:action`, `*`). It may
   * change `value` in place; `false` or a throw denies (403); an object is a filter on what the
   * user may see. No handler, or no user (an internal call), allows everything.
   */
  async authorize<T>(
    auth: AuthContext | undefined,
    resource: string,
    action: string,
    value: T,
  ): Promise<{ filters?: AuthFilters; value: T }> {
    const callbacks = this.handlers.callbacks ?? {};
    const key = [`${resource}:${action}`, resource, `*:${action}`, "*"].find((candidate) => callbacks[candidate]);
    if (!key || !auth) return { value };
    let result: unknown;
    try {
      result = await callbacks[key]({
        event: `${resource}:${action}`,
        resource,
        action,
        value,
        permissions: auth.scopes,
        user: auth.user,
      });
    } catch (error) {
      throw toHttpError(error, () => new HttpError(403, "Forbidden"));
    }
    if (result === undefined || result === null || result === true) return { value };
    if (result === false) throw new HttpError(403, "Forbidden");
    if (!isAuthFilters(result)) {
      throw new HttpError(
        500,
        `auth handler for "${key}" returned an invalid filter: expected {key: string | {$eq} | {$contains}}, null, true or false`,
      );
    }
    return { filters: Object.keys(result).length ? result : undefined, value };
  }
}
