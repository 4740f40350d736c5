import type { OutboundFetch } from "@lgp/server-kit";
import { loadOAuthLib, type OAuthLib } from "./oauth-lib";

/** What the token endpoint needs to know about a provider (secret already decrypted). */
export interface ProviderEndpoint {
  clientId: string;
  clientSecret: string | null;
  authUrl: string;
  tokenUrl: string;
  issuer: string | null;
  tokenEndpointAuthMethod: string;
  /** Plain http to a loopback address is allowed (OAUTH_ALLOW_HTTP_LOOPBACK). */
  allowHttpLoopback: boolean;
  /** The fetch the token endpoint is called with: the outbound policy's (a tenant gave the URL). */
  outbound?: OutboundFetch;
}

export interface TokenSet {
  accessToken: string;
  tokenType: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string[] | null;
}

/** A failure the callback reports to the browser: an OAuth error code and a safe description. */
export class TokenExchangeError extends Error {
  constructor(
    readonly error: string,
    readonly errorDescription: string,
  ) {
    super(`${error}: ${errorDescription}`);
  }
}

const REQUEST_TIMEOUT_MS = 15_000;

/** Plain http is only acceptable to a provider on this machine (development and tests). */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname);
}

function endpoints(lib: OAuthLib, provider: ProviderEndpoint) {
  const authUrl = new URL(provider.authUrl);
  const as = {
    // The `iss` of authorization responses and ID tokens; providers that do not say otherwise
    // issue from the origin of their authorization endpoint.
    issuer: provider.issuer ?? authUrl.origin,
    authorization_endpoint: provider.authUrl,
    token_endpoint: provider.tokenUrl,
  };
  const client = { client_id: provider.clientId };
  const secret = provider.clientSecret ?? "";
  const clientAuth =
    provider.tokenEndpointAuthMethod === "none"
      ? lib.None()
      : provider.tokenEndpointAuthMethod === "client_secret_basic"
        ? lib.ClientSecretBasic(secret)
        : lib.ClientSecretPost(secret);
  const options = {
    [lib.allowInsecureRequests]: provider.allowHttpLoopback && isLoopbackHttp(new URL(provider.tokenUrl)),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    ...(provider.outbound ? { [lib.customFetch]: provider.outbound } : {}),
  };
  return { as, client, clientAuth, options };
}

function toTokenSet(result: {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}): TokenSet {
  return {
    accessToken: result.access_token,
    tokenType: result.token_type,
    refreshToken: result.refresh_token ?? null,
    expiresAt: typeof result.expires_in === "number" ? new Date(Date.now() + result.expires_in * 1000) : null,
    scopes: typeof result.scope === "string" ? result.scope.split(" ").filter(Boolean) : null,
  };
}

/** Maps the library's errors to an OAuth error code; nothing secret is carried over. */
function toExchangeError(lib: OAuthLib, error: unknown, fallback: string): TokenExchangeError {
  if (error instanceof lib.ResponseBodyError) {
    return new TokenExchangeError(
      error.error,
      error.error_description ?? `The token endpoint answered ${error.status}.`,
    );
  }
  if (error instanceof lib.AuthorizationResponseError) {
    return new TokenExchangeError(error.error, error.error_description ?? "The provider refused the authorization.");
  }
  if (error instanceof lib.OperationProcessingError) {
    return new TokenExchangeError(
      fallback,
      `The provider's response was not accepted (${error.code ?? "invalid response"}).`,
    );
  }
  if ((error as Error)?.name === "TimeoutError") {
    return new TokenExchangeError("temporarily_unavailable", "The token endpoint did not answer in time.");
  }
  return new TokenExchangeError(fallback, "The token endpoint could not be reached or answered unexpectedly.");
}

/**
 * Exchanges an authorization code (RFC 6749 4.1.3) with the provider's client authentication
 * method and, when PKCE was used, the code verifier. `callbackParameters` are the callback's query
 * parameters; `state` was already checked against the stored authorization.
 */
export async function exchangeCode(
  provider: ProviderEndpoint,
  callbackParameters: URLSearchParams,
  state: string,
  redirectUri: string,
  codeVerifier: string | null,
): Promise<TokenSet> {
  const lib = await loadOAuthLib();
  const { as, client, clientAuth, options } = endpoints(lib, provider);
  try {
    const params = lib.validateAuthResponse(as, client, callbackParameters, state);
    const response = await lib.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      redirectUri,
      codeVerifier ?? lib.nopkce,
      options,
    );
    return toTokenSet(await lib.processAuthorizationCodeResponse(as, client, response));
  } catch (error) {
    throw toExchangeError(lib, error, "token_exchange_failed");
  }
}

/** Trades a refresh token for a new access token (RFC 6749 section 6). */
export async function refreshTokens(provider: ProviderEndpoint, refreshToken: string): Promise<TokenSet> {
  const lib = await loadOAuthLib();
  const { as, client, clientAuth, options } = endpoints(lib, provider);
  try {
    const response = await lib.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, options);
    return toTokenSet(await lib.processRefreshTokenResponse(as, client, response));
  } catch (error) {
    throw toExchangeError(lib, error, "refresh_failed");
  }
}
