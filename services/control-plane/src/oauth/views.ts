import type { ControlPlane } from "@lgp/contracts";
import type { OAuthProvider, OAuthToken } from "./repository";

type Schemas = ControlPlane.components["schemas"];
export type ProviderView = Schemas["OAuthProvider"];
export type ProviderCreate = Schemas["OAuthProviderCreate"];
export type ProviderUpdate = Schemas["OAuthProviderUpdate"];
export type TokenView = Schemas["OAuthToken"];
export type AuthenticateRequest = Schemas["AuthenticateRequest"];
export type AuthenticateResponse = Schemas["AuthenticateResponse"];
export type WaitResponse = Schemas["AuthWaitResponse"];
export type TokenMethod = Schemas["OAuthTokenEndpointAuthMethod"];

/** The API shape of a provider: never the client secret, only whether one is stored. */
export function toProviderView(row: OAuthProvider): ProviderView {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    provider_id: row.providerId,
    name: row.name,
    client_id: row.clientId,
    auth_url: row.authUrl,
    token_url: row.tokenUrl,
    issuer: row.issuer,
    uses_pkce: row.usesPkce,
    code_challenge_method: "S256",
    token_endpoint_auth_method: row.tokenEndpointAuthMethod as TokenMethod,
    has_client_secret: row.clientSecretEncrypted !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The API shape of a token: the access token in plain text (its owner asked), never the refresh token. */
export function toTokenView(row: OAuthToken, providerSlug: string, accessToken: string): TokenView {
  return {
    id: row.id,
    provider_id: providerSlug,
    user_id: row.userId,
    scopes: row.scopes,
    token_type: row.tokenType,
    access_token: accessToken,
    expires_at: row.expiresAt?.toISOString() ?? null,
    has_refresh_token: row.refreshTokenEncrypted !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
