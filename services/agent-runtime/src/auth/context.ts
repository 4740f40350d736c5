// Who is calling: the user a custom auth handler returned (or the studio user a deployment key
// stands for), carried from the HTTP layer to the services that check it.
import type { Response } from "express";

export interface AuthUser {
  identity: string;
  permissions: string[];
  display_name: string;
  is_authenticated: boolean;
  [key: string]: unknown;
}

export interface AuthContext {
  user: AuthUser;
  /** The user's permissions, as handlers receive them. */
  scopes: string[];
}

/**
 * What a resource handler may return to narrow what a user sees: metadata keys that must equal a
 * string (`{owner: "u1"}` or `{owner: {$eq: "u1"}}`), or arrays that must contain values
 * (`{team: {$contains: "t1"}}`, `{team: {$contains: ["t1", "t2"]}}`).
 */
export type AuthFilters = Record<string, string | { $eq?: string; $contains?: string | string[] }>;

/** The events handlers are registered for, as the official server names them. */
export type AuthResource = "threads" | "assistants" | "crons" | "store";
export type AuthAction =
  "create" | "read" | "update" | "delete" | "search" | "create_run" | "put" | "get" | "list_namespaces";

/** Set by the authentication middleware; absent when the runtime has no custom auth. */
export function authOf(res: Response): AuthContext | undefined {
  return res.locals.auth as AuthContext | undefined;
}

/** The deployment key a request was authenticated with (the start of its hash), when it was one. */
export function apiKeyIdOf(res: Response): string | undefined {
  return res.locals.apiKeyId as string | undefined;
}

/** What a run's graph sees of its caller: `config.configurable.langgraph_auth_user` and its kin. */
export function authConfigurable(auth: AuthContext | undefined): Record<string, unknown> {
  if (!auth) return {};
  return {
    langgraph_auth_user: auth.user,
    langgraph_auth_user_id: auth.user.identity,
    langgraph_auth_permissions: auth.scopes,
  };
}
