// The one question services ask before touching a resource: may this caller do this, to what value,
// and which rows may it see? Without a custom auth handler every answer is "yes, all of them".
import type { AuthAction, AuthContext, AuthFilters, AuthResource } from "./context";
import type { CustomAuth } from "./custom-auth";

export type AuthEvent = `${AuthResource}:${AuthAction}`;

export interface Authorization<T> {
  /** Conditions on the resource's metadata (the store: on the item and its namespace). */
  filters?: AuthFilters;
  /** The value, as the handler left it (handlers stamp metadata, rewrite namespaces). */
  value: T;
}

export type Authorize = <T>(auth: AuthContext | undefined, event: AuthEvent, value: T) => Promise<Authorization<T>>;

export const allowAll: Authorize = async (_auth, _event, value) => ({ value });

export function authorizerOf(customAuth: CustomAuth | undefined): Authorize {
  if (!customAuth) return allowAll;
  return (auth, event, value) => {
    const [resource, action] = event.split(":");
    return customAuth.authorize(auth, resource, action, value);
  };
}
